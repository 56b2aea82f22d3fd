/* libFuzzer harness: WAD-LZ (csrc/core/lz/).
 *   - decode the input as a stream (resumable decoder, output grown up to
 *     16 MiB: a bomb stops there); a failure must be a FORMAT error;
 *   - the validator walks any input without crashing, within its limit;
 *   - compress the input (mode from its first byte) -> a stream the
 *     validator finds clean and that decodes to the input (identity). */
#include <stdint.h>

#include "core/lz/wk_lz.h"
#include "fuzz_util.h"

#define MAX_OUT ((gsize) 16 << 20)

WK_FUZZ_INITIALIZE

/* Decode src fully; NULL + error on a broken stream or past MAX_OUT. */
static guint8 *
decode (const guint8 *src, gsize size, gsize *out_size, gboolean *too_big,
        GError **error)
{
  WkLzDecoder d;
  *too_big = FALSE;
  if (!wk_lz_decoder_init (&d, src, size, 0, error))
    return NULL;
  gsize cap = 4096;
  guint8 *out = g_malloc (cap);
  for (;;)
    {
      WkLzStatus st = wk_lz_decoder_run (&d, out, cap, error);
      WK_FUZZ_CHECK (d.produced <= cap, "produced %zu > capacity %zu", d.produced, cap);
      if (st == WK_LZ_DONE)
        break;
      if (st == WK_LZ_ERROR)
        {
          g_free (out);
          return NULL;
        }
      if (cap >= MAX_OUT)
        {
          *too_big = TRUE;
          g_free (out);
          return NULL;
        }
      cap *= 2;
      out = g_realloc (out, cap);
    }
  *out_size = d.produced;
  return out;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  gsize n = 0;
  gboolean too_big;
  g_autofree guint8 *plain = decode (data, size, &n, &too_big, &error);
  if (plain == NULL && !too_big)
    wk_fuzz_check_format_error (error, size, "");
  g_clear_error (&error);

  g_autoptr (GPtrArray) issues = wk_lz_validate (data, size, 8);
  WK_FUZZ_CHECK (issues != NULL && issues->len <= 8, "validator limit");

  WkLzMode mode = size ? data[0] % WK_LZ_N_MODES : WK_LZ_DEFAULT;
  g_autoptr (GBytes) packed = wk_lz_compress (data, size, mode, &error);
  WK_FUZZ_CHECK (packed != NULL, "compress failed: %s", error->message);
  gsize psize;
  const guint8 *p = g_bytes_get_data (packed, &psize);
  g_autoptr (GPtrArray) own = wk_lz_validate (p, psize, 8);
  WK_FUZZ_CHECK (own->len == 0, "own stream (mode %d) breaks a rule: %s", mode,
                 (const char *) g_ptr_array_index (own, 0));
  gsize back_n = 0;
  g_autofree guint8 *back = decode (p, psize, &back_n, &too_big, &error);
  WK_FUZZ_CHECK (back != NULL, "own stream does not decode: %s",
                 error ? error->message : "too big");
  WK_FUZZ_CHECK (back_n == size && (size == 0 || memcmp (back, data, size) == 0),
                 "compress -> decompress is not the identity (%zu -> %zu bytes)",
                 size, back_n);
  return 0;
}
