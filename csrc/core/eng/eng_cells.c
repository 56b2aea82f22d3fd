#include "eng_cells.h"

#include <math.h>

/* Sutherland–Hodgman: keep the part of poly (n points) with
 * sign·(p[axis] − bound) ≥ 0. Returns the new count (≤ n + 1). */
static guint
clip (double poly[][2], guint n, int axis, double bound, double sign,
      double out[][2])
{
  guint m = 0;
  for (guint i = 0; i < n; i++)
    {
      const double *a = poly[i], *b = poly[(i + 1) % n];
      double da = sign * (a[axis] - bound), db = sign * (b[axis] - bound);
      if (da >= 0)
        {
          out[m][0] = a[0];
          out[m][1] = a[1];
          m++;
        }
      if ((da >= 0) != (db >= 0))
        {
          double t = da / (da - db);
          out[m][0] = a[0] + t * (b[0] - a[0]);
          out[m][1] = a[1] + t * (b[1] - a[1]);
          m++;
        }
    }
  return m;
}

/* Does the polygon meet the box lo..hi (per axis)? */
static gboolean
meets (const double xz[][2], guint n, const double lo[2], const double hi[2])
{
  double a[16][2], b[16][2];
  for (guint i = 0; i < n; i++)
    {
      a[i][0] = xz[i][0];
      a[i][1] = xz[i][1];
    }
  guint m = n;
  for (int axis = 0; axis < 2 && m > 0; axis++)
    {
      m = clip (a, m, axis, lo[axis], 1.0, b);
      m = m ? clip (b, m, axis, hi[axis], -1.0, a) : 0;
    }
  return m > 0;
}

gboolean
wk_eng_cells_covered (const double xz[][2], guint n, guint32 w, guint32 h,
                      GArray *out, gint64 bad[2])
{
  double lo[2] = { INFINITY, INFINITY }, hi[2] = { -INFINITY, -INFINITY };
  for (guint k = 0; k < n; k++)
    for (int a = 0; a < 2; a++)
      {
        lo[a] = MIN (lo[a], xz[k][a]);
        hi[a] = MAX (hi[a], xz[k][a]);
      }
  /* candidate cells per axis; "flat": no extent across this axis */
  double first[2], last[2];
  gboolean flat[2];
  for (int a = 0; a < 2; a++)
    {
      first[a] = floor (lo[a] + WK_ENG_CELL_EPS);
      last[a] = floor (hi[a] - WK_ENG_CELL_EPS);
      flat[a] = last[a] < first[a];
      if (flat[a])
        first[a] = last[a] = floor ((lo[a] + hi[a]) / 2);
    }
  /* outside the grid: does the polygon reach past a side by more than eps? */
  const double size[2] = { w, h };
  gboolean inside = TRUE;
  for (int a = 0; a < 2 && inside; a++)
    for (int side = 0; side < 2 && inside; side++)
      {
        double blo[2] = { -INFINITY, -INFINITY }, bhi[2] = { INFINITY, INFINITY };
        if (side == 0 && first[a] < 0)
          bhi[a] = flat[a] ? 0.0 : -WK_ENG_CELL_EPS;
        else if (side == 1 && last[a] >= size[a])
          blo[a] = flat[a] ? size[a] : size[a] + WK_ENG_CELL_EPS;
        else
          continue;
        if (!meets (xz, n, blo, bhi))
          continue;
        for (int k = 0; k < 2; k++)
          {
            double v = k == a ? (side ? last[k] : first[k]) : MAX (first[k], 0);
            bad[k] = isfinite (v) ? (gint64) CLAMP (v, -1e15, 1e15) : G_MININT64;
          }
        inside = FALSE;
      }
  for (int a = 0; a < 2; a++)
    {
      first[a] = MAX (first[a], 0);
      last[a] = MIN (last[a], size[a] - 1);
    }
  const gboolean one = first[0] == last[0] && first[1] == last[1];
  for (double z = first[1]; z <= last[1]; z++)
    for (double x = first[0]; x <= last[0]; x++)
      {
        const double c[2] = { x, z };
        double blo[2], bhi[2];
        for (int a = 0; a < 2; a++)
          {
            double e = flat[a] ? 0.0 : WK_ENG_CELL_EPS;
            blo[a] = c[a] + e;
            bhi[a] = c[a] + 1.0 - e;
          }
        if (!one && !meets (xz, n, blo, bhi))
          continue;
        WkEngCell cell = { (guint32) x, (guint32) z };
        g_array_append_val (out, cell);
      }
  return inside;
}
