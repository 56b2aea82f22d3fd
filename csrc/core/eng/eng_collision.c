#include "eng_collision.h"

#include "../common/wk_vec.h"

#include <math.h>

#include "../common/wk_error.h"

/* Encoder thresholds [assumed]: no source gives them; chosen far below the
 * record's own precision (1/4064 units) so real polygons always pass. */
#define MIN_AREA 1e-6      /* units²: below this a polygon is degenerate */
#define MIN_EDGE 1e-4      /* units: a shorter edge makes it degenerate */
#define MAX_NONPLANAR (1.0 / 256.0) /* units a quad corner may leave the plane */
#define CONVEX_EPS 1e-6    /* units a corner may lie outside another edge */

void
wk_eng_coll_plane (const WkEngCollRecord *rec, guint k, double n[3], double *d)
{
  for (int c = 0; c < 3; c++)
    n[c] = rec->n[k][c] / WK_ENG_COLL_NORMAL_SCALE;
  *d = rec->d[k] / WK_ENG_COLL_D_SCALE;
}

gboolean
wk_eng_planes_meet (const double n[3][3], const double d[3], double p[3])
{
  /* Cramer's rule: p = (d0 (n1×n2) + d1 (n2×n0) + d2 (n0×n1)) / det */
  double c12[3], c20[3], c01[3];
  wk_vec_cross (n[1], n[2], c12);
  wk_vec_cross (n[2], n[0], c20);
  wk_vec_cross (n[0], n[1], c01);
  double det = wk_vec_dot (n[0], c12);
  /* normals are ~unit: |det| is the sine-ish volume of the three */
  if (!(fabs (det) > 1e-9))
    return FALSE;
  for (int c = 0; c < 3; c++)
    p[c] = (d[0] * c12[c] + d[1] * c20[c] + d[2] * c01[c]) / det;
  return TRUE;
}

void
wk_eng_coll_polygon (const WkEngCollRecord *rec, WkEngCollPolygon *poly)
{
  guint n = wk_eng_coll_record_edges (rec);
  double pn[3][3], pd[3];
  poly->n_corners = n;
  poly->corners_ok = TRUE;
  wk_eng_coll_plane (rec, 0, poly->normal, &poly->d);
  for (guint i = 0; i < 4; i++)
    {
      for (int c = 0; c < 3; c++)
        poly->corners[i][c] = NAN;
      if (i >= n)
        continue;
      wk_eng_coll_plane (rec, 0, pn[0], &pd[0]);
      wk_eng_coll_plane (rec, 1 + i, pn[1], &pd[1]);
      wk_eng_coll_plane (rec, 1 + (i + 1) % n, pn[2], &pd[2]);
      if (!wk_eng_planes_meet (pn, pd, poly->corners[i]))
        poly->corners_ok = FALSE;
    }
}

gboolean
wk_eng_coll_count (gsize size, gint64 base, guint *count, GError **error)
{
  if (size % WK_ENG_COLL_RECORD_SIZE != 0)
    {
      gsize whole = size - size % WK_ENG_COLL_RECORD_SIZE;
      wk_set_error (error, WK_ERROR_FORMAT, base + (gint64) whole,
                    "collision data of %" G_GSIZE_FORMAT " bytes is not a "
                    "whole number of 32-byte records (%" G_GSIZE_FORMAT
                    " bytes left over)", size, size - whole);
      return FALSE;
    }
  if (size / WK_ENG_COLL_RECORD_SIZE > G_MAXUINT32)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "too many collision records");
      return FALSE;
    }
  *count = (guint) (size / WK_ENG_COLL_RECORD_SIZE);
  return TRUE;
}

gboolean
wk_eng_coll_decode (const guint8 *raw, gsize size, gint64 base,
                    const guint *groups, gsize n_runs, WkEngSpace space,
                    WkEngCollArrays *out, GError **error)
{
  guint count;
  if (!wk_eng_coll_count (size, base, &count, error))
    return FALSE;
  guint64 total = groups ? 0 : count;
  for (gsize r = 0; groups && r < n_runs; r++)
    total += (guint64) groups[3 * r] + groups[3 * r + 1] + groups[3 * r + 2];
  if (total != count)
    {
      if (n_runs == 1)
        wk_set_error (error, WK_ERROR_FORMAT, base,
                      "collision group counts %u + %u + %u do not add up to the "
                      "%u records", groups[0], groups[1], groups[2], count);
      else
        wk_set_error (error, WK_ERROR_FORMAT, base,
                      "the collision group counts of %" G_GSIZE_FORMAT " models add "
                      "up to %" G_GUINT64_FORMAT ", not the %u records", n_runs,
                      total, count);
      return FALSE;
    }
  const double zsign = wk_eng_z_from_game (space);
  /* the run (model) record p is in, and where that run starts */
  gsize run = 0;
  guint64 run_start = 0;
  for (guint p = 0; p < count; p++)
    {
      guint64 ga = groups ? groups[3 * run] : count, gb = groups ? groups[3 * run + 1] : 0;
      while (groups && p - run_start >= ga + gb + groups[3 * run + 2])
        {
          run_start += ga + gb + groups[3 * run + 2];
          run++;
          ga = groups[3 * run], gb = groups[3 * run + 1];
        }
      const guint64 at = p - run_start; /* within its model's records */
      WkEngCollRecord rec;
      WkEngCollPolygon poly;
      wk_eng_coll_record_decode (raw + (gsize) p * WK_ENG_COLL_RECORD_SIZE, &rec);
      wk_eng_coll_polygon (&rec, &poly);
      for (guint i = 0; i < 4; i++)
        {
          guint src = i < poly.n_corners ? wk_eng_polygon_corner (space, i, poly.n_corners) : i;
          gfloat *dst = out->corners + ((gsize) p * 4 + i) * 3;
          dst[0] = (gfloat) poly.corners[src][0];
          dst[1] = (gfloat) poly.corners[src][1];
          dst[2] = (gfloat) (zsign * poly.corners[src][2]);
        }
      out->n_corners[p] = (guint8) poly.n_corners;
      out->normal[p * 3 + 0] = (gfloat) poly.normal[0];
      out->normal[p * 3 + 1] = (gfloat) poly.normal[1];
      out->normal[p * 3 + 2] = (gfloat) (zsign * poly.normal[2]);
      out->d[p] = (gfloat) poly.d;
      out->type[p] = rec.type;
      out->material[p] = rec.material;
      out->group[p] = at < ga ? 0 : at < ga + gb ? 1 : 2;
      for (guint k = 0; k < 5; k++)
        {
          for (int c = 0; c < 3; c++)
            out->raw_normal[((gsize) p * 5 + k) * 3 + c] = rec.n[k][c];
          out->raw_d[(gsize) p * 5 + k] = rec.d[k];
        }
    }
  return TRUE;
}

gboolean
wk_eng_coll_degenerate (const double corners[][3], guint n)
{
  double area[3];
  wk_vec_newell (corners, n, area);
  if (!(wk_vec_norm (area) / 2.0 >= MIN_AREA))
    return TRUE;
  for (guint i = 0; i < n; i++)
    {
      const double *a = corners[i], *b = corners[(i + 1) % n];
      double e[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
      if (!(wk_vec_norm (e) >= MIN_EDGE))
        return TRUE;
    }
  return FALSE;
}

/* d for the engine's arithmetic: the mean over pts of 32·(n·p), rounded;
 * *err = the largest distance (units) of a point from the plane. */
static double
fit_d (const gint8 n[3], const double *pts[], guint npts, double *err)
{
  double sum = 0.0, v[4];
  for (guint i = 0; i < npts; i++)
    sum += v[i] = 32.0 * (n[0] * pts[i][0] + n[1] * pts[i][1] + n[2] * pts[i][2]);
  double d = round (sum / npts), len = 32.0 * sqrt (n[0] * n[0] + n[1] * n[1]
                                                    + n[2] * n[2]);
  *err = 0.0;
  for (guint i = 0; i < npts; i++)
    *err = MAX (*err, fabs (v[i] - d) / len);
  return d;
}

/* The i8 ×127 normal for unit vector u whose plane fits pts best: the
 * rounded vector or a neighbour (±1 per component, length within 2 % of 127,
 * at most ~1° off u) with the smallest largest distance of a point
 * [assumed: a search the original tools may not have made; it only makes
 * the record fit its corners more closely]. */
static gboolean
plane_fit (const double u[3], const double *pts[], guint npts, guint plane,
           gint8 out[3], gint16 *d_out, GError **error)
{
  gint base[3];
  for (int c = 0; c < 3; c++)
    base[c] = (gint) lround (u[c] * WK_ENG_COLL_NORMAL_SCALE);
  double best_err = G_MAXDOUBLE, best_d = 0.0;
  /* the rounded vector (k = 13) first; a neighbour must fit clearly better */
  for (int i = 0; i < 27; i++)
    {
      int k = i == 0 ? 13 : i <= 13 ? i - 1 : i;
      gint v[3] = { base[0] + k % 3 - 1, base[1] + k / 3 % 3 - 1, base[2] + k / 9 - 1 };
      if (k != 13 && (ABS (v[0]) > 127 || ABS (v[1]) > 127 || ABS (v[2]) > 127))
        continue;
      double len = sqrt ((double) (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
      if (k != 13 && (fabs (len / WK_ENG_COLL_NORMAL_SCALE - 1.0) > 0.02
                      || (v[0] * u[0] + v[1] * u[1] + v[2] * u[2]) / len < 0.99985))
        continue;
      gint8 n[3] = { (gint8) CLAMP (v[0], -127, 127), (gint8) CLAMP (v[1], -127, 127),
                     (gint8) CLAMP (v[2], -127, 127) };
      double err, d = fit_d (n, pts, npts, &err);
      if (err < best_err - 1e-9)
        {
          best_err = err;
          best_d = d;
          memcpy (out, n, 3);
        }
    }
  if (best_d < G_MININT16 || best_d > G_MAXINT16)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "collision plane %u needs d = %.0f, outside the i16 range "
                    "of the record (the polygon lies beyond about 8 units "
                    "from its tile's origin)", plane, best_d);
      return FALSE;
    }
  *d_out = (gint16) best_d;
  return TRUE;
}

gboolean
wk_eng_coll_encode_polygon (const double c[][3], guint n, guint8 material,
                            WkEngCollRecord *rec, GError **error)
{
  if (n != 3 && n != 4)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "a collision polygon has 3 or 4 corners, not %u", n);
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      if (!isfinite (c[i][k]))
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                        "corner %u is not a finite point", i);
          return FALSE;
        }
  if (wk_eng_coll_degenerate (c, n))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "degenerate collision polygon (no area or a zero-length edge)");
      return FALSE;
    }
  double u[3], centre[3] = { 0, 0, 0 };
  wk_vec_newell (c, n, u);
  double len = wk_vec_norm (u);
  for (int k = 0; k < 3; k++)
    u[k] /= len;
  for (guint i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      centre[k] += c[i][k] / n;
  for (guint i = 0; i < n; i++)
    {
      double off[3] = { c[i][0] - centre[0], c[i][1] - centre[1], c[i][2] - centre[2] };
      if (fabs (wk_vec_dot (off, u)) > MAX_NONPLANAR)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                        "quad is not planar: corner %u lies %.4f units off "
                        "its plane (split it into triangles)", i, fabs (wk_vec_dot (off, u)));
          return FALSE;
        }
    }

  memset (rec, 0, sizeof *rec);
  rec->type = (guint8) ((n == 4 ? WK_ENG_COLL_QUAD : 0));
  rec->material = material;
  const double *all[4] = { c[0], c[1], c[2], n == 4 ? c[3] : NULL };
  if (!plane_fit (u, all, n, 0, rec->n[0], &rec->d[0], error))
    return FALSE;
  if (rec->n[0][1] < 0)
    rec->type |= WK_ENG_COLL_DOWN;

  /* Edge j runs from corner j-1 to corner j; its plane contains the edge,
   * stands perpendicular to the surface and its normal points inwards. */
  for (guint j = 0; j < n; j++)
    {
      const double *a = c[(j + n - 1) % n], *b = c[j];
      double dir[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, in[3];
      wk_vec_cross (u, dir, in);
      double l = wk_vec_norm (in);
      for (int k = 0; k < 3; k++)
        in[k] /= l;
      for (guint i = 0; i < n; i++)
        {
          double off[3] = { c[i][0] - a[0], c[i][1] - a[1], c[i][2] - a[2] };
          if (wk_vec_dot (off, in) < -CONVEX_EPS)
            {
              wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                            "quad is not convex (corner %u lies outside edge "
                            "%u; split it into triangles)", i, j);
              return FALSE;
            }
        }
      const double *ends[2] = { a, b };
      if (!plane_fit (in, ends, 2, 1 + j, rec->n[1 + j], &rec->d[1 + j], error))
        return FALSE;
    }
  return TRUE;
}

gboolean
wk_eng_coll_encode_many (const gfloat *corners, const guint8 *n_corners,
                         const guint8 *material, guint count,
                         WkEngSpace space, gboolean drop_degenerate,
                         GByteArray *out, GArray *dropped, GError **error)
{
  const double zsign = wk_eng_z_from_game (space);
  for (guint p = 0; p < count; p++)
    {
      guint n = n_corners[p];
      double c[4][3];
      WkEngCollRecord rec;
      guint8 raw[WK_ENG_COLL_RECORD_SIZE];
      if (n != 3 && n != 4)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                        "collision polygon %u: %u corners (3 or 4 expected)", p, n);
          return FALSE;
        }
      for (guint i = 0; i < n; i++)
        {
          const gfloat *src = corners + ((gsize) p * 4 + wk_eng_polygon_corner (space, i, n)) * 3;
          c[i][0] = src[0];
          c[i][1] = src[1];
          c[i][2] = zsign * src[2];
          if (!isfinite (c[i][0]) || !isfinite (c[i][1]) || !isfinite (c[i][2]))
            {
              wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                            "collision polygon %u: corner %u is not a finite "
                            "point", p, i);
              return FALSE;
            }
        }
      if (drop_degenerate && wk_eng_coll_degenerate (c, n))
        {
          guint32 idx = p;
          g_array_append_val (dropped, idx);
          continue;
        }
      if (!wk_eng_coll_encode_polygon (c, n, material[p], &rec, error))
        {
          wk_error_prefix (error, "collision polygon %u", p);
          return FALSE;
        }
      wk_eng_coll_record_encode (&rec, raw);
      g_byte_array_append (out, raw, sizeof raw);
    }
  return TRUE;
}
