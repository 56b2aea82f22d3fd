/* libFuzzer harness: the RC2 level writer (csrc/core/rc2/rc2_build.c).
 * Parts from the input: a tfrags block the tfrag writer builds from one
 * mesh, 0-2 textures (sides 1..16, pixels and palette index from the
 * input), 1-2 palettes, and the rest of the input as the gameplay extent.
 * wk_rc2_level_build refuses (LIMIT/ARGUMENT) or returns a file that the
 * container parser reads, whose gameplay stream decodes to the gameplay
 * given and whose core_data decodes to its declared size. */
#include <stdint.h>

#include "core/lz/wk_lz.h"
#include "core/rc2/rc2_build.h"
#include "core/rc2/rc2_level.h"
#include "core/rc2/tfrag.h"
#include "fuzz_util.h"

WK_FUZZ_INITIALIZE

/* Decode the named stream of lvl to its declared size, or to `want` bytes
 * when it declares none (gameplay); the bytes (caller frees). */
static guint8 *
stream (const WkRc2Level *lvl, const guint8 *file, const char *name, gsize want,
        gsize *n)
{
  g_autoptr (GError) error = NULL;
  gsize off, size;
  gint64 expected;
  WK_FUZZ_CHECK (wk_rc2_stream (lvl, name, &off, &size, &expected, &error),
                 "built level has no %s: %s", name, error->message);
  if (expected < 0)
    expected = (gint64) want;
  WK_FUZZ_CHECK (expected <= (64 << 20), "%s size", name);
  WkLzDecoder d;
  WK_FUZZ_CHECK (wk_lz_decoder_init (&d, file + off, size, (gint64) off, &error),
                 "%s: %s", name, error->message);
  guint8 *out = g_malloc ((gsize) expected + 1);
  WK_FUZZ_CHECK (wk_lz_decoder_run (&d, out, (gsize) expected, &error) == WK_LZ_DONE
                 && d.produced == (gsize) expected,
                 "%s does not decode to its %" G_GINT64_FORMAT " bytes", name, expected);
  *n = d.produced;
  return out;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  WkFuzzSrc s = { data, size };
  /* one quad mesh, corners moved by the input */
  gfloat pos[12], uv[8], color[16];
  for (int i = 0; i < 12; i++)
    pos[i] = (gfloat) ((i % 3 == 0 ? (i / 3) & 1 : i % 3 == 1 ? (i / 6) : 0))
             + (gint8) wk_fuzz_take (&s) / 64.0f;
  for (int i = 0; i < 8; i++)
    uv[i] = wk_fuzz_take (&s) / 255.0f;
  for (int i = 0; i < 16; i++)
    color[i] = wk_fuzz_take (&s) / 128.0f;
  guint32 idx[4] = { 0, 1, 2, 3 }, strip_len[1] = { 4 };
  guint8 n_tex = wk_fuzz_take (&s) % 3, n_pal = 1 + wk_fuzz_take (&s) % 2;
  gint32 strip_tex[1] = { n_tex ? wk_fuzz_take (&s) % n_tex : 0 };
  WkTfragMesh mesh = { pos, uv, color, 4, idx, 4, strip_len, strip_tex, 1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) tfrags = wk_tfrags_build (&mesh, 1, 32.0f, &error);
  if (tfrags == NULL)
    return 0; /* the tfrag writer's limits: fuzz_rc2_tfrag_build's business */

  WkRc2NewTexture tex[2];
  g_autofree guint8 *pixels = g_malloc0 (2 * 16 * 16);
  for (guint i = 0; i < n_tex; i++)
    {
      tex[i].width = 1 + wk_fuzz_take (&s) % 16;
      tex[i].height = 1 + wk_fuzz_take (&s) % 16;
      tex[i].palette = wk_fuzz_take (&s) % n_pal;
      tex[i].pixels = pixels + i * 256;
      for (guint k = 0; k < tex[i].width * tex[i].height; k++)
        pixels[i * 256 + k] = wk_fuzz_take (&s);
    }
  g_autofree guint8 *palettes = g_malloc (n_pal * WK_RC2_PALETTE_BYTES);
  for (guint k = 0; k < n_pal * WK_RC2_PALETTE_BYTES; k++)
    palettes[k] = size ? data[k % size] : 0;
  const guint8 *gameplay = s.p;
  gsize gameplay_size = s.n;
  gsize tsize;
  const guint8 *tdata = g_bytes_get_data (tfrags, &tsize);
  WkRc2NewLevel in = {
    .level_id = 30, .reverb = 5, .tfrags = tdata, .tfrags_size = tsize,
    .n_textures = n_tex, .textures = tex, .n_palettes = n_pal,
    .palettes = palettes, .gameplay = gameplay, .gameplay_size = gameplay_size,
  };
  g_autoptr (GBytes) file = wk_rc2_level_build (&in, &error);
  if (file == NULL)
    {
      WK_FUZZ_CHECK (error->domain == WK_ERROR && (error->code == WK_ERROR_LIMIT
                                                   || error->code == WK_ERROR_ARGUMENT),
                     "build: %s", error->message);
      return 0;
    }
  g_autoptr (WkRc2Level) lvl = wk_rc2_level_parse (file, &error);
  WK_FUZZ_CHECK (lvl != NULL, "built level does not parse: %s", error->message);
  const guint8 *f = g_bytes_get_data (file, NULL);
  gsize n;
  g_autofree guint8 *gp = stream (lvl, f, "gameplay", gameplay_size, &n);
  WK_FUZZ_CHECK (n == gameplay_size && memcmp (gp, gameplay, n) == 0,
                 "gameplay of %zu bytes read back as %zu bytes", gameplay_size, n);
  gsize core_n;
  g_autofree guint8 *core = stream (lvl, f, "core_data", 0, &core_n);
  WK_FUZZ_CHECK (core_n >= tsize && memcmp (core, tdata, tsize) == 0,
                 "core_data does not start with the tfrags block");
  return 0;
}
