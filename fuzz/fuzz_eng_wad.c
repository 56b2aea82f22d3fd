/* libFuzzer harness: ENG WAD container (csrc/core/eng/eng_wad.c).
 *
 * parse; on success check the chunk table's invariants, then
 *   - build with no replacements == the input, byte for byte;
 *   - build with the payloads rotated (chunk i gets chunk i+1's payload) and
 *     with every payload emptied: parses again, to the same tags with the
 *     new payloads, and rebuilding that parse gives the same bytes. */
#include <stdint.h>

#include "core/eng/eng_wad.h"
#include "core/common/wk_reader.h"
#include "fuzz_util.h"

WK_FUZZ_INITIALIZE

static void
check_table (const WkEngWad *wad, gsize size)
{
  guint n = wad->chunks->len;
  WK_FUZZ_CHECK (n >= 1, "no chunks");
  gsize expect = 4;
  for (guint i = 0; i < n; i++)
    {
      const WkEngChunk *c = &g_array_index (wad->chunks, WkEngChunk, i);
      WK_FUZZ_CHECK (c->offset == expect, "chunk %u at %zu, expected %zu",
                     i, c->offset, expect);
      guint32 extra = c->size_field - (guint32) c->size;
      WK_FUZZ_CHECK (extra == 0 || (extra == 4 && memcmp (c->name, "MAP ", 4) == 0),
                     "chunk %s: size %zu vs field %u", c->name, c->size, c->size_field);
      WK_FUZZ_CHECK (c->offset + 8 + c->size <= size, "chunk %s past the end", c->name);
      WK_FUZZ_CHECK ((memcmp (c->name, "END ", 4) == 0) == (i == n - 1),
                     "END is not exactly the last chunk");
      for (guint j = 0; j < i; j++)
        WK_FUZZ_CHECK (g_array_index (wad->chunks, WkEngChunk, j).tag != c->tag,
                       "duplicate tag %s", c->name);
      WK_FUZZ_CHECK (wk_eng_wad_find (wad, c->name) == (gint) i, "find %s", c->name);
      expect = c->offset + 8 + c->size;
    }
  WK_FUZZ_CHECK (wad->end == expect && wad->end <= size, "end %zu", wad->end);
}

/* Build with replacements; the result must read back as the same chunk list
 * with the new payloads, and rebuild unchanged to the same bytes. */
static void
check_replaced (const WkEngWad *wad, GBytes **repl)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) out = wk_eng_wad_build_checked (wad, repl, &error);
  if (out == NULL)
    {
      /* Only the MAP size quirk is ambiguous (a payload ending in a tag);
       * the writer must then refuse rather than write a misreadable file. */
      WK_FUZZ_CHECK (error && error->domain == WK_ERROR
                     && error->code == WK_ERROR_LIMIT
                     && wk_eng_wad_find (wad, "MAP ") >= 0,
                     "rebuild failed: %s", error ? error->message : "?");
      return;
    }
  gsize out_size;
  const guint8 *out_data = g_bytes_get_data (out, &out_size);
  WK_FUZZ_CHECK (wk_le32 (out_data) == out_size, "length field not updated");
  g_autoptr (WkEngWad) again = wk_eng_wad_parse (out, &error);
  WK_FUZZ_CHECK (again != NULL, "rebuilt WAD does not parse: %s", error->message);
  WK_FUZZ_CHECK (again->chunks->len == wad->chunks->len, "chunk count changed");
  for (guint i = 0; i < wad->chunks->len; i++)
    {
      const WkEngChunk *a = &g_array_index (wad->chunks, WkEngChunk, i);
      const WkEngChunk *b = &g_array_index (again->chunks, WkEngChunk, i);
      WK_FUZZ_CHECK (a->tag == b->tag, "chunk %u: %s became %s", i, a->name, b->name);
      gsize want_n, got_n;
      const guint8 *want = repl[i] ? g_bytes_get_data (repl[i], &want_n)
                                   : wk_eng_wad_payload (wad, i, &want_n);
      const guint8 *got = wk_eng_wad_payload (again, i, &got_n);
      WK_FUZZ_CHECK (want_n == got_n && (want_n == 0 || memcmp (want, got, want_n) == 0),
                     "chunk %s: payload of %zu bytes read back as %zu bytes",
                     a->name, want_n, got_n);
    }
  g_autoptr (GBytes) twice = wk_eng_wad_build (again, NULL, &error);
  WK_FUZZ_CHECK (twice != NULL, "rebuild of the rebuilt WAD failed");
  wk_fuzz_check_same (out, twice, "rebuild of the rebuilt WAD");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) in = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (WkEngWad) wad = wk_eng_wad_parse (in, &error);
  if (wad == NULL)
    {
      wk_fuzz_check_format_error (error, size, "ENG WAD");
      return 0;
    }
  check_table (wad, size);

  g_autoptr (GBytes) same = wk_eng_wad_build_checked (wad, NULL, &error);
  WK_FUZZ_CHECK (same != NULL, "unchanged rebuild failed: %s", error->message);
  wk_fuzz_check_same (in, same, "unchanged rebuild");

  guint n = wad->chunks->len;
  GBytes **repl = g_new0 (GBytes *, n);
  for (guint i = 0; i < n; i++)
    {
      gsize psize;
      const guint8 *p = wk_eng_wad_payload (wad, (i + 1) % n, &psize);
      repl[i] = g_bytes_new (p, psize);
    }
  check_replaced (wad, repl);
  for (guint i = 0; i < n; i++)
    {
      g_bytes_unref (repl[i]);
      repl[i] = g_bytes_new (NULL, 0);
    }
  check_replaced (wad, repl);
  for (guint i = 0; i < n; i++)
    g_bytes_unref (repl[i]);
  g_free (repl);
  return 0;
}
