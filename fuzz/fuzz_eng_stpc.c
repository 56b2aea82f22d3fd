/* libFuzzer harness: ENG STPC payload (csrc/core/eng/eng_stpc.c).
 * parse; on success each animation lies inside the payload in order, the
 * frame offsets stay inside its block, build gives the input back byte for
 * byte, and the rebuild parses again to the same models and animations. */
#include <stdint.h>

#include "core/eng/eng_stpc.h"
#include "fuzz_util.h"

WK_FUZZ_INITIALIZE

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WkEngStpc) s = wk_eng_stpc_parse (data, size, 0, &error);
  if (s == NULL)
    {
      wk_fuzz_check_format_error (error, size, "STPC");
      return 0;
    }
  gsize prev_end = s->anims_start + 4;
  for (guint i = 0; i < s->anims->len; i++)
    {
      const WkEngAnim *a = &g_array_index (s->anims, WkEngAnim, i);
      WK_FUZZ_CHECK (a->offset == prev_end && a->offset + a->size <= size,
                     "animation %u at %zu+%zu (previous end %zu, payload %zu)",
                     i, a->offset, a->size, prev_end, size);
      /* frames can be empty (no deltas, no bones): check the first few
       * and the last one, not up to 2^32 of them */
      for (guint64 k = 0; k < MIN (a->n_frames, 64u) + (a->n_frames > 64); k++)
        {
          guint32 f = k < 64 ? (guint32) k : a->n_frames - 1;
          WK_FUZZ_CHECK (wk_eng_anim_frame_offset (a, f) + wk_eng_anim_delta_size (a, f)
                         + (gsize) a->n_bones * 64 <= a->offset + a->size,
                         "animation %u frame %u runs past its block", i, f);
        }
      prev_end = a->offset + a->size;
    }
  WK_FUZZ_CHECK (s->anims_end == prev_end && s->anims_end <= size, "anims_end");
  g_autoptr (GBytes) out = wk_eng_stpc_build (s, &error);
  WK_FUZZ_CHECK (out != NULL, "build failed: %s", error->message);
  wk_fuzz_check_same_data (data, size, out, "STPC rebuild");
  gsize n;
  const guint8 *p = g_bytes_get_data (out, &n);
  g_autoptr (WkEngStpc) again = wk_eng_stpc_parse (p, n, 0, &error);
  WK_FUZZ_CHECK (again != NULL && again->models->len == s->models->len
                 && again->anims->len == s->anims->len
                 && again->layout == s->layout, "rebuilt STPC reads differently");
  return 0;
}
