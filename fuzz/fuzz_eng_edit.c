/* libFuzzer harness: the ENG edit API (csrc/core/eng/eng_edit*.c). Input:
 * u32 WFPC, u32 n, n bytes of TRAK, u32 m, m bytes of MAP, then bytes read
 * as up to 16 edits (place, delete, add tile, colours, a small new render
 * mesh, small new collision, a small world mesh). Each edit either refuses
 * with a well-formed WK_ERROR (and must leave the edit usable) or lands;
 * the build either refuses (LIMIT/ARGUMENT) or gives TRAK and MAP payloads
 * that parse again with the tile and model counts it reports. */
#include <math.h>
#include <stdint.h>

#include "core/common/wk_reader.h"
#include "core/eng/eng_edit.h"
#include "core/eng/eng_trak.h"
#include "fuzz_util.h"

WK_FUZZ_INITIALIZE

static void
refused (GError *error, const char *what)
{
  WK_FUZZ_CHECK (error != NULL && error->domain == WK_ERROR
                     && error->message && error->message[0],
                 "%s: failure without a WK_ERROR", what);
  g_error_free (error);
}

/* A coordinate in -4..12 (the grids here are small), or one out of range. */
static gfloat
coord (WkFuzzSrc *s)
{
  guint8 b = wk_fuzz_take (s);
  return b == 255 ? 1e7f : (b - 64) / 16.0f;
}

static void
edit_geometry (WkEngEdit *e, WkFuzzSrc *s, guint n_tiles)
{
  guint32 tiles[2] = { wk_fuzz_take (s) % (n_tiles + 1), wk_fuzz_take (s) % (n_tiles + 1) };
  guint nt = 1 + wk_fuzz_take (s) % 2, nv = 3 + wk_fuzz_take (s) % 6, nf = wk_fuzz_take (s) % 9;
  gfloat pos[8 * 3], uv[8 * 6];
  guint32 tri[8 * 3];
  gint32 tex[8];
  guint16 flags[8];
  for (guint i = 0; i < nv * 3; i++)
    pos[i] = coord (s) / 8;
  for (guint f = 0; f < nf; f++)
    {
      for (int k = 0; k < 3; k++)
        tri[3 * f + k] = wk_fuzz_take (s) % (nv + 1);
      for (int k = 0; k < 6; k++)
        uv[6 * f + k] = wk_fuzz_take (s) / 255.0f;
      tex[f] = wk_fuzz_take (s) % 4;
      flags[f] = (guint16) (wk_fuzz_take (s) << 8 | wk_fuzz_take (s));
    }
  guint8 colors[2 * 8 * 4];
  for (guint i = 0; i < sizeof colors; i++)
    colors[i] = wk_fuzz_take (s);
  WkEngColors cols[2] = { { colors, (gsize) nv * 4 * (1 + wk_fuzz_take (s) % 2) },
                          { wk_fuzz_take (s) & 1 ? NULL : colors, (gsize) nv * 4 } };
  WkEngGeomEdit in = { "fuzz", nt, tiles, nv, pos, nf, tri, uv, tex,
                       wk_fuzz_take (s) & 1 ? flags : NULL, cols };
  WkEngEditResult res;
  GError *error = NULL;
  if (!wk_eng_edit_set_geometry (e, &in, &res, &error))
    refused (error, "set_geometry");
  else
    WK_FUZZ_CHECK (res.model < wk_eng_edit_n_models (e), "model %u", res.model);
}

static void
edit_collision (WkEngEdit *e, WkFuzzSrc *s, guint n_tiles)
{
  guint32 tile = wk_fuzz_take (s) % (n_tiles + 1);
  guint nv = 3 + wk_fuzz_take (s) % 6, np_ = wk_fuzz_take (s) % 5;
  gfloat pos[8 * 3];
  gint32 poly[4 * 4];
  guint8 mat[4];
  for (guint i = 0; i < nv * 3; i++)
    pos[i] = coord (s) / 4;
  for (guint p = 0; p < np_; p++)
    {
      for (int k = 0; k < 4; k++)
        poly[4 * p + k] = (gint32) (wk_fuzz_take (s) % (nv + 2)) - 1;
      mat[p] = wk_fuzz_take (s);
    }
  WkEngCollEdit in = { NULL, 1, &tile, nv, pos, np_, poly, mat };
  WkEngEditCollResult res;
  GError *error = NULL;
  if (!wk_eng_edit_set_collision (e, &in, &res, &error))
    refused (error, "set_collision");
}

static void
edit_mesh (WkEngEdit *e, WkFuzzSrc *s)
{
  gfloat pos[6 * 3], uv[4 * 6], col[4 * 12];
  guint32 tri[4 * 3];
  gint32 tex[4];
  guint nv = 3 + wk_fuzz_take (s) % 4, nt = 1 + wk_fuzz_take (s) % 4;
  for (guint i = 0; i < nv * 3; i++)
    pos[i] = coord (s);
  for (guint t = 0; t < nt; t++)
    {
      for (int k = 0; k < 3; k++)
        tri[3 * t + k] = wk_fuzz_take (s) % nv;
      for (int k = 0; k < 6; k++)
        uv[6 * t + k] = wk_fuzz_take (s) / 255.0f;
      for (int k = 0; k < 12; k++)
        col[12 * t + k] = wk_fuzz_take (s) / 128.0f;
      tex[t] = wk_fuzz_take (s) % 4;
    }
  WkEngMeshIn in = { nv, pos, nt, tri, uv, tex, col, NULL, 0, NULL, 0, NULL, NULL };
  WkEngEditMeshResult res;
  GError *error = NULL;
  if (!wk_eng_edit_add_mesh (e, &in, wk_fuzz_take (s) & 1, "mesh", &res, &error))
    refused (error, "add_mesh");
}

static void
check_build (const WkEngEdit *e, guint32 wfpc)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WkEngEditOut) out = wk_eng_edit_build (e, &error);
  if (out == NULL)
    {
      WK_FUZZ_CHECK (error->domain == WK_ERROR && error->code != WK_ERROR_FORMAT,
                     "build: %s", error->message);
      return;
    }
  g_autoptr (GPtrArray) models = wk_eng_trak_parse_bytes (out->trak, 0, &error);
  WK_FUZZ_CHECK (models != NULL, "built TRAK does not parse: %s", error->message);
  WK_FUZZ_CHECK (models->len == out->n_models, "%u models, built %u", models->len,
                 out->n_models);
  g_autoptr (WkEngMap) map = wk_eng_map_parse_bytes (out->map, 0, wfpc, models, &error);
  WK_FUZZ_CHECK (map != NULL, "built MAP does not parse: %s", error->message);
  WK_FUZZ_CHECK (map->n == out->n_tiles, "%u tiles, built %u", map->n, out->n_tiles);
  for (guint i = 0; i < out->tile_index->len; i++)
    WK_FUZZ_CHECK (g_array_index (out->tile_index, gint32, i) < (gint32) map->n,
                   "tile index");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 12)
    return 0;
  guint32 wfpc = wk_le32 (data), trak_size = wk_le32 (data + 4);
  if (trak_size > size - 12)
    return 0;
  guint32 map_size = wk_le32 (data + 8 + trak_size);
  if (map_size > size - 12 - trak_size)
    return 0;
  const guint8 *trak_p = data + 8, *map_p = data + 12 + trak_size;
  WkFuzzSrc ops = { map_p + map_size, size - 12 - trak_size - map_size };
  /* g_bytes_new copies: the parse views its own aligned copy */
  g_autoptr (GBytes) trak = g_bytes_new (trak_p, trak_size);
  g_autoptr (GBytes) map = g_bytes_new (map_p, map_size);
  static const WkEngTexEntry table[4] = {
    { 0, 0, -1, 0, 63, 0, 63 }, { 0, 1, -1, 64, 127, 0, 63 },
    { WK_ENG_TEX_FLAT, 0, -1, 200, 100, 50, 255 }, { 0x2000, 2, -1, 0, 255, 0, 255 },
  };
  g_autoptr (GError) error = NULL;
  g_autoptr (WkEngEdit) e = wk_eng_edit_new (trak, 0, map, 0, wfpc, table, 4,
                                             wk_fuzz_take (&ops) & 1, &error);
  if (e == NULL)
    {
      WK_FUZZ_CHECK (error->domain == WK_ERROR && error->code == WK_ERROR_FORMAT,
                     "edit_new: %s", error->message);
      return 0;
    }
  for (int k = 0; k < 16 && ops.n > 0; k++)
    {
      guint n_tiles = wk_eng_edit_n_tiles (e);
      guint op = wk_fuzz_take (&ops) % 8;
      guint32 tile = wk_fuzz_take (&ops) % (n_tiles + 1);
      double pos[3] = { coord (&ops), coord (&ops), coord (&ops) };
      guint32 rot = (guint32) (wk_fuzz_take (&ops) << 5);
      GError *err = NULL;
      gboolean ok = TRUE;
      guint added;
      guint8 c[64];
      for (guint i = 0; i < sizeof c; i++)
        c[i] = wk_fuzz_take (&ops);
      WkEngColors colors = { c, (gsize) (wk_fuzz_take (&ops) % 65) };
      switch (op)
        {
        case 0: ok = wk_eng_edit_place_tile (e, tile, pos, rot, "t", &err); break;
        case 1: ok = wk_eng_edit_delete_tile (e, tile, NULL, &err); break;
        case 2:
          ok = wk_eng_edit_add_tile (e, wk_fuzz_take (&ops) % (wk_eng_edit_n_models (e) + 1),
                                     pos, rot, wk_fuzz_take (&ops) & 1 ? &colors : NULL,
                                     "a", &added, &err);
          break;
        case 3: ok = wk_eng_edit_set_colors (e, tile, &colors, NULL, &err); break;
        case 4: edit_geometry (e, &ops, n_tiles); break;
        case 5: edit_collision (e, &ops, n_tiles); break;
        case 6: edit_mesh (e, &ops); break;
        default: check_build (e, wfpc); break;
        }
      if (!ok)
        refused (err, "tile edit");
    }
  check_build (e, wfpc);
  return 0;
}
