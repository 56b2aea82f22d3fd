#include "eng_import.h"

#include "../common/wk_num.h"
#include "../common/wk_vec.h"

#include <math.h>
#include <stdlib.h>

#include "eng_coll_record.h"
#include "eng_collision.h"
#include "eng_cells.h"

void
wk_eng_import_free (WkEngImport *imp)
{
  if (imp == NULL)
    return;
  g_clear_pointer (&imp->models, g_ptr_array_unref);
  g_clear_pointer (&imp->cell_x, g_array_unref);
  g_clear_pointer (&imp->cell_z, g_array_unref);
  g_clear_pointer (&imp->y, g_array_unref);
  g_clear_pointer (&imp->colors, g_byte_array_unref);
  g_clear_pointer (&imp->new_entries, g_array_unref);
  g_free (imp);
}

/* ---- helpers ---- */

/* Encode a collision polygon with the shared encoder (eng_collision.c).
 * A quad the encoder refuses (not planar or not convex) becomes two
 * triangles; a degenerate triangle is dropped. Returns the records written
 * (0..2) or -1 with error (LIMIT: out of the i16 reach). */
static gint
encode_poly (const double c[][3], guint n, guint8 material, guint8 *out,
             guint *split, GError **error)
{
  WkEngCollRecord rec;
  GError *local = NULL;
  if (wk_eng_coll_encode_polygon (c, n, material, &rec, &local))
    {
      wk_eng_coll_record_encode (&rec, out);
      return 1;
    }
  if (local->domain == WK_ERROR && local->code == WK_ERROR_LIMIT)
    {
      g_propagate_error (error, local);
      return -1;
    }
  g_clear_error (&local);
  if (n != 4)
    return 0;
  (*split)++;
  const double t0[3][3] = { { c[0][0], c[0][1], c[0][2] }, { c[1][0], c[1][1], c[1][2] },
                            { c[2][0], c[2][1], c[2][2] } };
  const double t1[3][3] = { { c[0][0], c[0][1], c[0][2] }, { c[2][0], c[2][1], c[2][2] },
                            { c[3][0], c[3][1], c[3][2] } };
  gint k = 0;
  for (int h = 0; h < 2; h++)
    {
      if (!wk_eng_coll_encode_polygon (h ? t1 : t0, 3, material, &rec, &local))
        {
          if (local->domain == WK_ERROR && local->code == WK_ERROR_LIMIT)
            {
              g_propagate_error (error, local);
              return -1;
            }
          g_clear_error (&local);
          continue;
        }
      wk_eng_coll_record_encode (&rec, out + 32 * k++);
    }
  return k;
}

/* ---- the mesh split ---- */

typedef struct {
  guint32 cx, cz;
  gint32 band;    /* height band: floor(y / WK_ENG_BAND) */
  GArray *tris;   /* guint: render triangles whose centroid is in the cell */
  GArray *polys;  /* guint: collision polygons that cover the cell */
} Cell;

/* Geometry of one cell is split into tiles by height, so that collision
 * planes stay within the i16 reach (±8 units) of their tile's origin. */
#define WK_ENG_BAND 8.0

static gint32
band_of (double y)
{
  return (gint32) CLAMP (floor (y / WK_ENG_BAND), -(1 << 20), 1 << 20);
}

static void
cell_free (Cell *c)
{
  g_array_unref (c->tris);
  g_array_unref (c->polys);
  g_free (c);
}

static Cell *
cell_get (GHashTable *cells, guint32 cx, guint32 cz, gint32 band)
{
  guint64 key = ((guint64) (guint32) (band + (1 << 21)) << 32) | (cz << 16) | cx;
  Cell *c = g_hash_table_lookup (cells, &key);
  if (c == NULL)
    {
      c = g_new0 (Cell, 1);
      c->cx = cx;
      c->cz = cz;
      c->band = band;
      c->tris = g_array_new (FALSE, FALSE, sizeof (guint));
      c->polys = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (cells, g_memdup2 (&key, sizeof key), c);
    }
  return c;
}

static gint
cell_cmp (gconstpointer a, gconstpointer b)
{
  const Cell *x = *(Cell *const *) a, *y = *(Cell *const *) b;
  if (x->cz != y->cz)
    return x->cz < y->cz ? -1 : 1;
  if (x->cx != y->cx)
    return x->cx < y->cx ? -1 : 1;
  return x->band < y->band ? -1 : x->band > y->band;
}

static gboolean
cell_of (double x, double z, const char *what, gsize index, guint32 *cx,
         guint32 *cz, GError **error)
{
  double fx = floor (x), fz = floor (z);
  if (!(fx >= 0 && fz >= 0 && fx < WK_ENG_MAX_GRID && fz < WK_ENG_MAX_GRID))
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "%s %" G_GSIZE_FORMAT " lies at x %.3f, z %.3f (file space): "
                    "the grid covers 0 ≤ x, z < %d", what, index, x, z,
                    WK_ENG_MAX_GRID);
      return FALSE;
    }
  *cx = (guint32) fx;
  *cz = (guint32) fz;
  return TRUE;
}

/* Collision polygons (file space corner pointers) of the input. */
typedef struct {
  guint n;
  const gfloat *c[4];
  guint8 material;
} Poly;

typedef struct {
  const WkEngMeshIn *in;
  WkEngImport *imp;
  WkEngTexFit *fit;          /* in->fit, or the import's own */
} Ctx;

typedef struct {
  WkEngFace face;
  gint32 page;
  guint16 state;
  guint order;
} SortFace;

static gint
face_cmp (gconstpointer a, gconstpointer b)
{
  const SortFace *x = a, *y = b;
  if (x->page != y->page)
    return x->page < y->page ? -1 : 1;
  if (x->state != y->state)
    return x->state < y->state ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static guint8
color_byte (gfloat c)
{
  return wk_round_byte ((double) c * 128.0);
}

/* Build the model of one cell. */
static gboolean
build_cell (Ctx *ctx, Cell *cell, GPtrArray *polys, GError **error)
{
  const WkEngMeshIn *in = ctx->in;
  WkEngImport *imp = ctx->imp;
  /* tile height: middle of everything in the cell, on a 1/16 step */
  double lo = INFINITY, hi = -INFINITY;
  for (guint i = 0; i < cell->tris->len; i++)
    for (int k = 0; k < 3; k++)
      {
        gsize t = g_array_index (cell->tris, guint, i);
        double y = in->positions[3 * (gsize) in->triangles[3 * t + k] + 1];
        lo = MIN (lo, y);
        hi = MAX (hi, y);
      }
  for (guint i = 0; i < cell->polys->len; i++)
    {
      const Poly *p = g_ptr_array_index (polys, g_array_index (cell->polys, guint, i));
      for (guint k = 0; k < p->n; k++)
        {
          lo = MIN (lo, p->c[k][1]);
          hi = MAX (hi, p->c[k][1]);
        }
    }
  const double oy = round ((lo + hi) / 2 * 16) / 16;
  const double ox = cell->cx + 0.5, oz = cell->cz + 0.5;

  WkEngModel *m = wk_eng_model_new (FALSE);
  g_ptr_array_add (imp->models, m);
  g_array_append_val (imp->cell_x, cell->cx);
  g_array_append_val (imp->cell_z, cell->cz);
  gfloat fy = (gfloat) oy;
  g_array_append_val (imp->y, fy);

  /* vertices: one per (input vertex, colour) used in the cell */
  g_autoptr (GHashTable) vmap = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                       g_free, NULL);
  g_autoptr (GArray) verts = g_array_new (FALSE, FALSE, sizeof (gfloat));
  g_autoptr (GByteArray) cols = g_byte_array_new ();
  g_autoptr (GArray) faces = g_array_new (FALSE, FALSE, sizeof (SortFace));
  for (guint i = 0; i < cell->tris->len; i++)
    {
      gsize t = g_array_index (cell->tris, guint, i);
      SortFace sf = { .order = i };
      gfloat uv[3][2];
      for (guint k = 0; k < 3; k++)
        {
          /* export order (0,1,2) = file corners (0,2,1) */
          guint src = k == 0 ? 0 : 3 - k;
          guint32 vi = in->triangles[3 * t + src];
          guint8 rgba[4] = { 0x80, 0x80, 0x80, 0 };
          if (in->color)
            for (int c = 0; c < 3; c++)
              rgba[c] = color_byte (in->color[12 * t + 4 * src + c]);
          guint64 key = ((guint64) vi << 32) | ((guint64) rgba[0] << 16)
                        | ((guint64) rgba[1] << 8) | rgba[2];
          gpointer hit = g_hash_table_lookup (vmap, &key);
          guint index;
          if (hit)
            index = GPOINTER_TO_UINT (hit) - 1;
          else
            {
              index = verts->len / 6;
              const gfloat *p = &in->positions[3 * (gsize) vi];
              gfloat v[6] = { (gfloat) (p[0] - ox), (gfloat) (p[1] - oy),
                              (gfloat) (oz - p[2]), 0, 1, 0 };
              g_array_append_vals (verts, v, 6);
              g_byte_array_append (cols, rgba, 4);
              g_hash_table_insert (vmap, g_memdup2 (&key, sizeof key),
                                   GUINT_TO_POINTER (index + 1));
            }
          if (index >= WK_ENG_MAX_MODEL_VERTS)
            {
              wk_set_error (error, WK_ERROR_LIMIT, -1,
                            "tile at cell (%u, %u): more than %d vertices; the "
                            "engine's transform buffer holds %d per model",
                            cell->cx, cell->cz, WK_ENG_MAX_MODEL_VERTS,
                            WK_ENG_MAX_MODEL_VERTS);
              wk_error_locate (error, -1, -1, vi);
              return FALSE;
            }
          sf.face.v[k] = (guint16) index;
          uv[k][0] = in->uv[6 * t + 2 * src];
          uv[k][1] = in->uv[6 * t + 2 * src + 1];
        }
      guint16 uvflags;
      if (!wk_eng_tex_fit_face (ctx->fit, uv, (guint) in->texture[t],
                                in->face_flags ? in->face_flags[t] : 0,
                                in->face_flags != NULL, &sf.face.tex, &uvflags,
                                error))
        {
          wk_error_prefix (error, "triangle %" G_GSIZE_FORMAT, t);
          return FALSE;
        }
      guint16 keep = in->face_flags ? in->face_flags[t] : 0;
      keep &= (guint16) ~(WK_ENG_FACE_BATCH | WK_ENG_FACE_SECOND
                          | WK_ENG_FACE_MIRROR_U | WK_ENG_FACE_QUAD);
      sf.face.flags = keep | uvflags;
      const WkEngTexEntry *e = wk_eng_tex_fit_entry (ctx->fit, sf.face.tex);
      sf.page = e ? e->page : sf.face.tex;
      sf.state = e ? e->flags : 0;
      g_array_append_val (faces, sf);
    }
  g_array_sort (faces, face_cmp);

  m->n_verts = verts->len / 6;
  m->verts = g_new (gfloat, (gsize) verts->len + 1);
  if (verts->len)
    memcpy (m->verts, verts->data, verts->len * sizeof (gfloat));
  m->n_faces = faces->len;
  m->faces = g_new (WkEngFace, faces->len + 1);
  guint batch_len = 0;
  for (guint f = 0; f < faces->len; f++)
    {
      SortFace *sf = &g_array_index (faces, SortFace, f);
      gboolean change = f == 0 || sf->page != sf[-1].page || sf->state != sf[-1].state
                        || batch_len == WK_ENG_MAX_BATCH_FACES;
      if (change)
        batch_len = 0;
      batch_len++;
      /* a batch is at most 256 faces = 768 corners < WK_ENG_MAX_BATCH_VERTS */
      m->faces[f] = sf->face;
      m->faces[f].flags = (guint16) ((sf->face.flags & ~WK_ENG_FACE_BATCH)
                                     | (change ? WK_ENG_FACE_BATCH : 0));
    }
  g_byte_array_append (imp->colors, cols->data, cols->len);

  /* collision: every polygon covering the cell, tile-local game space */
  m->n_coll = 0;
  m->coll = g_malloc0 ((gsize) cell->polys->len * 2 * WK_ENG_COLL_RECORD_SIZE + 1);
  for (guint i = 0; i < cell->polys->len; i++)
    {
      guint pi = g_array_index (cell->polys, guint, i);
      const Poly *p = g_ptr_array_index (polys, pi);
      double local[4][3];
      for (guint k = 0; k < p->n; k++)
        {
          local[k][0] = p->c[k][0] - ox;
          local[k][1] = p->c[k][1] - oy;
          local[k][2] = p->c[k][2] - oz;
        }
      gint written = encode_poly ((const double (*)[3]) local, p->n, p->material,
                                  m->coll + (gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE,
                                  &imp->coll_split, error);
      if (written < 0)
        {
          wk_error_prefix (error, "tile at cell (%u, %u), collision polygon %u",
                           cell->cx, cell->cz, pi);
          return FALSE;
        }
      if (written == 0)
        imp->dropped_coll++;
      m->n_coll += (guint) written;
    }
  if (m->n_coll > G_MAXUINT16)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "tile at cell (%u, %u): %u collision polygons, a model "
                    "holds at most 65535", cell->cx, cell->cz, m->n_coll);
      return FALSE;
    }
  m->coll_groups[0] = (guint16) m->n_coll; /* all in group A [assumed] */
  imp->n_coll_records += m->n_coll;
  wk_eng_model_recompute (m);
  return TRUE;
}

static gboolean
tri_degenerate (const WkEngMeshIn *in, gsize t)
{
  const guint32 *v = &in->triangles[3 * t];
  if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2])
    return TRUE;
  double a[3], b[3], n[3];
  for (int k = 0; k < 3; k++)
    {
      a[k] = (double) in->positions[3 * (gsize) v[1] + k] - in->positions[3 * (gsize) v[0] + k];
      b[k] = (double) in->positions[3 * (gsize) v[2] + k] - in->positions[3 * (gsize) v[0] + k];
    }
  wk_vec_cross (a, b, n);
  return wk_vec_norm (n) < 1e-10;
}

static gboolean
check_input (const WkEngMeshIn *in, GError **error)
{
  for (gsize i = 0; i < in->n_verts * 3; i++)
    if (!isfinite (in->positions[i]))
      {
        wk_set_error (error, WK_ERROR_ARGUMENT, -1, "vertex %" G_GSIZE_FORMAT
                      " is not finite", i / 3);
        return FALSE;
      }
    else if (fabsf (in->positions[i]) > WK_ENG_MAX_COORD)
      {
        wk_set_error (error, WK_ERROR_LIMIT, -1, "vertex %" G_GSIZE_FORMAT
                      ": coordinate %g is beyond the 20.12 fixed-point range "
                      "(±%d)", i / 3, in->positions[i], WK_ENG_MAX_COORD);
        return FALSE;
      }
  for (gsize t = 0; t < in->n_tris; t++)
    {
      for (int k = 0; k < 3; k++)
        if (in->triangles[3 * t + k] >= in->n_verts)
          {
            wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                          "triangle %" G_GSIZE_FORMAT " uses vertex %u of %"
                          G_GSIZE_FORMAT, t, in->triangles[3 * t + k], in->n_verts);
            return FALSE;
          }
      gint32 tex = in->texture[t];
      guint limit = in->entries ? (in->fit ? wk_eng_tex_fit_size (in->fit)
                                           : in->n_entries)
                                : G_MAXUINT16 + 1;
      if (tex < 0 || (guint) tex >= limit)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "triangle %" G_GSIZE_FORMAT ": texture %d, the table has "
                        "%u entries", t, tex, limit);
          return FALSE;
        }
    }
  for (gsize i = 0; in->c_positions && i < in->n_cverts * 3; i++)
    if (!isfinite (in->c_positions[i]) || fabsf (in->c_positions[i]) > WK_ENG_MAX_COORD)
      {
        wk_set_error (error, WK_ERROR_ARGUMENT, -1, "collision vertex %"
                      G_GSIZE_FORMAT " is not finite or beyond ±%d", i / 3,
                      WK_ENG_MAX_COORD);
        return FALSE;
      }
  for (gsize p = 0; p < in->n_cpolys; p++)
    for (int k = 0; k < 4; k++)
      {
        gint32 v = in->c_polygons[4 * p + k];
        if ((k == 3 && v == -1) || (v >= 0 && (gsize) v < in->n_cverts))
          continue;
        wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                      "collision polygon %" G_GSIZE_FORMAT " uses vertex %d of %"
                      G_GSIZE_FORMAT, p, v, in->n_cverts);
        return FALSE;
      }
  return TRUE;
}

WkEngImport *
wk_eng_import_mesh (const WkEngMeshIn *in, GError **error)
{
  if (!check_input (in, error))
    return NULL;
  g_autoptr (WkEngImport) imp = g_new0 (WkEngImport, 1);
  imp->models = g_ptr_array_new_with_free_func ((GDestroyNotify) wk_eng_model_free);
  imp->cell_x = g_array_new (FALSE, FALSE, sizeof (guint32));
  imp->cell_z = g_array_new (FALSE, FALSE, sizeof (guint32));
  imp->y = g_array_new (FALSE, FALSE, sizeof (gfloat));
  imp->colors = g_byte_array_new ();
  imp->new_entries = g_array_new (FALSE, FALSE, sizeof (WkEngTexEntry));
  g_autoptr (GHashTable) cells = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                        g_free, (GDestroyNotify) cell_free);
  g_autoptr (GPtrArray) polys = g_ptr_array_new_with_free_func (g_free);

  for (gsize t = 0; t < in->n_tris; t++)
    {
      if (tri_degenerate (in, t))
        {
          imp->dropped_degenerate++;
          continue;
        }
      double c[3] = { 0, 0, 0 };
      for (int k = 0; k < 3; k++)
        for (int j = 0; j < 3; j++)
          c[j] += in->positions[3 * (gsize) in->triangles[3 * t + k] + j] / 3.0;
      guint32 cx, cz;
      if (!cell_of (c[0], c[2], "triangle", t, &cx, &cz, error))
        return NULL;
      guint ti = (guint) t;
      g_array_append_val (cell_get (cells, cx, cz, band_of (c[1]))->tris, ti);
      if (in->n_cpolys == 0 && in->c_positions == NULL)
        {
          Poly *p = g_new0 (Poly, 1);
          p->n = 3;
          for (int k = 0; k < 3; k++) /* file order is game order */
            p->c[k] = &in->positions[3 * (gsize) in->triangles[3 * t + k]];
          g_ptr_array_add (polys, p);
        }
    }
  for (gsize i = 0; in->c_positions && i < in->n_cpolys; i++)
    {
      Poly *p = g_new0 (Poly, 1);
      p->n = in->c_polygons[4 * i + 3] < 0 ? 3 : 4;
      for (guint k = 0; k < p->n; k++)
        p->c[k] = &in->c_positions[3 * (gsize) in->c_polygons[4 * i + k]];
      p->material = in->c_material ? in->c_material[i] : 0;
      double tmp[4][3];
      for (guint k = 0; k < p->n; k++)
        for (int j = 0; j < 3; j++)
          tmp[k][j] = p->c[k][j];
      if (wk_eng_coll_degenerate ((const double (*)[3]) tmp, p->n))
        {
          imp->dropped_coll++;
          g_free (p);
          continue;
        }
      g_ptr_array_add (polys, p);
    }
  /* every polygon into every cell its interior covers (half-open cells:
   * one that ends on a cell line is not entered into the next cell) */
  g_autoptr (GArray) covered = g_array_new (FALSE, FALSE, sizeof (WkEngCell));
  for (guint i = 0; i < polys->len; i++)
    {
      const Poly *p = g_ptr_array_index (polys, i);
      double xz[4][2], y = 0;
      for (guint k = 0; k < p->n; k++)
        {
          y += p->c[k][1] / (double) p->n;
          xz[k][0] = p->c[k][0];
          xz[k][1] = p->c[k][2];
        }
      g_array_set_size (covered, 0);
      gint64 bad[2];
      if (!wk_eng_coll_reachable (xz, p->n))
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "collision polygon %u spans more than %g units across: "
                        "its plane distances fall outside the i16 range of the record from "
                        "any tile origin (split it)", i, WK_ENG_COLL_MAX_SPAN);
          return NULL;
        }
      if (!wk_eng_cells_covered (xz, p->n, WK_ENG_MAX_GRID, WK_ENG_MAX_GRID,
                                 covered, bad))
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "collision polygon %u reaches cell (%" G_GINT64_FORMAT
                        ", %" G_GINT64_FORMAT ") (file space): the grid covers "
                        "0 ≤ x, z < %d", i, bad[0], bad[1], WK_ENG_MAX_GRID);
          return NULL;
        }
      for (guint k = 0; k < covered->len; k++)
        {
          const WkEngCell *c = &g_array_index (covered, WkEngCell, k);
          g_array_append_val (cell_get (cells, c->x, c->z, band_of (y))->polys, i);
        }
    }

  WkEngTexFit own;
  Ctx ctx = { in, imp, in->fit };
  if (ctx.fit == NULL)
    {
      wk_eng_tex_fit_init (&own, in->entries, in->n_entries, in->allow_new_entries);
      ctx.fit = &own;
    }
  const guint inexact0 = ctx.fit->uv_inexact, nearest0 = ctx.fit->uv_nearest;
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, cells);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_ptr_array_add (order, value);
  g_ptr_array_sort (order, cell_cmp);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < order->len; i++)
    ok = build_cell (&ctx, g_ptr_array_index (order, i), polys, error);
  imp->uv_inexact = ctx.fit->uv_inexact - inexact0;
  imp->uv_nearest = ctx.fit->uv_nearest - nearest0;
  if (ctx.fit == &own)
    {
      g_array_append_vals (imp->new_entries, own.new_entries->data,
                           own.new_entries->len);
      wk_eng_tex_fit_clear (&own);
    }
  return ok ? g_steal_pointer (&imp) : NULL;
}

/* ---- MAP ---- */

GBytes *
wk_eng_import_map (const WkEngMap *base, const GPtrArray *base_models,
                   const WkEngImport *imp, gboolean keep_tiles,
                   gboolean zones_flat, GPtrArray **trak_models,
                   GPtrArray *warnings, GError **error)
{
  guint32 n_old = keep_tiles ? base->n : 0;
  guint32 n_new = imp->models->len;
  guint32 model0 = keep_tiles ? base_models->len : 0;
  if ((guint64) n_old + n_new > G_MAXINT32 || (guint64) model0 + n_new > G_MAXINT32)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "too many tiles");
      return NULL;
    }
  guint32 n = n_old + n_new;
  WkEngMap m = *base;
  m.n = n;
  guint32 w = base->w, h = base->h;
  for (guint32 i = 0; i < n_new; i++)
    {
      w = MAX (w, g_array_index (imp->cell_x, guint32, i) + 1);
      h = MAX (h, g_array_index (imp->cell_z, guint32, i) + 1);
    }
  if ((w != base->w || h != base->h)
      && (guint64) w * h > (guint64) WK_ENG_MAX_GRID * WK_ENG_MAX_GRID)
    {
      /* a long thin base grid grown sideways: refuse before allocating */
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "the MAP grid would grow from %u×%u to %u×%u cells, beyond "
                    "%d×%d cells", base->w, base->h, w, h, WK_ENG_MAX_GRID,
                    WK_ENG_MAX_GRID);
      return NULL;
    }
  if (w != base->w || h != base->h)
    g_ptr_array_add (warnings, g_strdup_printf (
        "MAP grid grown from %u×%u to %u×%u cells to hold the mesh (new cells "
        "get zone 0)", base->w, base->h, w, h));
  m.w = w;
  m.h = h;
  g_autofree WkEngTileA *a = g_new0 (WkEngTileA, n + 1);
  g_autofree gint32 (*b)[6] = g_malloc0_n ((gsize) n + 1, sizeof *b);
  g_autofree guint32 *model = g_new0 (guint32, n + 1);
  g_autofree gint32 *swap_of_tile = g_new (gint32, n + 1);
  g_autofree guint32 *col_start = g_new0 (guint32, n + 1);
  g_autofree guint32 *col_sets = g_new0 (guint32, n + 1);
  g_autofree guint32 *colb_start = g_new0 (guint32, n + 1);
  g_autofree guint32 *colb_sets = g_new0 (guint32, n + 1);
  g_autofree guint32 *zone_grid = g_new0 (guint32, (gsize) w * h + 1);
  g_autoptr (GByteArray) colors = g_byte_array_new ();
  if (keep_tiles)
    {
      memcpy (a, base->a, sizeof *a * n_old);
      memcpy (b, base->b, sizeof *b * n_old);
      memcpy (model, base->model, sizeof *model * n_old);
      memcpy (swap_of_tile, base->swap_of_tile, sizeof *swap_of_tile * n_old);
      memcpy (col_start, base->col_start, sizeof *col_start * n_old);
      memcpy (col_sets, base->col_sets, sizeof *col_sets * n_old);
      memcpy (colb_start, base->colb_start, sizeof *colb_start * n_old);
      memcpy (colb_sets, base->colb_sets, sizeof *colb_sets * n_old);
      g_byte_array_append (colors, base->colors, base->n_colors * 4);
    }
  else
    {
      m.n_swaps = 0; /* the swap block (if WFPC has it) is written empty */
      if (base->n_swaps)
        g_ptr_array_add (warnings, g_strdup_printf (
            "%u tile swaps (doors, bridges …) dropped with the old tiles",
            base->n_swaps));
    }
  gsize vcol = 0;
  for (guint32 k = 0; k < n_new; k++)
    {
      guint32 i = n_old + k;
      guint32 cx = g_array_index (imp->cell_x, guint32, k);
      guint32 cz = g_array_index (imp->cell_z, guint32, k);
      gfloat y = g_array_index (imp->y, gfloat, k);
      const WkEngModel *mod = g_ptr_array_index (imp->models, k);
      /* y is k/16 (the height bands): exact in 20.12 */
      wk_eng_cell_tile (cx, cz, (gint32) lround ((double) y * WK_ENG_FIXED_ONE),
                        model0 + k, &a[i], b[i]);
      model[i] = model0 + k;
      swap_of_tile[i] = -1;
      col_start[i] = colors->len / 4;
      col_sets[i] = 1;
      colb_start[i] = colors->len / 4 + mod->n_verts;
      g_byte_array_append (colors, imp->colors->data + vcol * 4, mod->n_verts * 4);
      vcol += mod->n_verts;
    }
  for (guint32 z = 0; !zones_flat && z < MIN (h, base->h); z++)
    for (guint32 x = 0; x < MIN (w, base->w); x++)
      zone_grid[(gsize) z * w + x] = base->zone_grid[(gsize) z * base->w + x];
  if (zones_flat)
    m.zone_table[0] = 0xffffffffu;
  m.a = a;
  m.b = b;
  m.model = model;
  m.swap_of_tile = swap_of_tile;
  m.col_start = col_start;
  m.col_sets = col_sets;
  m.colb_start = colb_start;
  m.colb_sets = colb_sets;
  m.zone_grid = zone_grid;
  m.colors = colors->data;
  m.n_colors = colors->len / 4;

  GPtrArray *models = g_ptr_array_new ();
  for (guint i = 0; keep_tiles && i < base_models->len; i++)
    g_ptr_array_add (models, g_ptr_array_index (base_models, i));
  for (guint i = 0; i < n_new; i++)
    g_ptr_array_add (models, g_ptr_array_index (imp->models, i));
  GBytes *out = wk_eng_map_build (&m, models, error);
  if (out == NULL)
    {
      g_ptr_array_unref (models);
      return NULL;
    }
  *trak_models = models;
  return out;
}
