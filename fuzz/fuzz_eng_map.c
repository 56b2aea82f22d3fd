/* libFuzzer harness: ENG MAP tile part (csrc/core/eng/eng_map.c) with the
 * floor test (eng_floor.c) and the world mesh (eng_world.c) on what was
 * parsed. Input: u32 WFPC flags, u32 n, n bytes of TRAK payload (the models
 * the MAP's colour blocks are counted against), then the MAP payload.
 * MAP parse; on success build gives the payload back byte for byte; the
 * floor world built from the tiles and the models' collision records
 * either refuses (FORMAT/ARGUMENT) or answers probes with hits that name
 * existing tiles and polygons; the world mesh of a small level fills. */
#include <stdint.h>

#include "core/common/wk_reader.h"
#include "core/eng/eng_floor.h"
#include "core/eng/eng_map.h"
#include "core/eng/eng_trak.h"
#include "core/eng/eng_world.h"
#include "fuzz_util.h"

WK_FUZZ_INITIALIZE

static void
floor_checks (const WkEngMap *m, const GPtrArray *models)
{
  guint n_models = models->len;
  g_autofree const guint8 **coll = g_new0 (const guint8 *, n_models + 1);
  g_autofree gsize *coll_size = g_new0 (gsize, n_models + 1);
  for (guint i = 0; i < n_models; i++)
    {
      const WkEngModel *md = g_ptr_array_index (models, i);
      coll[i] = md->coll;
      coll_size[i] = (gsize) md->n_coll * 32;
    }
  g_autofree gfloat *a = g_new (gfloat, (gsize) m->n * 3 + 1);
  for (guint i = 0; i < m->n; i++)
    {
      a[3 * i] = m->a[i].x;
      a[3 * i + 1] = m->a[i].y;
      a[3 * i + 2] = m->a[i].z;
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (WkEngFloorWorld) world = wk_eng_floor_world_new (
      m->w, m->h, m->n, a, (const gint32 *) m->b, m->model, n_models, coll,
      coll_size, &error);
  if (world == NULL)
    {
      WK_FUZZ_CHECK (error->domain == WK_ERROR && (error->code == WK_ERROR_FORMAT
                                                   || error->code == WK_ERROR_ARGUMENT),
                     "floor world: %s", error->message);
      return;
    }
  g_autoptr (GArray) cands = g_array_new (FALSE, FALSE, sizeof (WkEngFloorCandidate));
  for (guint i = 0; i < m->n && i < 16; i++)
    {
      WkEngFloorProbe probe;
      wk_eng_floor_probe_init (&probe, m->b[i][3],
                               (gint32) ((guint32) m->b[i][4] + 0x800), m->b[i][5]);
      probe.flags = i & 1 ? WK_ENG_FLOOR_FLAG_MAT12 | WK_ENG_FLOOR_FLAG_DOWN : 0;
      WkEngFloorHit hit;
      g_array_set_size (cands, 0);
      wk_eng_floor_test (world, &probe, &hit, cands);
      if (hit.source == WK_ENG_FLOOR_NONE)
        continue;
      WK_FUZZ_CHECK (hit.tile < m->n, "hit tile %u of %u", hit.tile, m->n);
      const WkEngModel *md = g_ptr_array_index (models, m->model[hit.tile]);
      WK_FUZZ_CHECK (hit.polygon < md->n_coll, "hit polygon %u of %u",
                     hit.polygon, md->n_coll);
      guint chosen = 0;
      for (guint k = 0; k < cands->len; k++)
        chosen += g_array_index (cands, WkEngFloorCandidate, k).chosen;
      WK_FUZZ_CHECK (chosen == 1, "%u candidates chosen", chosen);
    }
  if (m->n <= 64)
    {
      g_autoptr (GArray) needles = wk_eng_floor_needles (world);
      for (guint k = 0; k < needles->len; k++)
        WK_FUZZ_CHECK (g_array_index (needles, WkEngNeedle, k).tile < m->n, "needle tile");
    }
}

static void
mesh_checks (const WkEngMap *m, const GPtrArray *models)
{
  gsize nv, nt;
  g_autoptr (GError) size_error = NULL;
  if (!wk_eng_world_mesh_size (models, m, &nv, &nt, &size_error))
    {
      WK_FUZZ_CHECK (size_error->domain == WK_ERROR, "mesh size: %s",
                     size_error->message);
      return;
    }
  if (nv > 65536 || nt > 65536)
    return;
  WkEngMeshOut out = {
    .positions = g_new (gfloat, nv * 3 + 1), .triangles = g_new (guint32, nt * 3 + 1),
    .uv = g_new (gfloat, nt * 6 + 1), .color = g_new (gfloat, nt * 12 + 1),
    .texture = g_new (gint32, nt + 1), .page = g_new (gint32, nt + 1),
    .face_flags = g_new (guint16, nt + 1), .tile = g_new (gint32, nt + 1),
  };
  g_autoptr (GError) error = NULL;
  if (wk_eng_world_mesh_fill (models, m, NULL, 0, WK_ENG_SPACE_FILE, 1, &out, &error))
    for (gsize t = 0; t < nt * 3; t++)
      WK_FUZZ_CHECK (out.triangles[t] < nv, "triangle corner %u of %zu vertices",
                     out.triangles[t], nv);
  else
    WK_FUZZ_CHECK (error->domain == WK_ERROR, "mesh: %s", error->message);
  g_free (out.positions); g_free (out.triangles); g_free (out.uv); g_free (out.color);
  g_free (out.texture); g_free (out.page); g_free (out.face_flags); g_free (out.tile);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 8)
    return 0;
  guint32 wfpc = wk_le32 (data), trak_size = wk_le32 (data + 4);
  if (trak_size > size - 8)
    return 0;
  const guint8 *map = data + 8 + trak_size;
  gsize map_size = size - 8 - trak_size;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) models = wk_eng_trak_parse (data + 8, trak_size, 0, &error);
  if (models == NULL)
    return 0;
  g_autoptr (WkEngMap) m = wk_eng_map_parse (map, map_size, 0, wfpc, models, &error);
  if (m == NULL)
    {
      wk_fuzz_check_format_error (error, map_size, "MAP");
      return 0;
    }
  for (guint i = 0; i < m->n; i++)
    WK_FUZZ_CHECK (m->model[i] < models->len, "tile %u: model %u of %u", i,
                   m->model[i], models->len);
  g_autoptr (GBytes) out = wk_eng_map_build (m, models, &error);
  WK_FUZZ_CHECK (out != NULL, "MAP build failed: %s", error->message);
  wk_fuzz_check_same_data (map, map_size, out, "MAP rebuild");
  floor_checks (m, models);
  mesh_checks (m, models);
  return 0;
}
