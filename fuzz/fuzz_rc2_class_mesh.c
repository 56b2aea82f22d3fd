/* libFuzzer harness: RC2 class meshes (csrc/core/rc2/tie.c, shrub.c,
 * moby_mesh.c, class_mesh.c). Byte 0 picks the kind (% 3: tie, shrub,
 * moby) and the LOD (/ 3); the rest is the class. A failure must be a
 * FORMAT error inside the input; on success every triangle names existing
 * vertices, textures are in range (tie: below the ad-gif count; shrub:
 * 0..15; moby: -1..15), positions and UVs are finite, normals unit length,
 * and the fill writes exactly the measured arrays (ASan). No writer yet:
 * no round trip. */
#include <math.h>
#include <stdint.h>

#include "fuzz_util.h"
#include "core/rc2/moby_mesh.h"
#include "core/rc2/shrub.h"
#include "core/rc2/tie.h"

WK_FUZZ_INITIALIZE

static void
check (const WkClassMesh *m, gint lo, gint hi)
{
  gsize nv = wk_class_mesh_vertices (m), nt = wk_class_mesh_triangles (m);
  WkClassMeshOut out = {
    g_new (gfloat, 3 * nv + 1), g_new (gfloat, 2 * nv + 1),
    m->has_normals ? g_new (gfloat, 3 * nv + 1) : NULL,
    g_new (guint32, 3 * nt + 1), g_new (gint32, nt + 1),
  };
  wk_class_mesh_fill (m, &out);
  for (gsize i = 0; i < 3 * nt; i++)
    WK_FUZZ_CHECK (out.triangles[i] < nv, "corner %zu: vertex %u of %zu", i,
                   out.triangles[i], nv);
  for (gsize i = 0; i < nt; i++)
    WK_FUZZ_CHECK (out.texture[i] >= lo && out.texture[i] <= hi,
                   "texture %d outside %d..%d", out.texture[i], lo, hi);
  for (gsize i = 0; i < nv; i++)
    {
      for (int a = 0; a < 3; a++)
        WK_FUZZ_CHECK (isfinite (out.positions[3 * i + a]), "position %zu", i);
      for (int a = 0; a < 2; a++)
        WK_FUZZ_CHECK (isfinite (out.uv[2 * i + a]), "uv %zu", i);
      if (out.normals)
        {
          const gfloat *n = out.normals + 3 * i;
          gfloat len = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
          /* shrub normals are whatever the class's table holds */
          WK_FUZZ_CHECK (isfinite (len) && len <= 3.01f, "normal %zu: %g", i, len);
        }
    }
  g_free (out.positions);
  g_free (out.uv);
  g_free (out.normals);
  g_free (out.triangles);
  g_free (out.texture);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  guint kind = data[0] % 3, lod = (data[0] / 3) % 3;
  data++;
  size--;
  g_autoptr (GError) error = NULL;
  g_autoptr (WkClassMesh) m = NULL;
  gint lo = 0, hi = 15;
  if (kind == 0)
    {
      WkTieInfo info;
      m = wk_tie_mesh_parse (data, size, 0, lod, &info, &error);
      if (m)
        hi = (gint) info.texture_count - 1;
    }
  else if (kind == 1)
    m = wk_shrub_mesh_parse (data, size, 0, NULL, &error);
  else
    {
      WkMobyInfo info;
      m = wk_moby_mesh_parse (data, size, 0, lod % 2, &info, &error);
      lo = -1;
    }
  if (m == NULL)
    {
      wk_fuzz_check_format_error (error, size, "");
      return 0;
    }
  check (m, lo, hi);
  return 0;
}
