/* The vertex quantisation the tie, shrub and moby class writers share
 * (class_write.h; docs/formats/rc2-writers.md). */
#include "class_write.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "class_mesh.h"

gboolean
wk_class_vertices (const gfloat *pos, const gfloat *uv, const gfloat *normal, guint n,
                   const char *kind, gint o_class, WkClassVertices *out, GError **error)
{
  memset (out, 0, sizeof *out);
  gdouble lo[3] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE }, big = 0;
  gdouble hi[3] = { -G_MAXDOUBLE, -G_MAXDOUBLE, -G_MAXDOUBLE };
  for (guint i = 0; i < n; i++)
    for (int a = 0; a < 3; a++)
      {
        gdouble v = pos[3 * i + a];
        if (!isfinite (v) || fabs (v) > 1e6 || (normal && !isfinite (normal[3 * i + a])))
          {
            wk_set_error (error, WK_ERROR_LIMIT, -1, "vertex %u is not finite or lies "
                          "over 1e6 from the origin%s", i,
                          normal ? " (or its normal is not finite)" : "");
            wk_error_prefix (error, "%s class %d", kind, o_class);
            return FALSE;
          }
        lo[a] = MIN (lo[a], v);
        hi[a] = MAX (hi[a], v);
        big = MAX (big, fabs (v));
      }
  out->scale = big > 0 ? (gfloat) (big * WK_RC2_POS_ONE / 32000.0) : 1.0f;
  out->pos = g_new (gint16, 3 * (gsize) n);
  out->st = g_new (gint16, 2 * (gsize) n);
  for (guint i = 0; i < n; i++)
    {
      for (int a = 0; a < 3; a++)
        out->pos[3 * i + a] = (gint16) CLAMP (lrint (pos[3 * i + a] * WK_RC2_POS_ONE
                                                     / out->scale), -32767, 32767);
      for (int a = 0; a < 2; a++)
        {
          gdouble t = uv[2 * i + a] * WK_RC2_ST_ONE;
          if (!isfinite (t) || fabs (t) > 32767)
            {
              wk_set_error (error, WK_ERROR_LIMIT, -1, "vertex %u: texture coordinate "
                            "%g outside s16 / 4096", i, (gdouble) uv[2 * i + a]);
              wk_error_prefix (error, "%s class %d", kind, o_class);
              wk_class_vertices_clear (out);
              return FALSE;
            }
          out->st[2 * i + a] = (gint16) lrint (t);
        }
    }
  gdouble c[3], r2 = 0;
  for (int a = 0; a < 3; a++)
    c[a] = n ? (lo[a] + hi[a]) / 2 : 0;
  for (guint i = 0; i < n; i++)
    {
      gdouble d2 = 0;
      for (int a = 0; a < 3; a++)
        d2 += (pos[3 * i + a] - c[a]) * (pos[3 * i + a] - c[a]);
      r2 = MAX (r2, d2);
    }
  for (int a = 0; a < 3; a++)
    out->centre[a] = (gfloat) c[a];
  out->radius = (gfloat) (sqrt (r2) * 1.001 + 1e-3);
  return TRUE;
}

void
wk_class_vertices_clear (WkClassVertices *v)
{
  g_clear_pointer (&v->pos, g_free);
  g_clear_pointer (&v->st, g_free);
}
