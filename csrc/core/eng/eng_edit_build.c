/* ENG edits: the written TRAK and MAP. Live tiles in their order, then the
 * collision-only tiles that carry changed collision records into the other
 * cells they cover (the engine tests only the tiles of the player's cell).
 * Untouched models and tiles are written from their parsed fields, which
 * gives their stored bytes. docs/formats/eng.md "Editing a level in place". */
#include "eng_edit_priv.h"

#include <math.h>

#include "eng_cells.h"
#include "eng_coll_record.h"
#include "eng_collision.h"
#include "eng_trak.h"

void
wk_eng_edit_out_free (WkEngEditOut *o)
{
  if (o == NULL)
    return;
  g_clear_pointer (&o->trak, g_bytes_unref);
  g_clear_pointer (&o->map, g_bytes_unref);
  g_clear_pointer (&o->new_entries, g_array_unref);
  g_clear_pointer (&o->tile_index, g_array_unref);
  g_clear_pointer (&o->rewritten, g_array_unref);
  g_clear_pointer (&o->warnings, g_ptr_array_unref);
  g_free (o);
}

/* A collision-only tile in another cell, for one source tile. */
typedef struct {
  guint32 cx, cz;
  guint32 source;      /* the edit tile whose records it carries */
  gint32 y;            /* B y of the source tile */
  GByteArray *rec[3];  /* records by group */
} Spill;

static void
spill_free (Spill *s)
{
  for (int g = 0; g < 3; g++)
    g_byte_array_unref (s->rec[g]);
  g_free (s);
}

static Spill *
spill_get (GHashTable *by_key, GPtrArray *order, guint32 cx, guint32 cz,
           guint32 source, gint32 y)
{
  guint64 key = ((guint64) source << 32) ^ ((guint64) cz << 16) ^ cx;
  Spill *s = g_hash_table_lookup (by_key, &key);
  if (s == NULL)
    {
      s = g_new0 (Spill, 1);
      *s = (Spill) { cx, cz, source, y,
                     { g_byte_array_new (), g_byte_array_new (), g_byte_array_new () } };
      g_hash_table_insert (by_key, g_memdup2 (&key, sizeof key), s);
      g_ptr_array_add (order, s);
    }
  return s;
}

/* Enter the new records of tile i's model into the other cells they
 * cover. */
static gboolean
spill_tile (const WkEngEdit *e, guint32 i, GHashTable *by_key, GPtrArray *order,
            guint *records, GPtrArray *warnings, GError **error)
{
  const WkEngEditTile *t = &g_array_index (e->tiles, WkEngEditTile, i);
  const WkEngEditModel *em = &g_array_index (e->models, WkEngEditModel, t->model);
  const guint32 w = e->map->w, h = e->map->h;
  gint64 own = wk_eng_tile_cell (&t->a, w, h);
  g_autoptr (GArray) cells = g_array_new (FALSE, FALSE, sizeof (WkEngCell));
  guint outside = 0;
  for (guint p = 0; p < em->spill->len; p++)
    {
      const WkEngSpillPoly *sp = &g_array_index (em->spill, WkEngSpillPoly, p);
      double world[4][3], xz[4][2];
      for (guint k = 0; k < sp->n; k++)
        {
          wk_eng_tile_game_point (t->b, sp->c[k], world[k]);
          xz[k][0] = world[k][0];
          xz[k][1] = world[k][2];
        }
      g_array_set_size (cells, 0);
      gint64 bad[2];
      outside += !wk_eng_cells_covered (xz, sp->n, w, h, cells, bad);
      for (guint c = 0; c < cells->len; c++)
        {
          const WkEngCell *cell = &g_array_index (cells, WkEngCell, c);
          if ((gint64) cell->x + (gint64) cell->z * w == own)
            continue;
          /* the spill tile sits at the cell centre, at the source's height */
          const double origin[3] = { cell->x + 0.5, wk_eng_from_fixed (t->b[4]),
                                     cell->z + 0.5 };
          double local[4][3];
          for (guint k = 0; k < sp->n; k++)
            for (int j = 0; j < 3; j++)
              local[k][j] = world[k][j] - origin[j];
          WkEngCollRecord rec;
          if (!wk_eng_coll_encode_polygon ((const double (*)[3]) local, sp->n,
                                           sp->material, &rec, error))
            {
              wk_error_prefix (error, "collision of tile %u entered into cell "
                               "(%u, %u)", i, cell->x, cell->z);
              wk_eng_edit_error (error, em->name, i, t->model);
              return FALSE;
            }
          guint8 raw[32];
          wk_eng_coll_record_encode (&rec, raw);
          Spill *s = spill_get (by_key, order, cell->x, cell->z, i, t->b[4]);
          g_byte_array_append (s->rec[wk_eng_edit_group_of (raw)], raw, 32);
          (*records)++;
        }
    }
  if (outside)
    g_ptr_array_add (warnings, g_strdup_printf (
        "%s%stile %u: %u changed collision polygons reach outside the %u×%u "
        "grid; that part has no effect in the game", em->name ? em->name : "",
        em->name ? ": " : "", i, outside, w, h));
  return TRUE;
}

static WkEngModel *
spill_model (const Spill *s, GError **error)
{
  WkEngModel *m = wk_eng_model_new (FALSE);
  m->verts = g_new0 (gfloat, 1);
  m->faces = g_new0 (WkEngFace, 1);
  gsize n = s->rec[0]->len + s->rec[1]->len + s->rec[2]->len;
  m->coll = g_malloc (n + 1);
  for (int g = 0; g < 3; g++)
    {
      if (s->rec[g]->len)
        memcpy (m->coll + 32 * (gsize) m->n_coll, s->rec[g]->data, s->rec[g]->len);
      m->coll_groups[g] = (guint16) MIN (s->rec[g]->len / 32, G_MAXUINT16);
      m->n_coll += s->rec[g]->len / 32;
    }
  wk_eng_model_recompute (m);
  if (!wk_eng_model_check_limits (m, error))
    {
      wk_eng_model_free (m);
      return NULL;
    }
  return m;
}

typedef struct {
  GArray *a, *b, *model, *swap_of_tile, *col_start, *col_sets, *colb_start, *colb_sets;
  GArray *swaps;
  GByteArray *colors;
} Tiles;

static void
tiles_clear (Tiles *t)
{
  GArray **all[] = { &t->a, &t->b, &t->model, &t->swap_of_tile, &t->col_start,
                     &t->col_sets, &t->colb_start, &t->colb_sets, &t->swaps };
  for (guint k = 0; k < G_N_ELEMENTS (all); k++)
    g_clear_pointer (all[k], g_array_unref);
  g_clear_pointer (&t->colors, g_byte_array_unref);
}

static void
tiles_init (Tiles *t)
{
  t->a = g_array_new (FALSE, FALSE, sizeof (WkEngTileA));
  t->b = g_array_new (FALSE, FALSE, sizeof (gint32[6]));
  t->model = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->swap_of_tile = g_array_new (FALSE, FALSE, sizeof (gint32));
  t->col_start = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->col_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->colb_start = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->colb_sets = g_array_new (FALSE, FALSE, sizeof (guint32));
  t->swaps = g_array_new (FALSE, FALSE, sizeof (WkEngSwap));
  t->colors = g_byte_array_new ();
}

/* Append one tile: A, B, model, colour block (nv × sets), swap. */
static void
tiles_add (Tiles *t, const WkEngTileA *a, const gint32 b[6], guint32 model,
           const guint8 *colors, guint nv, guint32 sets, const WkEngSwap *swap,
           const guint8 *colors_b, guint nv_b, guint32 sets_b)
{
  WkEngTileA ta = *a;
  ta.model = model;
  g_array_append_val (t->a, ta);
  g_array_append_vals (t->b, b, 1);
  g_array_append_val (t->model, model);
  guint32 start = t->colors->len / 4;
  g_array_append_val (t->col_start, start);
  g_array_append_val (t->col_sets, sets);
  g_byte_array_append (t->colors, colors, nv * sets * 4);
  gint32 si = -1;
  guint32 bstart = t->colors->len / 4, bsets = 0;
  if (swap != NULL)
    {
      si = (gint32) t->swaps->len;
      g_array_append_vals (t->swaps, swap, 1);
      bsets = sets_b;
      g_byte_array_append (t->colors, colors_b, nv_b * sets_b * 4);
    }
  g_array_append_val (t->swap_of_tile, si);
  g_array_append_val (t->colb_start, bstart);
  g_array_append_val (t->colb_sets, bsets);
}

WkEngEditOut *
wk_eng_edit_build (const WkEngEdit *e, GError **error)
{
  const WkEngMap *base = e->map;
  g_autoptr (WkEngEditOut) out = g_new0 (WkEngEditOut, 1);
  out->warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < e->warnings->len; i++)
    g_ptr_array_add (out->warnings, g_strdup (g_ptr_array_index (e->warnings, i)));
  g_autoptr (GPtrArray) models = g_ptr_array_new ();
  g_autoptr (GPtrArray) spill_models = g_ptr_array_new_with_free_func (
      (GDestroyNotify) wk_eng_model_free);
  out->rewritten = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < e->models->len; i++)
    {
      const WkEngEditModel *em = &g_array_index (e->models, WkEngEditModel, i);
      g_ptr_array_add (models, em->m);
      if (i < e->base_models->len && em->owned)
        g_array_append_val (out->rewritten, i);
    }
  out->n_base_models = e->base_models->len;

  /* changed collision records into the other cells they cover */
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                         g_free, NULL);
  g_autoptr (GPtrArray) spills = g_ptr_array_new_with_free_func ((GDestroyNotify) spill_free);
  for (guint i = 0; i < e->tiles->len; i++)
    {
      const WkEngEditTile *t = &g_array_index (e->tiles, WkEngEditTile, i);
      if (!t->deleted && g_array_index (e->models, WkEngEditModel, t->model).spill
          && !spill_tile (e, i, by_key, spills, &out->spill_records, out->warnings,
                          error))
        return NULL;
    }
  for (guint k = 0; k < spills->len; k++)
    {
      WkEngModel *m = spill_model (g_ptr_array_index (spills, k), error);
      if (m == NULL)
        return NULL;
      g_ptr_array_add (spill_models, m);
      g_ptr_array_add (models, m);
    }

  Tiles tl;
  tiles_init (&tl);
  out->tile_index = g_array_sized_new (FALSE, FALSE, sizeof (gint32), e->tiles->len);
  for (guint i = 0; i < e->tiles->len; i++)
    {
      const WkEngEditTile *t = &g_array_index (e->tiles, WkEngEditTile, i);
      gint32 index = t->deleted ? -1 : (gint32) tl.model->len;
      g_array_append_val (out->tile_index, index);
      if (t->deleted)
        continue;
      const WkEngModel *m = g_ptr_array_index (models, t->model);
      if (t->nv != m->n_verts)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                        "tile %u: its colour block holds %u vertices, model %u "
                        "has %u", i, t->nv, t->model, m->n_verts);
          wk_error_locate (error, i, t->model, -1);
          tiles_clear (&tl);
          return NULL;
        }
      const guint8 *cols = t->colors ? g_bytes_get_data (t->colors, NULL)
                                     : base->colors + 4 * (gsize) base->col_start[t->base];
      const WkEngSwap *swap = t->swap >= 0 ? &e->swaps[t->swap] : NULL;
      const guint8 *cols_b = NULL;
      guint nv_b = 0;
      if (swap != NULL)
        {
          /* modelB is never rewritten while a swap names it */
          cols_b = base->colors + 4 * (gsize) base->colb_start[t->base];
          nv_b = ((const WkEngModel *) g_ptr_array_index (models, swap->model_b))->n_verts;
        }
      tiles_add (&tl, &t->a, t->b, t->model, cols, m->n_verts, t->sets, swap,
                 cols_b, nv_b, swap ? base->colb_sets[t->base] : 0);
    }
  for (guint k = 0; k < spills->len; k++)
    {
      const Spill *s = g_ptr_array_index (spills, k);
      guint32 mi = e->models->len + k;
      WkEngTileA a;
      gint32 b[6];
      wk_eng_cell_tile (s->cx, s->cz, s->y, mi, &a, b);
      tiles_add (&tl, &a, b, mi, NULL, 0, 1, NULL, NULL, 0, 0);
    }
  out->spill_tiles = spills->len;

  WkEngMap m = *base;
  m.n = tl.model->len;
  m.a = (WkEngTileA *) tl.a->data;
  m.b = (gint32 (*)[6]) tl.b->data;
  m.model = (guint32 *) tl.model->data;
  m.swap_of_tile = (gint32 *) tl.swap_of_tile->data;
  m.col_start = (guint32 *) tl.col_start->data;
  m.col_sets = (guint32 *) tl.col_sets->data;
  m.colb_start = (guint32 *) tl.colb_start->data;
  m.colb_sets = (guint32 *) tl.colb_sets->data;
  m.colors = tl.colors->data;
  m.n_colors = tl.colors->len / 4;
  m.n_swaps = tl.swaps->len;
  m.swaps = (WkEngSwap *) tl.swaps->data;
  g_autofree guint32 *flat_grid = NULL;
  if (e->zones_flat)
    {
      flat_grid = g_new0 (guint32, (gsize) base->w * base->h + 1);
      m.zone_grid = flat_grid;
      m.zone_table[0] = 0xffffffffu;
    }
  out->map = wk_eng_map_build (&m, models, error);
  tiles_clear (&tl);
  if (out->map == NULL)
    return NULL;
  out->trak = wk_eng_trak_build (models, error);
  if (out->trak == NULL)
    return NULL;
  out->trak_same = g_bytes_equal (out->trak, e->trak_src);
  out->map_same = g_bytes_equal (out->map, e->map_src);
  out->n_tiles = m.n;
  out->n_models = models->len;
  out->new_entries = g_array_copy (e->fit.new_entries);
  return g_steal_pointer (&out);
}
