/* libFuzzer harness: RC2 tfrag block walk (csrc/core/rc2/tfrag.c, vif.c).
 * parse at each LOD with 4 textures; on success every triangle names
 * existing vertices, every texture index is below the texture count (or
 * -1), the per-triangle arrays match the triangle count, each patch's
 * decoded triangle count matches its header and the patch indices are
 * valid. (No write-back here: the writer takes strips with per-vertex
 * UVs, not the parsed triangles.) */
#include <stdint.h>

#include "core/rc2/tfrag.h"
#include "fuzz_util.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  wk_fuzz_init ();
  return 0;
}

static void
check (const WkTfrags *t, gint textures)
{
  guint nv = t->positions->len, nt = t->tris->len;
  for (guint i = 0; i < nt; i++)
    for (int k = 0; k < 3; k++)
      WK_FUZZ_CHECK (((const guint32 *) t->tris->data)[3 * i + k] < nv,
                     "triangle %u corner %d: vertex %u of %u", i, k,
                     ((const guint32 *) t->tris->data)[3 * i + k], nv);
  WK_FUZZ_CHECK (t->texture->len == nt && t->patch->len == nt && t->uv->len == nt
                 && t->color->len == nt, "per-triangle arrays");
  guint sum = 0;
  for (guint i = 0; i < t->patches->len; i++)
    sum += g_array_index (t->patches, WkTfragPatch, i).lod_tris[t->lod];
  WK_FUZZ_CHECK (sum == nt, "patch triangle counts %u vs %u triangles", sum, nt);
  for (guint i = 0; i < nt; i++)
    {
      gint32 tex = g_array_index (t->texture, gint32, i);
      gint32 patch = g_array_index (t->patch, gint32, i);
      WK_FUZZ_CHECK (tex >= -1 && tex < textures, "texture %d", tex);
      WK_FUZZ_CHECK (patch >= 0 && (guint) patch < t->patches->len, "patch %d", patch);
    }
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
