/* libFuzzer harness: RC2 LEVEL<n>.WAD container (csrc/core/rc2/rc2_level.c)
 * and its WAD-LZ streams. parse; on success every extent and section lies
 * inside the file; every stream the level names lies inside the file and
 * decodes (output capped at 16 MiB) to its declared size or fails with a
 * FORMAT error. Round trip through the save path (rc2_save.c): a rewrite
 * with nothing changed, and one giving the tfrags region its own bytes,
 * either fail with a FORMAT error (a stream that does not decode) or give
 * the input back byte for byte. */
#include <stdint.h>

#include "core/lz/wk_lz.h"
#include "core/rc2/rc2_level.h"
#include "core/rc2/rc2_save.h"
#include "fuzz_util.h"

#define MAX_OUT ((gsize) 16 << 20)

WK_FUZZ_INITIALIZE

static void
check_stream (const WkRc2Level *lvl, const char *name, const guint8 *data, gsize size)
{
  g_autoptr (GError) error = NULL;
  gsize off, n;
  gint64 expected;
  if (!wk_rc2_stream (lvl, name, &off, &n, &expected, &error))
    {
      WK_FUZZ_CHECK (error && error->domain == WK_ERROR, "stream %s: %s", name,
                     error ? error->message : "no error");
      return;
    }
  WK_FUZZ_CHECK (off <= size && n <= size - off, "stream %s at %zu+%zu of %zu",
                 name, off, n, size);
  WkLzDecoder d;
  if (!wk_lz_decoder_init (&d, data + off, n, (gint64) off, &error))
    {
      wk_fuzz_check_format_error (error, size, "");
      return;
    }
  gsize cap = expected >= 0 ? MIN ((gsize) expected, MAX_OUT) : 65536;
  g_autofree guint8 *out = g_malloc (cap + 1);
  for (;;)
    {
      WkLzStatus st = wk_lz_decoder_run (&d, out, cap, &error);
      if (st == WK_LZ_DONE)
        break;
      if (st == WK_LZ_ERROR)
        {
          wk_fuzz_check_format_error (error, size, "");
          return;
        }
      if (cap >= MAX_OUT || expected >= 0)
        return; /* larger than declared, or a bomb: the binding refuses */
      cap *= 2;
      out = g_realloc (out, cap + 1);
    }
  WK_FUZZ_CHECK (d.produced <= cap, "produced past the capacity");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GBytes) in = g_bytes_new_static (data, size);
  g_autoptr (GError) error = NULL;
  g_autoptr (WkRc2Level) lvl = wk_rc2_level_parse (in, &error);
  if (lvl == NULL)
    {
      wk_fuzz_check_format_error (error, size, "");
      return 0;
    }
  for (guint i = 0; i < lvl->n_extents; i++)
    {
      const WkRc2Extent *e = &lvl->extents[i];
      WK_FUZZ_CHECK (e->size == 0 || (e->offset <= size && e->size <= size - e->offset),
                     "extent %s at %zu+%zu of %zu", e->name, e->offset, e->size, size);
    }
  for (guint i = 0; i < WK_RC2_SECTIONS; i++)
    {
      const WkRc2Section *s = &lvl->sections[i];
      WK_FUZZ_CHECK (s->size == 0 || (s->offset <= size && s->size <= size - s->offset),
                     "section %s at %zu+%zu of %zu", s->name ? s->name : "?",
                     s->offset, s->size, size);
    }
  check_stream (lvl, "core_data", data, size);
  check_stream (lvl, "gameplay", data, size);
  check_stream (lvl, "gameplay_pal", data, size);
  if (WK_RC2_CORE (lvl, WK_RC2_DECOMPRESSED_SIZE) > (gint32) MAX_OUT)
    return 0;
  WkRc2Rewrite none = { 0 };
  WkRc2RewriteInfo info;
  g_autoptr (GError) e2 = NULL;
  g_autoptr (GBytes) same = wk_rc2_level_rewrite (lvl, &none, &info, &e2);
  if (same == NULL)
    {
      WK_FUZZ_CHECK (e2 && e2->domain == WK_ERROR && e2->code == WK_ERROR_FORMAT,
                     "unchanged rewrite: %s", e2 ? e2->message : "no error");
      return 0;
    }
  WK_FUZZ_CHECK (g_bytes_get_size (same) == size
                 && memcmp (g_bytes_get_data (same, NULL), data, size) == 0,
                 "an unchanged rewrite changed the file");
  /* the tfrags region given its own bytes: the stream and file stay */
  const WkRc2Section *cd = wk_rc2_section (lvl, "core_data");
  g_autoptr (WkRestreamMap) map = wk_rc2_restream_map (
      data + cd->offset, cd->size, (gint64) cd->offset,
      WK_RC2_CORE (lvl, WK_RC2_DECOMPRESSED_SIZE), MAX_OUT, NULL);
  if (map == NULL)
    return 0;
  gsize start, end, n;
  const guint8 *plain = g_bytes_get_data (map->plain, &n);
  wk_rc2_core_region (lvl, "tfrags", &start, &end);
  WkRc2Rewrite own = { plain + start, end - start, NULL, 0, NULL, 0, NULL, 0 };
  g_autoptr (GError) e3 = NULL;
  g_autoptr (GBytes) again = wk_rc2_level_rewrite (lvl, &own, &info, &e3);
  WK_FUZZ_CHECK (again != NULL, "own tfrags rewrite failed: %s", e3 ? e3->message : "");
  WK_FUZZ_CHECK (g_bytes_get_size (again) == size
                 && memcmp (g_bytes_get_data (again, NULL), data, size) == 0,
                 "a rewrite with its own tfrags changed the file");
  return 0;
}
