#include "wk_error.h"

#include <stdarg.h>

typedef struct {
  gint64 offset;
  gchar *context;
  gint64 tile, model, vertex; /* -1: unknown */
  gchar *object;
} WkErrorPrivate;

static void
wk_error_private_init (WkErrorPrivate *priv)
{
  priv->offset = -1;
  priv->context = NULL;
  priv->tile = priv->model = priv->vertex = -1;
  priv->object = NULL;
}

static void
wk_error_private_copy (const WkErrorPrivate *src, WkErrorPrivate *dest)
{
  dest->offset = src->offset;
  dest->context = g_strdup (src->context);
  dest->tile = src->tile;
  dest->model = src->model;
  dest->vertex = src->vertex;
  dest->object = g_strdup (src->object);
}

static void
wk_error_private_clear (WkErrorPrivate *priv)
{
  g_clear_pointer (&priv->context, g_free);
  g_clear_pointer (&priv->object, g_free);
}

G_DEFINE_EXTENDED_ERROR (WkError, wk_error)

void
wk_set_error (GError **error, WkErrorCode code, gint64 offset,
              const char *fmt, ...)
{
  if (error == NULL)
    return;
  va_list ap;
  va_start (ap, fmt);
  g_autofree gchar *what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  GError *e;
  if (offset >= 0)
    e = g_error_new (WK_ERROR, code, "%s at offset 0x%" G_GINT64_MODIFIER "x",
                     what, offset);
  else
    e = g_error_new_literal (WK_ERROR, code, what);
  wk_error_get_private (e)->offset = offset;
  g_propagate_error (error, e);
}

void
wk_error_prefix (GError **error, const char *fmt, ...)
{
  if (error == NULL || *error == NULL)
    return;
  va_list ap;
  va_start (ap, fmt);
  g_autofree gchar *ctx = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_prefix_error (error, "%s: ", ctx);
  if ((*error)->domain == WK_ERROR)
    {
      WkErrorPrivate *priv = wk_error_get_private (*error);
      gchar *old = priv->context;
      priv->context = (old && *old) ? g_strdup_printf ("%s > %s", ctx, old)
                                    : g_strdup (ctx);
      g_free (old);
    }
}

gint64
wk_error_offset (const GError *error)
{
  if (error == NULL || error->domain != WK_ERROR)
    return -1;
  return wk_error_get_private (error)->offset;
}

const char *
wk_error_context (const GError *error)
{
  if (error == NULL || error->domain != WK_ERROR)
    return "";
  const char *c = wk_error_get_private (error)->context;
  return c ? c : "";
}

static WkErrorPrivate *
wk_private (const GError *error)
{
  if (error == NULL || error->domain != WK_ERROR)
    return NULL;
  return wk_error_get_private (error);
}

void
wk_error_locate (GError **error, gint64 tile, gint64 model, gint64 vertex)
{
  WkErrorPrivate *priv = error ? wk_private (*error) : NULL;
  if (priv == NULL)
    return;
  if (tile >= 0 && priv->tile < 0)
    priv->tile = tile;
  if (model >= 0 && priv->model < 0)
    priv->model = model;
  if (vertex >= 0 && priv->vertex < 0)
    priv->vertex = vertex;
}

void
wk_error_set_object (GError **error, const char *name)
{
  WkErrorPrivate *priv = error ? wk_private (*error) : NULL;
  if (priv != NULL && name != NULL && priv->object == NULL)
    priv->object = g_strdup (name);
}

gint64
wk_error_tile (const GError *error)
{
  const WkErrorPrivate *priv = wk_private (error);
  return priv ? priv->tile : -1;
}

gint64
wk_error_model (const GError *error)
{
  const WkErrorPrivate *priv = wk_private (error);
  return priv ? priv->model : -1;
}

gint64
wk_error_vertex (const GError *error)
{
  const WkErrorPrivate *priv = wk_private (error);
  return priv ? priv->vertex : -1;
}

const char *
wk_error_object (const GError *error)
{
  const WkErrorPrivate *priv = wk_private (error);
  return priv ? priv->object : NULL;
}
