#include "eng_floor.h"

#include "../common/wk_vec.h"

#include <math.h>

#include "../common/wk_error.h"

#define MAX_CELLS (1u << 24) /* [assumed] far above any real grid (64×64) */
#define BEST_INIT 1000000    /* the engine's initial "best" dist */

/* Needle scan constants (spec, floor-test section). */
static const double needle_fractions[3] = { 0.3, 0.6, 0.9 };
#define NEEDLE_MIN_OUTSIDE 0.08
#define NEEDLE_MIN_DROP 0.05

typedef struct {
  gint32 b[6];      /* rx, ry, rz, x, y, z */
  guint32 model;
} Tile;

typedef struct {
  guint n;
  WkEngCollRecord *rec;
  WkEngCollPolygon *poly;
} Model;

struct _WkEngFloorWorld {
  guint32 width, height;
  guint n_tiles, n_models;
  Tile *tiles;
  Model *models;
  guint32 *cell_start;  /* width·height + 1 */
  guint32 *cell_tiles;  /* n_tiles, grouped by cell, ascending tile index */
};

/* ---- the engine's 32-bit integer arithmetic ---- */

static gint32 sine_table[4096];

static gpointer
fill_sine (gpointer unused)
{
  for (int i = 0; i < 4096; i++)
    sine_table[i] = (gint32) lround (4096.0 * sin (2.0 * G_PI * i / 4096.0));
  return NULL;
}

gint32
wk_eng_sine (guint32 i)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, fill_sine, NULL);
  return sine_table[i & 0xfff];
}

/* Wrapping 32-bit operations, as the x86 code does them. */
static inline gint32 mul32 (gint32 a, gint32 b) { return (gint32) ((guint32) a * (guint32) b); }
static inline gint32 add32 (gint32 a, gint32 b) { return (gint32) ((guint32) a + (guint32) b); }
static inline gint32 sub32 (gint32 a, gint32 b) { return (gint32) ((guint32) a - (guint32) b); }
/* Arithmetic shift right (x86 sar), written so it does not depend on the
 * compiler's choice for negative numbers. */
static inline gint32
sar (gint32 v, int s)
{
  return v >= 0 ? v >> s : -(gint32) ((~(guint32) v >> s) + 1);
}

/* ---- world ---- */

void
wk_eng_floor_world_free (WkEngFloorWorld *w)
{
  if (w == NULL)
    return;
  for (guint m = 0; w->models && m < w->n_models; m++)
    {
      g_free (w->models[m].rec);
      g_free (w->models[m].poly);
    }
  g_free (w->models);
  g_free (w->tiles);
  g_free (w->cell_start);
  g_free (w->cell_tiles);
  g_free (w);
}

/* cell = ftol(x − 0.5) − ftol(z + 0.5)·W (A floats, export space). */
static gboolean
tile_cell (const WkEngFloorWorld *w, guint t, const gfloat a[3], guint32 *cell,
           GError **error)
{
  double fx = (double) a[0] - 0.5, fz = (double) a[2] + 0.5;
  if (!isfinite (fx) || !isfinite (fz) || fabs (fx) >= 2147483648.0
      || fabs (fz) >= 2147483648.0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, -1,
                    "MAP tile %u: position A (%g, %g) is not a usable number",
                    t, (double) a[0], (double) a[2]);
      return FALSE;
    }
  gint64 c = (gint64) fx - (gint64) fz * (gint64) w->width;
  if (c < 0 || c >= (gint64) w->width * w->height)
    {
      wk_set_error (error, WK_ERROR_FORMAT, -1,
                    "MAP tile %u: position A (%g, %g) gives cell %" G_GINT64_FORMAT
                    ", outside the %u×%u grid", t, (double) a[0],
                    (double) a[2], c, w->width, w->height);
      return FALSE;
    }
  *cell = (guint32) c;
  return TRUE;
}

static gboolean
load_models (WkEngFloorWorld *w, const guint8 *const *coll,
             const gsize *coll_size, GError **error)
{
  for (guint m = 0; m < w->n_models; m++)
    {
      Model *mod = &w->models[m];
      if (!wk_eng_coll_count (coll_size[m], 0, &mod->n, error))
        {
          wk_error_prefix (error, "model %u collision", m);
          return FALSE;
        }
      mod->rec = g_new (WkEngCollRecord, mod->n);
      mod->poly = g_new (WkEngCollPolygon, mod->n);
      for (guint p = 0; p < mod->n; p++)
        {
          wk_eng_coll_record_decode (coll[m] + (gsize) p * WK_ENG_COLL_RECORD_SIZE,
                                     &mod->rec[p]);
          wk_eng_coll_polygon (&mod->rec[p], &mod->poly[p]);
        }
    }
  return TRUE;
}

WkEngFloorWorld *
wk_eng_floor_world_new (guint32 width, guint32 height, guint n_tiles,
                        const gfloat *a_xyz, const gint32 *b,
                        const guint32 *model, guint n_models,
                        const guint8 *const *coll, const gsize *coll_size,
                        GError **error)
{
  if (width == 0 || height == 0 || (guint64) width * height > MAX_CELLS)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "grid %u×%u: each side must be ≥ 1 and W·H ≤ %u",
                    width, height, MAX_CELLS);
      return NULL;
    }
  g_autoptr (WkEngFloorWorld) w = g_new0 (WkEngFloorWorld, 1);
  w->width = width;
  w->height = height;
  w->n_tiles = n_tiles;
  w->n_models = n_models;
  w->models = g_new0 (Model, n_models);
  if (!load_models (w, coll, coll_size, error))
    return NULL;

  guint ncell = width * height;
  w->tiles = g_new (Tile, n_tiles);
  w->cell_start = g_new0 (guint32, (gsize) ncell + 1);
  w->cell_tiles = g_new (guint32, n_tiles);
  g_autofree guint32 *cell_of = g_new (guint32, n_tiles);
  for (guint t = 0; t < n_tiles; t++)
    {
      if (model[t] >= n_models)
        {
          wk_set_error (error, WK_ERROR_FORMAT, -1,
                        "model index %u is not below the %u models",
                        model[t], n_models);
          wk_error_prefix (error, "MAP tile %u", t);
          return NULL;
        }
      w->tiles[t].model = model[t];
      memcpy (w->tiles[t].b, b + (gsize) t * 6, sizeof w->tiles[t].b);
      if (!tile_cell (w, t, a_xyz + (gsize) t * 3, &cell_of[t], error))
        return NULL;
      w->cell_start[cell_of[t] + 1]++;
    }
  /* Cell lists in ascending tile order [assumed: the engine's list order is
   * not known; it only matters for two surfaces at exactly the same dist]. */
  for (guint c = 0; c < ncell; c++)
    w->cell_start[c + 1] += w->cell_start[c];
  g_autofree guint32 *fill = g_memdup2 (w->cell_start, sizeof (guint32) * ncell);
  for (guint t = 0; t < n_tiles; t++)
    w->cell_tiles[fill[cell_of[t]]++] = t;
  return g_steal_pointer (&w);
}

guint32 wk_eng_floor_world_width (const WkEngFloorWorld *w) { return w->width; }
guint32 wk_eng_floor_world_height (const WkEngFloorWorld *w) { return w->height; }
guint wk_eng_floor_world_tiles (const WkEngFloorWorld *w) { return w->n_tiles; }

const guint32 *
wk_eng_floor_cell (const WkEngFloorWorld *w, guint32 cx, guint32 cz, guint *n)
{
  *n = 0;
  if (cx >= w->width || cz >= w->height)
    return NULL;
  guint32 c = cx + cz * w->width;
  *n = w->cell_start[c + 1] - w->cell_start[c];
  return w->cell_tiles + w->cell_start[c];
}

/* ---- the test ---- */

void
wk_eng_floor_probe_init (WkEngFloorProbe *p, gint32 x, gint32 y, gint32 z)
{
  p->x = x;
  p->y = y;
  p->z = z;
  p->flags = 0;
  p->probe_offset = WK_ENG_FLOOR_PROBE_OFFSET;
  p->exclude_tile = -1;
  p->exclude_polygon = -1;
}

/* i6 and the edge values of one record for a tile-local probe. */
static void
test_record (const WkEngCollRecord *r, gint32 lx, gint32 ly, gint32 lz,
             WkEngFloorCandidate *c)
{
  gint32 nx = r->n[0][0], ny = r->n[0][1], nz = r->n[0][2];
  gint32 num = mul32 (r->d[0], 4096);
  num = sub32 (num, mul32 (nz * 32, lz));
  num = sub32 (num, mul32 (nx * 32, lx));
  num = sub32 (num, mul32 (ny * 32, ly));
  gint32 i6 = num / (ny * 32); /* C division truncates; ny ≠ 0 here */
  c->dist = -i6;
  c->plane_y = add32 (ly, i6);
  c->tol = -0x40 - sar (0x1000 - ny * 32, 6);
  c->n_edges = wk_eng_coll_record_edges (r);
  c->passed = TRUE;
  for (guint k = 0; k < 4; k++)
    {
      if (k >= c->n_edges)
        {
          c->edge[k] = 0;
          continue;
        }
      const gint8 *n = r->n[1 + k];
      gint32 s = mul32 (n[1] * 32, c->plane_y);
      s = add32 (s, mul32 (n[2] * 32, lz));
      s = add32 (s, mul32 (n[0] * 32, lx));
      c->edge[k] = sub32 (sar (s, 12), r->d[1 + k]);
      if (c->edge[k] < c->tol)
        c->passed = FALSE;
    }
}

void
wk_eng_floor_test (const WkEngFloorWorld *w, const WkEngFloorProbe *p,
                   WkEngFloorHit *hit, GArray *cands)
{
  memset (hit, 0, sizeof *hit);
  hit->source = WK_ENG_FLOOR_NONE;
  guint n_list;
  const guint32 *list = wk_eng_floor_cell (w, (guint32) sar (p->x, 12),
                                           (guint32) sar (p->z, 12), &n_list);
  guint8 skip_mat = (p->flags & WK_ENG_FLOOR_FLAG_MAT12) ? 0x12 : 0x11;
  gint32 best = BEST_INIT;
  gboolean have_floor = FALSE, have_ceil = FALSE;
  WkEngFloorHit floor = { 0 }, ceil = { 0 };
  guint chosen_floor = 0, chosen_ceil = 0; /* index + 1 into cands */

  for (guint li = 0; li < n_list; li++)
    {
      guint t = list[li];
      const Tile *tile = &w->tiles[t];
      const Model *mod = &w->models[tile->model];
      guint32 rot = (guint32) tile->b[1];
      gint32 s = wk_eng_sine (rot), c = wk_eng_sine (rot + 0x400);
      gint32 dx = sub32 (p->x, tile->b[3]), dz = sub32 (p->z, tile->b[5]);
      gint32 lx = sar (sub32 (mul32 (dx, c), mul32 (dz, s)), 12);
      gint32 lz = sar (add32 (mul32 (dx, s), mul32 (dz, c)), 12);
      gint32 ly = add32 (sub32 (p->y, tile->b[4]), p->probe_offset);
      for (guint pi = 0; pi < mod->n; pi++)
        {
          const WkEngCollRecord *r = &mod->rec[pi];
          if ((gint64) t == p->exclude_tile && (gint64) pi == p->exclude_polygon)
            continue;
          WkEngFloorCandidate cand = { .tile = t, .polygon = pi,
                                       .material = r->material, .type = r->type,
                                       .lx = lx, .ly = ly, .lz = lz };
          gint32 ny = r->n[0][1];
          if (r->material == skip_mat)
            cand.skip = WK_ENG_CAND_SKIP_MATERIAL;
          else if (ny == 0 || (ny < 0 && !(p->flags & WK_ENG_FLOOR_FLAG_DOWN)))
            cand.skip = WK_ENG_CAND_SKIP_NY;
          if (cand.skip)
            {
              if (cands)
                g_array_append_val (cands, cand);
              continue;
            }
          test_record (r, lx, ly, lz, &cand);
          cand.height = add32 (tile->b[4], cand.plane_y);
          WkEngFloorHit *slot = NULL;
          if (cand.dist < -0x80)
            {
              /* a surface more than 1/32 above the probe: keep the lowest
               * passing up-facing one [strictness assumed] */
              cand.branch = WK_ENG_CAND_CEILING;
              if (ny > 0 && cand.passed && (!have_ceil || cand.dist > ceil.dist))
                {
                  have_ceil = TRUE;
                  slot = &ceil;
                  chosen_ceil = cands ? cands->len + 1 : 0;
                }
            }
          else if (cand.dist < best && ny > 0)
            {
              cand.branch = WK_ENG_CAND_FLOOR;
              if (cand.passed)
                {
                  best = cand.dist;
                  have_floor = TRUE;
                  slot = &floor;
                  chosen_floor = cands ? cands->len + 1 : 0;
                }
            }
          if (slot)
            {
              slot->height = cand.height;
              slot->tile = t;
              slot->polygon = pi;
              slot->material = r->material;
              slot->dist = cand.dist;
            }
          if (cands)
            g_array_append_val (cands, cand);
        }
    }

  guint chosen = 0;
  if (have_floor)
    {
      *hit = floor;
      hit->source = WK_ENG_FLOOR_FLOOR;
      chosen = chosen_floor;
    }
  else if (have_ceil && !(p->flags & WK_ENG_FLOOR_FLAG_NOCEIL))
    {
      *hit = ceil;
      hit->source = WK_ENG_FLOOR_CEILING;
      chosen = chosen_ceil;
    }
  if (hit->source != WK_ENG_FLOOR_NONE && hit->material == WK_ENG_MATERIAL_WATER)
    {
      hit->source = WK_ENG_FLOOR_WATER;
      hit->height = WK_ENG_FLOOR_NO_FLOOR;
    }
  if (cands && chosen)
    g_array_index (cands, WkEngFloorCandidate, chosen - 1).chosen = TRUE;
}

/* ---- exposed-needle scan ---- */

static double
seg_dist (const double q[3], const double a[3], const double b[3])
{
  double ab[3], aq[3], x[3];
  wk_vec_sub (b, a, ab);
  wk_vec_sub (q, a, aq);
  double l2 = wk_vec_dot (ab, ab);
  double t = l2 > 0 ? CLAMP (wk_vec_dot (aq, ab) / l2, 0.0, 1.0) : 0.0;
  for (int k = 0; k < 3; k++)
    x[k] = aq[k] - t * ab[k];
  return sqrt (wk_vec_dot (x, x));
}

/* Distance from q (on the polygon's plane) to the polygon: 0 inside. */
static double
polygon_dist (const WkEngCollPolygon *poly, const double q[3])
{
  guint n = poly->n_corners;
  double nrm[3]; /* orientation of the decoded corners */
  wk_vec_newell ((const double (*)[3]) poly->corners, n, nrm);
  gboolean inside = TRUE;
  double best = G_MAXDOUBLE;
  for (guint i = 0; i < n; i++)
    {
      const double *a = poly->corners[i], *b = poly->corners[(i + 1) % n];
      double ab[3], aq[3], cr[3];
      wk_vec_sub (b, a, ab);
      wk_vec_sub (q, a, aq);
      wk_vec_cross (ab, aq, cr);
      if (wk_vec_dot (cr, nrm) < 0)
        inside = FALSE;
      best = MIN (best, seg_dist (q, a, b));
    }
  return inside ? 0.0 : best;
}

/* Tip of corner i: surface ∩ both edge planes moved outwards by tol. */
static gboolean
tolerance_tip (const WkEngCollRecord *r, guint i, gint32 tol, double tip[3])
{
  guint n = wk_eng_coll_record_edges (r);
  guint planes[3] = { 0, 1 + i, 1 + (i + 1) % n };
  double pn[3][3], pd[3];
  for (int k = 0; k < 3; k++)
    {
      wk_eng_coll_plane (r, planes[k], pn[k], &pd[k]);
      if (k > 0)
        pd[k] += tol / WK_ENG_COLL_D_SCALE;
    }
  return wk_eng_planes_meet (pn, pd, tip);
}

static gint32
to_fixed (double v)
{
  return (gint32) CLAMP (lround (v * 4096.0), G_MININT32, G_MAXINT32);
}

static gboolean
needle_at (const WkEngFloorWorld *w, guint t, guint pi, const double local[3],
           WkEngNeedle *out)
{
  const Tile *tile = &w->tiles[t];
  guint32 rot = (guint32) tile->b[1];
  double s = wk_eng_sine (rot) / 4096.0, c = wk_eng_sine (rot + 0x400) / 4096.0;
  /* inverse of the probe rotation: d = (lx c + lz s, ·, −lx s + lz c) */
  double world[3] = {
    tile->b[3] / 4096.0 + local[0] * c + local[2] * s,
    tile->b[4] / 4096.0 + local[1],
    tile->b[5] / 4096.0 - local[0] * s + local[2] * c,
  };
  if (!(fabs (world[0]) < 500000.0 && fabs (world[1]) < 500000.0
        && fabs (world[2]) < 500000.0))
    return FALSE;
  WkEngFloorProbe probe;
  WkEngFloorHit hit, next;
  wk_eng_floor_probe_init (&probe, to_fixed (world[0]), to_fixed (world[1]),
                           to_fixed (world[2]));
  wk_eng_floor_test (w, &probe, &hit, NULL);
  if (hit.source != WK_ENG_FLOOR_FLOOR || hit.tile != t || hit.polygon != pi)
    return FALSE;
  probe.exclude_tile = t;
  probe.exclude_polygon = pi;
  wk_eng_floor_test (w, &probe, &next, NULL);
  double below = INFINITY;
  if (next.source == WK_ENG_FLOOR_FLOOR || next.source == WK_ENG_FLOOR_CEILING)
    below = (hit.height - (double) next.height) / 4096.0;
  if (!(below > NEEDLE_MIN_DROP))
    return FALSE;
  memcpy (out->point, world, sizeof world);
  out->height = hit.height / 4096.0;
  out->below = below;
  return TRUE;
}

GArray *
wk_eng_floor_needles (const WkEngFloorWorld *w)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (WkEngNeedle));
  for (guint t = 0; t < w->n_tiles; t++)
    {
      const Model *mod = &w->models[w->tiles[t].model];
      for (guint pi = 0; pi < mod->n; pi++)
        {
          const WkEngCollRecord *r = &mod->rec[pi];
          const WkEngCollPolygon *poly = &mod->poly[pi];
          gint32 ny = r->n[0][1];
          /* floor polygons only: what the test with flags 0 can choose and
           * that is not the water plane [assumed] */
          if (ny <= 0 || r->material == 0x11
              || r->material == WK_ENG_MATERIAL_WATER || !poly->corners_ok)
            continue;
          gint32 tol = -0x40 - sar (0x1000 - ny * 32, 6);
          gboolean found = FALSE;
          for (guint i = 0; i < poly->n_corners && !found; i++)
            {
              double tip[3];
              if (!tolerance_tip (r, i, tol, tip))
                continue;
              for (guint f = 0; f < G_N_ELEMENTS (needle_fractions) && !found; f++)
                {
                  double q[3];
                  for (int k = 0; k < 3; k++)
                    q[k] = poly->corners[i][k]
                           + needle_fractions[f] * (tip[k] - poly->corners[i][k]);
                  if (!(polygon_dist (poly, q) >= NEEDLE_MIN_OUTSIDE))
                    continue;
                  WkEngNeedle nd = { .tile = t, .polygon = pi, .corner = i,
                                     .fraction = needle_fractions[f] };
                  if (needle_at (w, t, pi, q, &nd))
                    {
                      g_array_append_val (out, nd);
                      found = TRUE;
                    }
                }
            }
        }
    }
  return out;
}
