/* ENG edits: the edit state, tiles (place, delete, add), vertex colours and
 * new meshes. Models: eng_edit_model.c; the written chunks: eng_edit_build.c.
 * docs/formats/eng.md "Editing a level in place". */
#include "eng_edit_priv.h"

#include <math.h>

#include "eng_trak.h"
#include "eng_world.h"

void
wk_eng_edit_model_clear (WkEngEditModel *m)
{
  if (m->owned)
    wk_eng_model_free (m->m);
  g_clear_pointer (&m->spill, g_array_unref);
  g_clear_pointer (&m->name, g_free);
}

static void
tile_clear (WkEngEditTile *t)
{
  g_clear_pointer (&t->colors, g_bytes_unref);
}

void
wk_eng_edit_free (WkEngEdit *e)
{
  if (e == NULL)
    return;
  g_clear_pointer (&e->models, g_array_unref);
  g_clear_pointer (&e->tiles, g_array_unref);
  g_clear_pointer (&e->map, wk_eng_map_free);
  g_clear_pointer (&e->base_models, g_ptr_array_unref);
  g_free (e->swaps);
  if (e->fit.index != NULL)
    wk_eng_tex_fit_clear (&e->fit);
  g_free (e->entries);
  g_clear_pointer (&e->warnings, g_ptr_array_unref);
  g_clear_pointer (&e->trak_src, g_bytes_unref);
  g_clear_pointer (&e->map_src, g_bytes_unref);
  g_free (e);
}

WkEngEdit *
wk_eng_edit_new (GBytes *trak, gint64 trak_base, GBytes *map, gint64 map_base,
                 guint32 wfpc, const WkEngTexEntry *entries, guint n_entries,
                 gboolean allow_new_entries, GError **error)
{
  g_autoptr (WkEngEdit) e = g_new0 (WkEngEdit, 1);
  e->warnings = g_ptr_array_new_with_free_func (g_free);
  e->trak_src = g_bytes_ref (trak);
  e->map_src = g_bytes_ref (map);
  e->base_models = wk_eng_trak_parse_bytes (trak, trak_base, error);
  if (e->base_models == NULL)
    return NULL;
  e->map = wk_eng_map_parse_bytes (map, map_base, wfpc, e->base_models, error);
  if (e->map == NULL)
    return NULL;
  e->models = g_array_sized_new (FALSE, TRUE, sizeof (WkEngEditModel),
                                 e->base_models->len);
  g_array_set_clear_func (e->models, (GDestroyNotify) wk_eng_edit_model_clear);
  for (guint i = 0; i < e->base_models->len; i++)
    {
      WkEngEditModel m = { g_ptr_array_index (e->base_models, i), FALSE, NULL, NULL };
      g_array_append_val (e->models, m);
    }
  const WkEngMap *mp = e->map;
  e->tiles = g_array_sized_new (FALSE, TRUE, sizeof (WkEngEditTile), mp->n);
  g_array_set_clear_func (e->tiles, (GDestroyNotify) tile_clear);
  for (guint32 i = 0; i < mp->n; i++)
    {
      const WkEngModel *bm = g_ptr_array_index (e->base_models, mp->model[i]);
      WkEngEditTile t = { mp->a[i], { 0 }, mp->model[i], mp->swap_of_tile[i],
                          FALSE, i, NULL, mp->col_sets[i], bm->n_verts };
      memcpy (t.b, mp->b[i], sizeof t.b);
      g_array_append_val (e->tiles, t);
    }
  e->swaps = g_new (WkEngSwap, mp->n_swaps + 1);
  if (mp->n_swaps)
    memcpy (e->swaps, mp->swaps, sizeof (WkEngSwap) * mp->n_swaps);
  if (entries != NULL)
    {
      e->entries = g_new (WkEngTexEntry, n_entries + 1);
      memcpy (e->entries, entries, sizeof (WkEngTexEntry) * n_entries);
    }
  wk_eng_tex_fit_init (&e->fit, e->entries, n_entries, allow_new_entries);
  return g_steal_pointer (&e);
}

/* ---- queries ---- */

guint
wk_eng_edit_n_tiles (const WkEngEdit *e)
{
  return e->tiles->len;
}

guint
wk_eng_edit_n_base_tiles (const WkEngEdit *e)
{
  return e->map->n;
}

guint
wk_eng_edit_n_models (const WkEngEdit *e)
{
  return e->models->len;
}

guint
wk_eng_edit_model_verts (const WkEngEdit *e, guint model)
{
  return model < e->models->len
             ? g_array_index (e->models, WkEngEditModel, model).m->n_verts : 0;
}

gint64
wk_eng_edit_tile_model (const WkEngEdit *e, guint tile)
{
  if (tile >= e->tiles->len)
    return -1;
  const WkEngEditTile *t = &g_array_index (e->tiles, WkEngEditTile, tile);
  return t->deleted ? -1 : (gint64) t->model;
}

const guint8 *
wk_eng_edit_tile_colors (const WkEngEdit *e, guint tile, guint *sets, guint *n_verts)
{
  if (wk_eng_edit_tile_model (e, tile) < 0)
    return NULL;
  const WkEngEditTile *t = &g_array_index (e->tiles, WkEngEditTile, tile);
  *n_verts = wk_eng_edit_model_verts (e, t->model);
  *sets = t->sets;
  if (t->colors != NULL)
    return g_bytes_get_data (t->colors, NULL);
  return e->map->colors + 4 * (gsize) e->map->col_start[t->base];
}

WkEngEditTile *
wk_eng_edit_live_tile (const WkEngEdit *e, guint tile, const char *what,
                       GError **error)
{
  if (tile < e->tiles->len)
    {
      WkEngEditTile *t = &g_array_index (e->tiles, WkEngEditTile, tile);
      if (!t->deleted)
        return t;
    }
  wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                "%s: tile %u %s (the edit has tiles 0..%u)", what, tile,
                tile < e->tiles->len ? "is deleted" : "does not exist",
                e->tiles->len ? e->tiles->len - 1 : 0);
  return NULL;
}

void
wk_eng_edit_error (GError **error, const char *name, gint64 tile, gint64 model)
{
  wk_error_locate (error, tile, model, -1);
  wk_error_set_object (error, name);
}

void
wk_eng_edit_retarget (WkEngEdit *e, WkEngEditTile *t, guint32 m)
{
  guint32 old = t->model;
  t->model = m;
  t->a.model = m;
  /* a tile swap that turned this tile's model into modelB follows the
   * tile's new model [assumed] */
  if (t->swap >= 0 && e->swaps[t->swap].model_a == old)
    e->swaps[t->swap].model_a = m;
}

gboolean
wk_eng_edit_model_in_swaps (const WkEngEdit *e, guint32 m, const guint32 *tiles,
                            guint n_tiles)
{
  for (guint i = 0; i < e->tiles->len; i++)
    {
      const WkEngEditTile *t = &g_array_index (e->tiles, WkEngEditTile, i);
      if (t->deleted || t->swap < 0)
        continue;
      const WkEngSwap *s = &e->swaps[t->swap];
      if (s->model_b == m)
        return TRUE;
      if (s->model_a != m)
        continue;
      gboolean listed = FALSE;
      for (guint k = 0; k < n_tiles && !listed; k++)
        listed = tiles[k] == i;
      if (!listed)
        return TRUE;
    }
  return FALSE;
}

/* ---- colours ---- */

static guint
sets_of (const WkEngColors *c, guint nv)
{
  return nv ? (guint) MIN (c->size / (4 * (gsize) nv), G_MAXUINT) : 1;
}

gboolean
wk_eng_edit_check_colors (const WkEngColors *c, guint nv, const char *name,
                          guint tile, GError **error)
{
  if (c == NULL || c->data == NULL)
    return TRUE;
  guint sets = sets_of (c, nv);
  if (nv ? (c->size % (4 * (gsize) nv) != 0 || sets < 1 || sets > 255) : c->size != 0)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "colors of tile %u: %" G_GSIZE_FORMAT " bytes are not 1..255 "
                    "sets × %u vertices × 4 (the set count is byte 3 of the "
                    "first entry)", tile, c->size, nv);
      wk_eng_edit_error (error, name, tile, -1);
      return FALSE;
    }
  return TRUE;
}

GBytes *
wk_eng_edit_color_block (const WkEngColors *c, guint nv, guint *sets)
{
  if (c == NULL || c->data == NULL)
    {
      guint8 *grey = g_malloc ((gsize) nv * 4 + 1);
      for (guint v = 0; v < nv; v++)
        memcpy (grey + 4 * v, (guint8[4]){ 0x80, 0x80, 0x80, 0 }, 4);
      *sets = 1;
      return g_bytes_new_take (grey, (gsize) nv * 4);
    }
  *sets = sets_of (c, nv);
  gsize n = (gsize) *sets * nv * 4;
  guint8 *out = g_malloc (n + 1);
  memcpy (out, c->data, n);
  /* byte 3 of the first entry counts the sets (0/1 = one) */
  if (nv > 0)
    out[3] = (guint8) (*sets >= 2 ? *sets : out[3] < 2 ? out[3] : 0);
  return g_bytes_new_take (out, n);
}

gboolean
wk_eng_edit_set_colors (WkEngEdit *e, guint tile, const WkEngColors *c,
                        const char *name, GError **error)
{
  WkEngEditTile *t = wk_eng_edit_live_tile (e, tile, "set_colors", error);
  guint nv = t ? wk_eng_edit_model_verts (e, t->model) : 0;
  if (t == NULL || !wk_eng_edit_check_colors (c, nv, name, tile, error))
    return FALSE;
  guint sets;
  GBytes *block = wk_eng_edit_color_block (c, nv, &sets);
  g_clear_pointer (&t->colors, g_bytes_unref);
  t->colors = block;
  t->sets = sets;
  t->nv = wk_eng_edit_model_verts (e, t->model);
  return TRUE;
}

/* ---- tiles ---- */

/* B and A of a tile at pos (file space) with rotation rot. */
static gboolean
place (const WkEngEdit *e, WkEngEditTile *t, guint tile, const double pos[3],
       guint32 rot, const char *name, GError **error)
{
  if (rot > 4095)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "rotation %u: 0..4095 (4096 = a full turn)", rot);
      wk_eng_edit_error (error, name, tile, -1);
      return FALSE;
    }
  for (int k = 0; k < 3; k++)
    if (!(fabs (pos[k]) < WK_ENG_EDIT_MAX_COORD))
      {
        wk_set_error (error, WK_ERROR_LIMIT, -1,
                      "position (%g, %g, %g): each coordinate must lie within "
                      "±%g, where MAP A (f32) still holds B's 1/4096 steps",
                      pos[0], pos[1], pos[2], WK_ENG_EDIT_MAX_COORD);
        wk_eng_edit_error (error, name, tile, -1);
        return FALSE;
      }
  gint32 b[6] = { t->b[0], 0, t->b[2], 0, 0, 0 };
  WkEngTileA a = { 0, 0, 0, rot, t->model, t->a.anim };
  wk_eng_tile_place (pos, rot, b, &a); /* in range: checked above */
  if (wk_eng_tile_cell (&a, e->map->w, e->map->h) < 0)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "position (%g, %g, %g) puts the tile outside the %u×%u grid "
                    "(the loader sorts it into cell (ftol(x − 0.5), ftol(z − "
                    "0.5)): x must lie in (−0.5, %u.5), z in (−0.5, %u.5))",
                    pos[0], pos[1], pos[2], e->map->w, e->map->h, e->map->w,
                    e->map->h);
      wk_eng_edit_error (error, name, tile, t->model);
      return FALSE;
    }
  gint64 old_cell = wk_eng_tile_cell (&t->a, e->map->w, e->map->h);
  gint64 new_cell = wk_eng_tile_cell (&a, e->map->w, e->map->h);
  if (t->swap >= 0 && old_cell >= 0)
    {
      /* a swap entry at the tile's cell moves with it [assumed] */
      WkEngSwap *s = &e->swaps[t->swap];
      if (s->cell_x == old_cell % e->map->w && s->cell_z == old_cell / e->map->w)
        {
          s->cell_x = (guint32) (new_cell % e->map->w);
          s->cell_z = (guint32) (new_cell / e->map->w);
        }
    }
  t->a = a;
  memcpy (t->b, b, sizeof b);
  return TRUE;
}

gboolean
wk_eng_edit_place_tile (WkEngEdit *e, guint tile, const double pos[3],
                        guint32 rot, const char *name, GError **error)
{
  WkEngEditTile *t = wk_eng_edit_live_tile (e, tile, "place_tile", error);
  return t != NULL && place (e, t, tile, pos, rot, name, error);
}

gboolean
wk_eng_edit_delete_tile (WkEngEdit *e, guint tile, const char *name, GError **error)
{
  WkEngEditTile *t = wk_eng_edit_live_tile (e, tile, "delete_tile", error);
  if (t == NULL)
    return FALSE;
  t->deleted = TRUE;
  if (t->swap >= 0)
    g_ptr_array_add (e->warnings, g_strdup_printf (
        "%s%stile %u deleted with its tile swap (a door or bridge: models %u/%u)",
        name ? name : "", name ? ": " : "", tile, e->swaps[t->swap].model_a,
        e->swaps[t->swap].model_b));
  return TRUE;
}

gboolean
wk_eng_edit_add_tile (WkEngEdit *e, guint model, const double pos[3], guint32 rot,
                      const WkEngColors *c, const char *name, guint *tile,
                      GError **error)
{
  if (model >= e->models->len)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "add_tile: model %u does not exist (the edit has %u models)",
                    model, e->models->len);
      wk_error_set_object (error, name);
      return FALSE;
    }
  guint index = e->tiles->len;
  if (index >= G_MAXINT32 - 1)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "too many tiles");
      return FALSE;
    }
  if (!wk_eng_edit_check_colors (c, wk_eng_edit_model_verts (e, model), name,
                                 index, error))
    return FALSE;
  WkEngEditTile t = { { 0, 0, 0, 0, model, 0 }, { 0 }, model, -1, FALSE,
                      G_MAXUINT32, NULL, 1, 0 };
  if (!place (e, &t, index, pos, rot, name, error))
    return FALSE;
  guint nv = wk_eng_edit_model_verts (e, model);
  t.colors = wk_eng_edit_color_block (c, nv, &t.sets);
  t.nv = nv;
  if ((c == NULL || c->data == NULL) && nv > 0)
    g_ptr_array_add (e->warnings, g_strdup_printf (
        "%s%snew tile %u (model %u) has no vertex colours: grey (0x80)",
        name ? name : "", name ? ": " : "", index, model));
  g_array_append_val (e->tiles, t);
  *tile = index;
  return TRUE;
}

/* ---- new meshes (the write path) and texture entries ---- */

gboolean
wk_eng_edit_flat_entry (WkEngEdit *e, const guint8 rgb[3], guint *index,
                        GError **error)
{
  for (guint i = 0; i < wk_eng_tex_fit_size (&e->fit); i++)
    {
      const WkEngTexEntry *x = wk_eng_tex_fit_entry (&e->fit, i);
      if (x != NULL && x->flags == WK_ENG_TEX_FLAT && x->u0 == rgb[0]
          && x->u1 == rgb[1] && x->v0 == rgb[2])
        {
          *index = i;
          return TRUE;
        }
    }
  if (!e->fit.allow_new || wk_eng_tex_fit_size (&e->fit) > G_MAXUINT16)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "no flat-colour entry %02x%02x%02x in the texture table, "
                    "and it cannot grow (not the level's own table, or 65536 "
                    "entries)", rgb[0], rgb[1], rgb[2]);
      return FALSE;
    }
  WkEngTexEntry x;
  wk_eng_tex_flat_entry (rgb, 0, &x);
  *index = wk_eng_tex_fit_add (&e->fit, &x);
  return TRUE;
}

gboolean
wk_eng_edit_add_mesh (WkEngEdit *e, WkEngMeshIn *in, gboolean zones_flat,
                      const char *name, WkEngEditMeshResult *out, GError **error)
{
  in->entries = e->fit.entries;
  in->n_entries = e->fit.n_entries;
  in->fit = &e->fit;
  WkEngTexFitMark mark;
  wk_eng_tex_fit_mark (&e->fit, &mark);
  e->fit.max_error = 0;
  g_autoptr (WkEngImport) imp = wk_eng_import_mesh (in, error);
  if (imp == NULL)
    {
      wk_eng_tex_fit_rollback (&e->fit, &mark);
      wk_error_set_object (error, name);
      return FALSE;
    }
  for (guint k = 0; k < imp->models->len; k++)
    {
      guint32 cx = g_array_index (imp->cell_x, guint32, k);
      guint32 cz = g_array_index (imp->cell_z, guint32, k);
      if (cx >= e->map->w || cz >= e->map->h)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "the mesh reaches cell (%u, %u), outside the level's "
                        "%u×%u grid", cx, cz, e->map->w, e->map->h);
          wk_error_set_object (error, name);
          wk_eng_tex_fit_rollback (&e->fit, &mark);
          return FALSE;
        }
    }
  memset (out, 0, sizeof *out);
  out->first_tile = e->tiles->len;
  out->first_model = e->models->len;
  out->n_tiles = out->n_models = imp->models->len;
  out->dropped_degenerate = imp->dropped_degenerate;
  out->dropped_collision = imp->dropped_coll;
  out->collision_split = imp->coll_split;
  out->uv_inexact = imp->uv_inexact;
  out->uv_nearest = imp->uv_nearest;
  out->uv_fitted = e->fit.fitted - mark.fitted;
  out->uv_max_error = e->fit.max_error;
  e->fit.max_error = MAX (e->fit.max_error, mark.max_error);
  gsize vcol = 0;
  for (guint k = 0; k < imp->models->len; k++)
    {
      WkEngModel *m = g_ptr_array_index (imp->models, k);
      guint32 mi = e->models->len;
      /* already split by cell: its collision needs no spill */
      WkEngEditModel em = { m, TRUE, NULL, g_strdup (name) };
      g_array_append_val (e->models, em);
      guint32 cx = g_array_index (imp->cell_x, guint32, k);
      guint32 cz = g_array_index (imp->cell_z, guint32, k);
      gfloat y = g_array_index (imp->y, gfloat, k);
      WkEngEditTile t = { { 0 }, { 0 }, mi, -1, FALSE, G_MAXUINT32, NULL, 1,
                          m->n_verts };
      /* y is k/16 (the write path's height bands): exact in 20.12 */
      wk_eng_cell_tile (cx, cz, (gint32) lround ((double) y * WK_ENG_FIXED_ONE), mi,
                        &t.a, t.b);
      t.colors = g_bytes_new (imp->colors->data + vcol * 4, (gsize) m->n_verts * 4);
      vcol += m->n_verts;
      g_array_append_val (e->tiles, t);
    }
  g_ptr_array_set_free_func (imp->models, NULL); /* the edit owns them now */
  if (zones_flat)
    e->zones_flat = TRUE;
  return TRUE;
}
