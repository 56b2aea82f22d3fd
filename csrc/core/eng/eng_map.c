#include "eng_map.h"

#include <math.h>
#include <stdlib.h>

void
wk_eng_map_free (WkEngMap *m)
{
  if (m == NULL)
    return;
  g_free (m->a);
  g_clear_pointer (&m->lists, g_bytes_unref);
  g_free (m->zone_grid);
  g_free (m->b);
  g_free (m->model);
  g_free (m->swaps);
  g_free (m->swap_of_tile);
  if (m->backing != NULL)
    g_bytes_unref (m->backing);
  else
    g_free (m->colors);
  g_free (m->col_start);
  g_free (m->col_sets);
  g_free (m->colb_start);
  g_free (m->colb_sets);
  g_clear_pointer (&m->rest, g_bytes_unref);
  g_free (m->cell);
  g_clear_pointer (&m->warnings, g_ptr_array_unref);
  g_free (m);
}

gint64
wk_eng_tile_cell (const WkEngTileA *a, guint32 w, guint32 h)
{
  gfloat fx = a->x - 0.5f, fz = a->z + 0.5f;
  if (!(fx > -1.0f && fx < (gfloat) w && fz < 1.0f && fz > -(gfloat) h))
    return -1; /* also NaN */
  gint64 cx = (gint64) fx, cz = -(gint64) fz;
  if (cx < 0 || cx >= w || cz < 0 || cz >= h)
    return -1;
  return cx + cz * (gint64) w;
}

static gboolean
skip_list (WkReader *r, gsize elem, const char *what, GError **error)
{
  guint32 n;
  if (!wk_read_u32 (r, &n, what, error) || !wk_reader_need (r, n, elem, what, error))
    return FALSE;
  r->pos += (gsize) n * elem;
  return TRUE;
}

/* One colour block (all sets) of a model with nv vertices at r. */
static gboolean
read_colors (WkReader *r, guint nv, gsize region, guint32 *start, guint32 *sets,
             GError **error)
{
  *start = (guint32) ((r->pos - region) / 4);
  *sets = 1;
  if (nv == 0)
    return TRUE;
  if (!wk_reader_need (r, nv, 4, "vertex colours", error))
    return FALSE;
  *sets = wk_eng_color_sets (wk_reader_ptr (r)[3]);
  if (!wk_reader_need (r, (guint64) nv * *sets, 4, "vertex colour sets", error))
    return FALSE;
  r->pos += (gsize) nv * *sets * 4;
  return TRUE;
}

static void
check_a_against_b (WkEngMap *m)
{
  guint bad_pos = 0, bad_rot = 0, bad_model = 0;
  gint64 first_pos = -1, first_rot = -1, first_model = -1;
  for (guint32 i = 0; i < m->n; i++)
    {
      const WkEngTileA *a = &m->a[i];
      const gint32 *b = m->b[i];
      double d = fabs ((double) a->x * 4096 - b[3]);
      d = fmax (d, fabs ((double) a->y * 4096 - b[4]));
      d = fmax (d, fabs (-(double) a->z * 4096 - b[5]));
      if (!(d <= 1.0))
        {
          bad_pos++;
          if (first_pos < 0) first_pos = i;
        }
      if (a->rot != (guint32) b[1])
        {
          bad_rot++;
          if (first_rot < 0) first_rot = i;
        }
      if (a->model != m->model[i])
        {
          bad_model++;
          if (first_model < 0) first_model = i;
        }
    }
  if (bad_pos)
    g_ptr_array_add (m->warnings, g_strdup_printf (
        "MAP: %u tiles whose float position (A) and fixed-point position (B) "
        "differ by more than 1/4096 (first: tile %" G_GINT64_FORMAT "); B is used",
        bad_pos, first_pos));
  if (bad_rot)
    g_ptr_array_add (m->warnings, g_strdup_printf (
        "MAP: %u tiles whose A rotation differs from B ry (first: tile %"
        G_GINT64_FORMAT "); B is used", bad_rot, first_rot));
  if (bad_model)
    g_ptr_array_add (m->warnings, g_strdup_printf (
        "MAP: %u tiles whose A model differs from the model index array "
        "(first: tile %" G_GINT64_FORMAT "); the index array is used",
        bad_model, first_model));
}

/* A part of the payload: a slice of backing, or a copy without one. */
static GBytes *
part_bytes (const guint8 *data, GBytes *backing, gsize at, gsize n)
{
  return backing != NULL ? g_bytes_new_from_bytes (backing, at, n)
                         : g_bytes_new (data + at, n);
}

WkEngMap *
wk_eng_map_parse (const guint8 *data, gsize size, gint64 base, guint32 wfpc,
                  const GPtrArray *models, GError **error)
{
  return wk_eng_map_parse_in (data, size, NULL, base, wfpc, models, error);
}

WkEngMap *
wk_eng_map_parse_bytes (GBytes *bytes, gint64 base, guint32 wfpc,
                        const GPtrArray *models, GError **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  return wk_eng_map_parse_in (data, size, bytes, base, wfpc, models, error);
}

WkEngMap *
wk_eng_map_parse_in (const guint8 *data, gsize size, GBytes *backing,
                     gint64 base, guint32 wfpc, const GPtrArray *models,
                     GError **error)
{
  g_autoptr (WkEngMap) m = g_new0 (WkEngMap, 1);
  m->warnings = g_ptr_array_new_with_free_func (g_free);
  m->has_swaps = (wfpc & WK_ENG_WFPC_SWAPS) != 0;
  WkReader r;
  wk_reader_init (&r, data, size, base);
  if (!wk_read_u32 (&r, &m->n, "tile count", error)
      || !wk_read_u32 (&r, &m->w, "grid width", error)
      || !wk_read_u32 (&r, &m->h, "grid height", error)
      || !wk_reader_need (&r, m->n, sizeof (WkEngTileA), "tile (A)", error))
    goto fail;
  guint32 n = m->n;
  m->a = g_new (WkEngTileA, n + 1);
  m->cell = g_new (gint32, n + 1);
  for (guint32 i = 0; i < n; i++)
    {
      const guint8 *p = wk_reader_ptr (&r);
      WkEngTileA *a = &m->a[i];
      a->x = wk_lef32 (p);
      a->y = wk_lef32 (p + 4);
      a->z = wk_lef32 (p + 8);
      a->rot = wk_le32 (p + 12);
      a->model = wk_le32 (p + 16);
      a->anim = wk_le32 (p + 20);
      gint64 cell = wk_eng_tile_cell (a, m->w, m->h);
      if (cell < 0)
        {
          wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (&r),
                        "position (%g, %g, %g) lies outside the %u×%u grid",
                        a->x, a->y, a->z, m->w, m->h);
          wk_error_prefix (error, "tile %u", i);
          wk_error_locate (error, i, -1, -1);
          goto fail;
        }
      m->cell[i] = (gint32) cell;
      r.pos += sizeof (WkEngTileA);
    }

  gsize lists_at = r.pos;
  if (!skip_list (&r, 4, "strat list", error)
      || !skip_list (&r, 90, "90-byte records", error)
      || !skip_list (&r, 34, "path nodes", error))
    goto fail;
  m->lists = part_bytes (data, backing, lists_at, r.pos - lists_at);

  const guint8 *p;
  if (!wk_reader_bytes (&r, sizeof m->zone_table, &p, "zone table", error))
    goto fail;
  for (int k = 0; k < WK_ENG_ZONES * 2; k++)
    m->zone_table[k] = wk_le32 (p + 4 * k);
  guint64 cells = (guint64) m->w * m->h;
  if (!wk_reader_need (&r, cells, 4, "zone grid cell", error))
    goto fail;
  m->zone_grid = g_new (guint32, cells + 1);
  guint bad_zones = 0;
  for (guint64 c = 0; c < cells; c++)
    {
      m->zone_grid[c] = wk_le32 (wk_reader_ptr (&r) + 4 * c);
      bad_zones += m->zone_grid[c] >= WK_ENG_ZONES;
    }
  if (bad_zones)
    g_ptr_array_add (m->warnings, g_strdup_printf (
        "MAP: %u grid cells name a zone ≥ 32 (kept)", bad_zones));
  r.pos += (gsize) cells * 4;

  if (!wk_reader_need (&r, n, 24, "tile (B)", error))
    goto fail;
  m->b = g_malloc_n ((gsize) n + 1, sizeof *m->b);
  for (guint32 i = 0; i < n; i++)
    for (int k = 0; k < 6; k++)
      m->b[i][k] = wk_les32 (wk_reader_ptr (&r) + 24 * (gsize) i + 4 * k);
  r.pos += (gsize) n * 24;

  if (!wk_reader_need (&r, n, 4, "tile model index", error))
    goto fail;
  m->model = g_new (guint32, n + 1);
  for (guint32 i = 0; i < n; i++)
    {
      m->model[i] = wk_le32 (wk_reader_ptr (&r));
      if (m->model[i] >= models->len)
        {
          wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (&r),
                        "model index %u, TRAK has %u models", m->model[i],
                        models->len);
          wk_error_prefix (error, "tile %u", i);
          wk_error_locate (error, i, -1, -1);
          goto fail;
        }
      r.pos += 4;
    }
  check_a_against_b (m);

  m->swap_of_tile = g_new (gint32, n + 1);
  for (guint32 i = 0; i < n; i++)
    m->swap_of_tile[i] = -1;
  if (m->has_swaps)
    {
      if (!wk_read_u32 (&r, &m->n_swaps, "tile swap count", error)
          || !wk_reader_need (&r, m->n_swaps, 20, "tile swap", error))
        goto fail;
      m->swaps = g_new (WkEngSwap, m->n_swaps + 1);
      for (guint32 k = 0; k < m->n_swaps; k++)
        {
          const guint8 *q = wk_reader_ptr (&r);
          WkEngSwap *s = &m->swaps[k];
          s->cell_x = wk_le32 (q);
          s->y = wk_le32 (q + 4);
          s->cell_z = wk_le32 (q + 8);
          s->model_a = wk_le32 (q + 12);
          s->model_b = wk_le32 (q + 16);
          if (s->model_a >= models->len || s->model_b >= models->len)
            {
              wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (&r),
                            "models %u/%u, TRAK has %u models", s->model_a,
                            s->model_b, models->len);
              wk_error_prefix (error, "tile swap %u", k);
              goto fail;
            }
          r.pos += 20;
        }
      guint32 k = 0;
      for (guint32 i = 0; i < n && k < m->n_swaps; i++)
        if (m->a[i].anim != 0)
          m->swap_of_tile[i] = (gint32) k++;
      if (k < m->n_swaps)
        g_ptr_array_add (m->warnings, g_strdup_printf (
            "MAP: %u tile swap entries but only %u tiles with the anim flag",
            m->n_swaps, k));
    }

  gsize region = r.pos;
  m->col_start = g_new (guint32, n + 1);
  m->col_sets = g_new (guint32, n + 1);
  m->colb_start = g_new (guint32, n + 1);
  m->colb_sets = g_new (guint32, n + 1);
  for (guint32 i = 0; i < n; i++)
    {
      const WkEngModel *mod = g_ptr_array_index (models, m->model[i]);
      if (!read_colors (&r, mod->n_verts, region, &m->col_start[i],
                        &m->col_sets[i], error))
        {
          wk_error_prefix (error, "tile %u (model %u)", i, m->model[i]);
          wk_error_locate (error, i, m->model[i], -1);
          goto fail;
        }
      m->colb_start[i] = (guint32) ((r.pos - region) / 4);
      m->colb_sets[i] = 0;
      if (m->swap_of_tile[i] >= 0)
        {
          guint32 mb = m->swaps[m->swap_of_tile[i]].model_b;
          const WkEngModel *modb = g_ptr_array_index (models, mb);
          if (!read_colors (&r, modb->n_verts, region, &m->colb_start[i],
                            &m->colb_sets[i], error))
            {
              wk_error_prefix (error, "tile %u (swap model %u)", i, mb);
              wk_error_locate (error, i, mb, -1);
              goto fail;
            }
        }
    }
  m->n_colors = (guint32) ((r.pos - region) / 4);
  if (backing != NULL)
    {
      m->colors = (guint8 *) data + region; /* read-only view */
      m->backing = g_bytes_ref (backing);
    }
  else
    {
      m->colors = g_malloc0 (r.pos - region + 1);
      memcpy (m->colors, data + region, r.pos - region);
    }
  m->rest = part_bytes (data, backing, r.pos, size - r.pos);
  return g_steal_pointer (&m);

fail:
  wk_error_prefix (error, "MAP");
  return NULL;
}

static gboolean
write_colors (const WkEngMap *m, guint32 tile, guint32 start, guint32 sets,
              guint nv, GByteArray *out, GError **error)
{
  if (nv == 0)
    return TRUE;
  guint64 count = (guint64) sets * nv;
  if (start > m->n_colors || count > m->n_colors - start
      || wk_eng_color_sets (m->colors[4 * (gsize) start + 3]) != sets)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "tile %u: colour block (entry %u, %u sets × %u vertices) "
                    "does not match the colours held (%u entries)", tile,
                    start, sets, nv, m->n_colors);
      return FALSE;
    }
  wk_put_bytes (out, m->colors + 4 * (gsize) start, (gsize) count * 4);
  return TRUE;
}

GBytes *
wk_eng_map_build (const WkEngMap *m, const GPtrArray *models, GError **error)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();
  wk_put_u32 (out, m->n);
  wk_put_u32 (out, m->w);
  wk_put_u32 (out, m->h);
  for (guint32 i = 0; i < m->n; i++)
    {
      const WkEngTileA *a = &m->a[i];
      wk_put_f32 (out, a->x);
      wk_put_f32 (out, a->y);
      wk_put_f32 (out, a->z);
      wk_put_u32 (out, a->rot);
      wk_put_u32 (out, a->model);
      wk_put_u32 (out, a->anim);
    }
  gsize n_lists;
  const guint8 *lists = g_bytes_get_data (m->lists, &n_lists);
  wk_put_bytes (out, lists, n_lists);
  for (int k = 0; k < WK_ENG_ZONES * 2; k++)
    wk_put_u32 (out, m->zone_table[k]);
  for (guint64 c = 0; c < (guint64) m->w * m->h; c++)
    wk_put_u32 (out, m->zone_grid[c]);
  for (guint32 i = 0; i < m->n; i++)
    for (int k = 0; k < 6; k++)
      wk_put_u32 (out, (guint32) m->b[i][k]);
  for (guint32 i = 0; i < m->n; i++)
    {
      if (m->model[i] >= models->len)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                        "tile %u: model %u, TRAK has %u", i, m->model[i],
                        models->len);
          return NULL;
        }
      wk_put_u32 (out, m->model[i]);
    }
  if (m->has_swaps)
    {
      wk_put_u32 (out, m->n_swaps);
      for (guint32 k = 0; k < m->n_swaps; k++)
        {
          const WkEngSwap *s = &m->swaps[k];
          wk_put_u32 (out, s->cell_x);
          wk_put_u32 (out, s->y);
          wk_put_u32 (out, s->cell_z);
          wk_put_u32 (out, s->model_a);
          wk_put_u32 (out, s->model_b);
        }
    }
  for (guint32 i = 0; i < m->n; i++)
    {
      const WkEngModel *mod = g_ptr_array_index (models, m->model[i]);
      if (!write_colors (m, i, m->col_start[i], m->col_sets[i], mod->n_verts,
                         out, error))
        return NULL;
      if (m->swap_of_tile[i] >= 0)
        {
          const WkEngSwap *s = &m->swaps[m->swap_of_tile[i]];
          if (s->model_b >= models->len)
            {
              wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                            "tile %u: swap model %u, TRAK has %u", i,
                            s->model_b, models->len);
              return NULL;
            }
          const WkEngModel *modb = g_ptr_array_index (models, s->model_b);
          if (!write_colors (m, i, m->colb_start[i], m->colb_sets[i],
                             modb->n_verts, out, error))
            return NULL;
        }
    }
  gsize n_rest;
  const guint8 *rest = g_bytes_get_data (m->rest, &n_rest);
  wk_put_bytes (out, rest, n_rest);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}
