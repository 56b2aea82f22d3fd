#include "class_mesh.h"

#include <math.h>

WkClassMesh *
wk_class_mesh_new (gboolean has_normals)
{
  WkClassMesh *m = g_new0 (WkClassMesh, 1);
  m->has_normals = has_normals;
  m->vertices = g_array_new (FALSE, FALSE, sizeof (WkMeshVertex));
  m->triangles = g_array_new (FALSE, FALSE, sizeof (guint32));
  m->texture = g_array_new (FALSE, FALSE, sizeof (gint32));
  return m;
}

void
wk_class_mesh_free (WkClassMesh *m)
{
  if (m == NULL)
    return;
  g_array_unref (m->vertices);
  g_array_unref (m->triangles);
  g_array_unref (m->texture);
  g_free (m);
}

void
wk_class_mesh_add_tri (WkClassMesh *m, guint32 a, guint32 b, guint32 c,
                       gint32 texture)
{
  guint32 t[3] = { a, b, c };
  g_array_append_vals (m->triangles, t, 3);
  g_array_append_val (m->texture, texture);
}

void
wk_class_mesh_fill (const WkClassMesh *m, const WkClassMeshOut *out)
{
  const WkMeshVertex *v = (const WkMeshVertex *) (gpointer) m->vertices->data;
  for (guint i = 0; i < m->vertices->len; i++)
    {
      memcpy (out->positions + 3 * (gsize) i, v[i].pos, sizeof v[i].pos);
      memcpy (out->uv + 2 * (gsize) i, v[i].uv, sizeof v[i].uv);
      if (out->normals)
        memcpy (out->normals + 3 * (gsize) i, v[i].normal, sizeof v[i].normal);
    }
  if (m->triangles->len)
    memcpy (out->triangles, m->triangles->data, m->triangles->len * sizeof (guint32));
  if (m->texture->len)
    memcpy (out->texture, m->texture->data, m->texture->len * sizeof (gint32));
}

gboolean
wk_class_head (const guint8 *data, gsize size, gint64 base, guint lod,
               guint lods, gsize header, gsize scale_at, const char *kind,
               gfloat *scale, GError **error)
{
  if (lod >= lods)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "LOD %u: %s classes have "
                    "0..%u", lod, kind, lods - 1);
      return FALSE;
    }
  if (size < header)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "%s class of %" G_GSIZE_FORMAT
                    " bytes has no 0x%" G_GSIZE_MODIFIER "x-byte header", kind,
                    size, header);
      return FALSE;
    }
  *scale = wk_lef32 (data + scale_at);
  /* a position is s16 · scale / WK_RC2_POS_ONE: the largest, 32768 of
   * them, must still be a float (fuzz-found: a scale near FLT_MAX gave
   * infinite positions) */
  if (!(isfinite (*scale) && *scale > 0
        && (gdouble) (*scale / WK_RC2_POS_ONE) * 32768.0 <= G_MAXFLOAT))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + (gint64) scale_at,
                    "scale %g (positive, and small enough that 32768 · "
                    "scale / %g is a float)", *scale, WK_RC2_POS_ONE);
      return FALSE;
    }
  return TRUE;
}

gboolean
wk_class_span (gsize size, gint64 base, gint64 field, gint64 offset,
               guint64 count, gsize elem, const char *what, GError **error)
{
  if (offset < 0 || (guint64) offset > size
      || (elem && count > ((guint64) size - (guint64) offset) / elem))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + field,
                    "%s (%" G_GUINT64_FORMAT " × %" G_GSIZE_FORMAT " bytes at "
                    "0x%" G_GINT64_MODIFIER "x) runs past the %" G_GSIZE_FORMAT
                    "-byte class", what, count, elem, offset, size);
      return FALSE;
    }
  return TRUE;
}
