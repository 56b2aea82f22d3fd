/* libFuzzer harness: ENG TRAK payload (csrc/core/eng/eng_trak.c, eng_model.c).
 * parse; on success every face's corners name existing vertices and the
 * collision groups add up; build
 * gives the input back byte for byte, and the rebuild parses again to the
 * same number of models. */
#include <stdint.h>

#include "core/eng/eng_trak.h"
#include "fuzz_util.h"

WK_FUZZ_INITIALIZE

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) models = wk_eng_trak_parse (data, size, 0, &error);
  if (models == NULL)
    {
      wk_fuzz_check_format_error (error, size, "TRAK");
      return 0;
    }
  for (guint i = 0; i < models->len; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, i);
      for (guint f = 0; f < m->n_faces; f++)
        for (int k = 0; k < 3; k++)
          WK_FUZZ_CHECK (m->faces[f].v[k] < m->n_verts,
                         "model %u face %u corner %d: vertex %u of %u", i, f, k,
                         m->faces[f].v[k], m->n_verts);
      WK_FUZZ_CHECK ((guint) m->coll_groups[0] + m->coll_groups[1]
                     + m->coll_groups[2] == m->n_coll, "model %u: groups", i);
    }
  g_autoptr (GBytes) out = wk_eng_trak_build (models, &error);
  WK_FUZZ_CHECK (out != NULL, "build failed: %s", error->message);
  wk_fuzz_check_same_data (data, size, out, "TRAK rebuild");
  gsize n;
  const guint8 *p = g_bytes_get_data (out, &n);
  g_autoptr (GPtrArray) again = wk_eng_trak_parse (p, n, 0, &error);
  WK_FUZZ_CHECK (again != NULL && again->len == models->len,
                 "rebuilt TRAK does not parse back");
  return 0;
}
