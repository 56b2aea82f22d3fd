/* The sky writer: untextured shells cut into clusters. Layout:
 * docs/formats/rc2-collision-sky.md ("Sky"); choices: docs/formats/rc2-writers.md
 * ("Sky"). */
#include "rc2_sky.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"

#define POS_ONE 1024.0  /* s16 / 1024 (docs/formats/rc2-collision-sky.md, "Sky") */
#define NO_TEXTURE 0xff
#define UNTEXTURED 1    /* shell flags bit 0 */

#define LIMIT(...)                                                      \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    wk_error_prefix (error, "sky shell %u", s);                         \
    return FALSE;                                                       \
  } G_STMT_END

/* Cut a shell's triangles, in order, into clusters of at most
 * WK_SKY_CLUSTER_VERTICES vertices; first[c] = the first triangle of
 * cluster c (first[n] = ntri). */
static GArray *
clusters_of (const WkSkyShellNew *sh)
{
  GArray *first = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree gint32 *local = g_new (gint32, sh->n);
  guint used = 0, start = 0;
  g_array_append_val (first, start);
  memset (local, 0xff, sizeof (gint32) * sh->n);
  for (guint t = 0; t < sh->ntri; t++)
    {
      guint fresh = 0;
      for (int c = 0; c < 3; c++)
        fresh += local[sh->tri[3 * t + c]] < 0;
      if (used + fresh > WK_SKY_CLUSTER_VERTICES)
        {
          g_array_append_val (first, t);
          memset (local, 0xff, sizeof (gint32) * sh->n);
          used = 0;
        }
      for (int c = 0; c < 3; c++)
        if (local[sh->tri[3 * t + c]] < 0)
          local[sh->tri[3 * t + c]] = (gint32) used++;
    }
  g_array_append_val (first, sh->ntri);
  return first;
}

static gboolean
put_shell (const WkSkyShellNew *sh, guint s, GByteArray *o, GError **error)
{
  if (sh->n == 0 || sh->ntri == 0 || sh->ntri > 65536)
    LIMIT ("%u vertices and %u triangles (1..65536 triangles)", sh->n, sh->ntri);
  for (guint i = 0; i < sh->n; i++)
    for (int a = 0; a < 3; a++)
      if (!(fabs (sh->pos[3 * i + a]) * POS_ONE < 32767.5))
        LIMIT ("vertex %u: %g does not fit s16 / 1024 (|x| < 32)", i,
               (gdouble) sh->pos[3 * i + a]);
  for (guint t = 0; t < 3 * sh->ntri; t++)
    if (sh->tri[t] >= sh->n)
      LIMIT ("triangle %u names vertex %u of %u", t / 3, sh->tri[t], sh->n);
  g_autoptr (GArray) first = clusters_of (sh);
  guint nc = first->len - 1;
  wk_put_pad (o, 16);
  gsize head = o->len;
  g_byte_array_set_size (o, head + 0x10 + 0x20 * nc);
  memset (o->data + head, 0, o->len - head);
  wk_set_u32 (o, head, nc);
  wk_set_u32 (o, head + 4, UNTEXTURED);
  g_autofree gint32 *local = g_new (gint32, sh->n);
  g_autofree guint *verts = g_new (guint, WK_SKY_CLUSTER_VERTICES);
  for (guint c = 0; c < nc; c++)
    {
      guint t0 = g_array_index (first, guint, c), t1 = g_array_index (first, guint, c + 1);
      guint nv = 0;
      memset (local, 0xff, sizeof (gint32) * sh->n);
      for (guint t = t0; t < t1; t++)
        for (int k = 0; k < 3; k++)
          if (local[sh->tri[3 * t + k]] < 0)
            {
              local[sh->tri[3 * t + k]] = (gint32) nv;
              verts[nv++] = sh->tri[3 * t + k];
            }
      wk_put_pad (o, 16);
      gsize data = o->len;
      gdouble lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE }, hi[3];
      for (int a = 0; a < 3; a++)
        hi[a] = -G_MAXDOUBLE;
      for (guint i = 0; i < nv; i++)
        {
          const gfloat *p = sh->pos + 3 * verts[i];
          for (int a = 0; a < 3; a++)
            {
              gint16 v = (gint16) lrint (p[a] * POS_ONE);
              wk_put_u16 (o, (guint16) v);
              lo[a] = MIN (lo[a], v / POS_ONE);
              hi[a] = MAX (hi[a], v / POS_ONE);
            }
          wk_put_u16 (o, (guint16) sh->alpha[verts[i]]);
        }
      gsize st = o->len - data;
      for (guint i = 0; i < nv; i++)
        wk_put_bytes (o, sh->rgba + 4 * verts[i], 4);
      gsize faces = o->len - data;
      for (guint t = t0; t < t1; t++)
        { /* stored (i0, i1, i2) = the triangle reversed */
          for (int k = 2; k >= 0; k--)
            wk_put_u8 (o, (guint8) local[sh->tri[3 * t + k]]);
          wk_put_u8 (o, NO_TEXTURE);
        }
      wk_put_pad (o, 16);
      gsize size = o->len - data;
      if (size > G_MAXINT16)
        LIMIT ("cluster %u holds %" G_GSIZE_FORMAT " bytes (s16 size)", c, size);
      gsize h = head + 0x10 + 0x20 * c;
      gdouble r2 = 0;
      for (guint i = 0; i < nv; i++)
        {
          gdouble d2 = 0;
          for (int a = 0; a < 3; a++)
            {
              gdouble d = sh->pos[3 * verts[i] + a] - (lo[a] + hi[a]) / 2;
              d2 += d * d;
            }
          r2 = MAX (r2, d2);
        }
      for (int a = 0; a < 3; a++)
        wk_set_f32 (o, h + 4 * a, (gfloat) ((lo[a] + hi[a]) / 2));
      wk_set_f32 (o, h + 12, (gfloat) (sqrt (r2) + 1.0 / POS_ONE));
      wk_set_u32 (o, h + 0x10, (guint32) data);
      wk_set_u16 (o, h + 0x14, (guint16) nv);
      wk_set_u16 (o, h + 0x16, (guint16) (t1 - t0));
      wk_set_u16 (o, h + 0x18, 0);
      wk_set_u16 (o, h + 0x1a, (guint16) st);
      wk_set_u16 (o, h + 0x1c, (guint16) faces);
      wk_set_u16 (o, h + 0x1e, (guint16) size);
    }
  return TRUE;
}

GBytes *
wk_rc2_sky_build (const guint8 colour[4], gint clear_screen, const WkSkyShellNew *shells,
                  guint n_shells, GError **error)
{
  if (n_shells > WK_SKY_MAX_SHELLS || clear_screen < G_MININT16 || clear_screen > G_MAXINT16)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "%u sky shells (0..%d), clear_screen %d "
                    "(s16)", n_shells, WK_SKY_MAX_SHELLS, clear_screen);
      return NULL;
    }
  g_autoptr (GByteArray) o = g_byte_array_new ();
  g_byte_array_set_size (o, WK_SKY_HEADER);
  memset (o->data, 0, o->len);
  memcpy (o->data, colour, 4);
  wk_set_u16 (o, 4, (guint16) clear_screen);
  wk_set_u16 (o, 6, (guint16) n_shells);
  /* no sprites, textures or fx: their offsets point after the header */
  for (int f = 0x10; f < 0x1c; f += 4)
    wk_set_u32 (o, f, WK_SKY_HEADER);
  guint64 tris = 0;
  for (guint s = 0; s < n_shells; s++)
    {
      wk_put_pad (o, 16);
      wk_set_u32 (o, 0x20 + 4 * s, o->len);
      if (!put_shell (&shells[s], s, o, error))
        return NULL;
      tris += shells[s].ntri;
    }
  GBytes *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  g_autoptr (WkRc2Sky) sky = wk_rc2_sky_parse (d, size, 0, error);
  guint64 got = 0;
  for (gint s = 0; sky && s < sky->shell_count; s++)
    got += sky->shells[s].n_tris;
  if (sky == NULL || sky->shell_count != (gint) n_shells || got != tris)
    {
      if (sky != NULL)
        wk_set_error (error, WK_ERROR_FORMAT, 0, "reads back as %d shells and %"
                      G_GUINT64_FORMAT " triangles, not %u and %" G_GUINT64_FORMAT,
                      sky->shell_count, got, n_shells, tris);
      wk_error_prefix (error, "new sky does not read back");
      g_bytes_unref (bytes);
      return NULL;
    }
  return bytes;
}
