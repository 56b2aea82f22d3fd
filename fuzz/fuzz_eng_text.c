/* libFuzzer harness: ENG TEXT payload (csrc/core/eng/eng_text.c, RLE16).
 * parse; on success build gives the input back byte for byte; every page
 * decodes (the parse promised it); a page re-encoded from its own pixels
 * (PAL8 nearest colour, RGB16, RLE16) rebuilds to a payload that parses and
 * decodes to the same pixels. Plus RLE16 encode -> decode identity on the
 * input read as pixels. */
#include <stdint.h>

#include "core/common/wk_reader.h"
#include "core/eng/eng_text.h"
#include "fuzz_util.h"

/* Pages bigger than this are decoded only by the parse's validation: the
 * fuzzer's time is better spent elsewhere than on 64 MiB pages. */
#define MAX_PIXELS (256u * 1024u)

WK_FUZZ_INITIALIZE

static void
rle_identity (const uint8_t *data, size_t size)
{
  gsize n = MIN (size / 2, 4096);
  g_autofree guint16 *px = g_new (guint16, n + 1);
  for (gsize i = 0; i < n; i++)
    px[i] = wk_le16 (data + 2 * i);
  g_autoptr (GByteArray) enc = g_byte_array_new ();
  wk_eng_rle16_encode (px, n, enc);
  WK_FUZZ_CHECK (enc->len % 2 == 0, "odd RLE16 stream");
  g_autofree guint16 *back = g_new0 (guint16, n + 1);
  g_autoptr (GError) error = NULL;
  WK_FUZZ_CHECK (wk_eng_rle16_decode (enc->data, enc->len / 2, 0, back, n, &error),
                 "own RLE16 stream does not decode: %s", error->message);
  WK_FUZZ_CHECK (n == 0 || memcmp (px, back, n * 2) == 0, "RLE16 round trip differs");
}

static void
reencode_page (const WkEngText *text, guint i)
{
  const WkEngPage *pg = &g_array_index (text->pages, WkEngPage, i);
  gsize npx = (gsize) pg->width * pg->height;
  if (npx == 0 || npx > MAX_PIXELS)
    return;
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *rgba = g_malloc (npx * 4);
  WK_FUZZ_CHECK (wk_eng_text_page_rgba (text, i, rgba, &error),
                 "page %u of a parsed TEXT does not decode: %s", i, error->message);
  /* a copy to edit: parse the rebuilt bytes */
  g_autoptr (GBytes) same = wk_eng_text_build (text);
  gsize n;
  const guint8 *p = g_bytes_get_data (same, &n);
  g_autoptr (WkEngText) edit = wk_eng_text_parse (p, n, 0, &error);
  WK_FUZZ_CHECK (edit != NULL, "rebuilt TEXT does not parse: %s", error->message);
  if (!wk_eng_text_set_page_rgba (edit, i, rgba, &error))
    {
      WK_FUZZ_CHECK (error->domain == WK_ERROR && error->code == WK_ERROR_LIMIT,
                     "page %u re-encode failed: %s", i, error->message);
      return;
    }
  g_autoptr (GBytes) out = wk_eng_text_build (edit);
  p = g_bytes_get_data (out, &n);
  g_autoptr (WkEngText) again = wk_eng_text_parse (p, n, 0, &error);
  WK_FUZZ_CHECK (again != NULL, "TEXT with page %u re-encoded does not parse: %s",
                 i, error->message);
  WK_FUZZ_CHECK (again->pages->len == text->pages->len, "page count changed");
  g_autofree guint8 *rgba2 = g_malloc (npx * 4);
  WK_FUZZ_CHECK (wk_eng_text_page_rgba (again, i, rgba2, &error),
                 "re-encoded page %u does not decode: %s", i, error->message);
  WK_FUZZ_CHECK (memcmp (rgba, rgba2, npx * 4) == 0,
                 "page %u (kind %d): pixels changed by decode -> encode -> decode",
                 i, pg->kind);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  rle_identity (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (WkEngText) text = wk_eng_text_parse (data, size, 0, &error);
  if (text == NULL)
    {
      wk_fuzz_check_format_error (error, size, "TEXT");
      return 0;
    }
  g_autoptr (GBytes) out = wk_eng_text_build (text);
  wk_fuzz_check_same_data (data, size, out, "TEXT rebuild");
  for (guint i = 0; i < text->pages->len && i < 8; i++)
    reencode_page (text, i);
  return 0;
}
