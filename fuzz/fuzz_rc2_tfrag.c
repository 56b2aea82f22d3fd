/* libFuzzer harness: RC2 tfrag block walk (csrc/core/rc2/tfrag.c, vif.c).
 * parse at each LOD with 4 textures; on success every triangle names
 * existing vertices, every texture index is below the texture count (or
 * -1), the patches' triangle counts add up to the measured count and the
 * patch indices are
 * valid; the fill (phase 2) writes exactly the measured arrays (ASan). (No write-back here: the writer takes strips with per-vertex
 * UVs, not the parsed triangles.) */
#include <stdint.h>

#include "fuzz_util.h"
#include "fuzz_tfrag.h"

WK_FUZZ_INITIALIZE

static void
check (const WkTfrags *t, gint textures)
{
  WkFuzzTfrag f;
  wk_fuzz_tfrag_fill (t, &f);
  for (gsize i = 0; i < f.nt; i++)
    for (int k = 0; k < 3; k++)
      WK_FUZZ_CHECK (f.out.triangles[3 * i + k] < f.nv,
                     "triangle %zu corner %d: vertex %u of %zu", i, k,
                     f.out.triangles[3 * i + k], f.nv);
  gsize sum = 0;
  for (guint i = 0; i < t->patches->len; i++)
    sum += g_array_index (t->patches, WkTfragPatch, i).lod_tris[t->lod];
  WK_FUZZ_CHECK (sum == f.nt, "patch triangle counts %zu vs %zu triangles", sum, f.nt);
  for (gsize i = 0; i < f.nt; i++)
    {
      WK_FUZZ_CHECK (f.out.texture[i] >= -1 && f.out.texture[i] < textures,
                     "texture %d", f.out.texture[i]);
      WK_FUZZ_CHECK (f.out.patch[i] >= 0 && (guint) f.out.patch[i] < t->patches->len,
                     "patch %d", f.out.patch[i]);
    }
  wk_fuzz_tfrag_clear (&f);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  for (guint lod = 0; lod < 3; lod++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (WkTfrags) t = wk_tfrags_parse (data, size, 0, lod, 4, &error);
      if (t == NULL)
        {
          wk_fuzz_check_format_error (error, size, "");
          return 0;
        }
      check (t, 4);
    }
  return 0;
}
