#include "rc2_build.h"

#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"
#include "../lz/wk_lz.h"
#include "rc2_collision.h"
#include "rc2_level.h"
#include "rc2_sky.h"

#define MAX_TEXTURE_SIDE 1024u   /* [assumed] the GS's largest page side */
#define MAX_SIZE (256u << 20)    /* [assumed] bound on any part of a sample */
#define GSRAM_ENTRY 16u          /* {s32 psm, s16 w, s16 h, s32 addr, s32 offset} */
#define REGION 16u               /* an empty core_data region */

static void
pad_to (GByteArray *out, gsize align)
{
  while (out->len % align)
    wk_put_u8 (out, 0);
}

static void
put_s32_at (GByteArray *out, gsize at, gint32 v)
{
  guint32 le = GUINT32_TO_LE ((guint32) v);
  memcpy (out->data + at, &le, 4);
}

static gboolean
check_input (const WkRc2NewLevel *in, GError **error)
{
  if (in->tfrags_size < 12 || in->tfrags_size > MAX_SIZE
      || in->gameplay_size == 0 || in->gameplay_size > MAX_SIZE
      || in->n_palettes == 0 || in->n_palettes > 64)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "a level needs a tfrags block "
                    "(12 bytes .. 256 MiB, got %" G_GSIZE_FORMAT "), a gameplay "
                    "extent (1 byte .. 256 MiB, got %" G_GSIZE_FORMAT ") and "
                    "1..64 palettes (got %u)", in->tfrags_size,
                    in->gameplay_size, in->n_palettes);
      return FALSE;
    }
  guint64 texels = 0;
  for (guint i = 0; i < in->n_textures; i++)
    {
      const WkRc2NewTexture *t = &in->textures[i];
      texels += (guint64) t->width * t->height;
      if (t->width == 0 || t->height == 0 || t->width > MAX_TEXTURE_SIDE
          || t->height > MAX_TEXTURE_SIDE || t->palette >= in->n_palettes
          || texels > MAX_SIZE)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1, "tfrag texture %u: %u × %u "
                        "pixels (sides 1..%u), palette %u of %u", i, t->width,
                        t->height, MAX_TEXTURE_SIDE, t->palette, in->n_palettes);
          return FALSE;
        }
    }
  return TRUE;
}

/* Palettes into gs_ram: entry i of the CLUT at the position with index
 * bits 3 and 4 swapped; alpha 255 -> 0x80 (opaque), a -> a / 2. */
static void
build_gs_ram (const WkRc2NewLevel *in, GByteArray *out)
{
  for (guint p = 0; p < in->n_palettes; p++)
    {
      const guint8 *src = in->palettes + (gsize) p * WK_RC2_PALETTE_BYTES;
      guint8 clut[WK_RC2_PALETTE_BYTES];
      for (guint i = 0; i < 256; i++)
        {
          guint j = wk_rc2_clut_index (i);
          memcpy (clut + 4 * j, src + 4 * i, 3);
          guint a = src[4 * i + 3];
          clut[4 * j + 3] = (guint8) (a == 255 ? 0x80 : a / 2);
        }
      wk_put_bytes (out, clut, sizeof clut);
    }
}

/* core_data: tfrags, occlusion (16 zero bytes: the reader needs the
 * offsets strictly increasing), an empty sky (a zero 0x40-byte header: no
 * shells, no textures), an empty collision block, then the texels. */
static gboolean
build_core (const WkRc2NewLevel *in, GByteArray *core, gint32 region[5],
            GArray *texel_offsets, GError **error)
{
  region[0] = 0;
  wk_put_bytes (core, in->tfrags, in->tfrags_size);
  pad_to (core, 16);
  static const WkCollMesh no_faces = { 0 };
  g_autoptr (GBytes) collision = wk_rc2_collision_build (&no_faces, error);
  if (collision == NULL)
    return FALSE;
  static const guint8 zeros[WK_SKY_HEADER] = { 0 };
  region[1] = (gint32) core->len;
  wk_put_bytes (core, zeros, REGION);
  region[2] = (gint32) core->len;
  wk_put_bytes (core, zeros, WK_SKY_HEADER);
  region[3] = (gint32) core->len;
  wk_put_bytes (core, g_bytes_get_data (collision, NULL), g_bytes_get_size (collision));
  pad_to (core, 16);
  region[4] = (gint32) core->len; /* textures_base */
  for (guint i = 0; i < in->n_textures; i++)
    {
      const WkRc2NewTexture *t = &in->textures[i];
      gint32 off = (gint32) (core->len - (guint) region[4]);
      g_array_append_val (texel_offsets, off);
      wk_put_bytes (core, t->pixels, (gsize) t->width * t->height);
      pad_to (core, 16);
    }
  return TRUE;
}

static void
build_index (const WkRc2NewLevel *in, const gint32 region[5],
             const GArray *texel_offsets, gsize stream_size, gsize core_size,
             GByteArray *index)
{
  g_byte_array_set_size (index, 0xc0);
  memset (index->data, 0, index->len);
  const gsize gs_at = index->len;
  for (guint p = 0; p < in->n_palettes; p++)
    { /* [assumed] PSMCT32 (0), a 16 × 16 block, GS address in 256-byte
       * blocks; wadkit's reader does not use these entries */
      wk_put_u32 (index, 0);
      wk_put_u16 (index, 16);
      wk_put_u16 (index, 16);
      wk_put_u32 (index, p * WK_RC2_PALETTE_BYTES / 256);
      wk_put_u32 (index, p * WK_RC2_PALETTE_BYTES);
    }
  const gsize tex_at = index->len;
  for (guint i = 0; i < in->n_textures; i++)
    {
      const WkRc2NewTexture *t = &in->textures[i];
      const WkRc2TexEntry e = {
        .data = g_array_index (texel_offsets, gint32, i),
        .width = (gint16) t->width, .height = (gint16) t->height,
        .type = 0, /* [assumed] */
        .palette = (gint16) (t->palette * WK_RC2_PALETTE_BYTES / WK_RC2_PALETTE_UNIT),
        .mipmap = 0, /* none */
      };
      wk_rc2_tex_entry_encode (&e, index);
    }
  put_s32_at (index, 0x00, (gint32) in->n_palettes);
  put_s32_at (index, 0x04, (gint32) gs_at);
  static const guint at[5] = { 0x08, 0x0c, 0x10, 0x14, 0x60 };
  for (int r = 0; r < 5; r++)
    put_s32_at (index, at[r], region[r]);
  put_s32_at (index, 0x30, (gint32) in->n_textures);
  put_s32_at (index, 0x34, (gint32) tex_at);
  put_s32_at (index, WK_RC2_COMPRESSED_SIZE, (gint32) stream_size);
  put_s32_at (index, WK_RC2_DECOMPRESSED_SIZE, (gint32) core_size);
}

/* Append a section 16-aligned and note {offset, size} in the pair table. */
static void
put_section (GByteArray *data, guint slot, const guint8 *bytes, gsize n)
{
  pad_to (data, 16);
  put_s32_at (data, slot, (gint32) data->len);
  put_s32_at (data, slot + 4, (gint32) n);
  wk_put_bytes (data, bytes, n);
}

static void
put_extent (GByteArray *file, guint slot, const guint8 *bytes, gsize n)
{
  pad_to (file, WK_RC2_SECTOR);
  put_s32_at (file, slot, (gint32) (file->len / WK_RC2_SECTOR));
  put_s32_at (file, slot + 4, (gint32) ((n + WK_RC2_SECTOR - 1) / WK_RC2_SECTOR));
  wk_put_bytes (file, bytes, n);
}

/* Parse the file again and decode both streams: each must give exactly
 * the bytes that went in (plain[s], n[s]). */
static gboolean
verify (GBytes *bytes, const guint8 *const plain[2], const gsize n[2],
        GError **error)
{
  g_autoptr (WkRc2Level) lvl = wk_rc2_level_parse (bytes, error);
  if (lvl == NULL)
    return FALSE;
  static const char *const streams[] = { "core_data", "gameplay" };
  for (guint s = 0; s < G_N_ELEMENTS (streams); s++)
    {
      gsize off, size;
      gint64 expected;
      WkLzDecoder d;
      if (!wk_rc2_stream (lvl, streams[s], &off, &size, &expected, error)
          || !wk_lz_decoder_init (&d, wk_rc2_data (lvl) + off, size, (gint64) off,
                                  error))
        return FALSE;
      g_autofree guint8 *out = g_malloc (n[s] + 1);
      WkLzStatus st = wk_lz_decoder_run (&d, out, n[s] + 1, error);
      if (st == WK_LZ_ERROR)
        return FALSE;
      if (st != WK_LZ_DONE || d.produced != n[s]
          || (expected >= 0 && (gsize) expected != n[s])
          || memcmp (out, plain[s], n[s]) != 0)
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) off,
                        "%s does not decode to what was written", streams[s]);
          return FALSE;
        }
    }
  return TRUE;
}

GBytes *
wk_rc2_level_build (const WkRc2NewLevel *in, GError **error)
{
  if (!check_input (in, error))
    return NULL;
  g_autoptr (GByteArray) core = g_byte_array_new ();
  g_autoptr (GArray) texel_offsets = g_array_new (FALSE, FALSE, sizeof (gint32));
  gint32 region[5];
  if (!build_core (in, core, region, texel_offsets, error))
    return NULL;
  g_autoptr (GBytes) stream = wk_lz_compress (core->data, core->len, WK_LZ_DEFAULT, error);
  if (stream == NULL)
    return NULL;
  g_autoptr (GBytes) gameplay = wk_lz_compress (in->gameplay, in->gameplay_size,
                                                WK_LZ_DEFAULT, error);
  if (gameplay == NULL)
    return NULL;
  gsize stream_size, gameplay_size;
  const guint8 *stream_data = g_bytes_get_data (stream, &stream_size);
  const guint8 *gameplay_data = g_bytes_get_data (gameplay, &gameplay_size);

  g_autoptr (GByteArray) index = g_byte_array_new ();
  build_index (in, region, texel_offsets, stream_size, core->len, index);
  g_autoptr (GByteArray) gs_ram = g_byte_array_new ();
  build_gs_ram (in, gs_ram);

  g_autoptr (GByteArray) data = g_byte_array_new ();
  g_byte_array_set_size (data, WK_RC2_DATA_HEADER);
  memset (data->data, 0, data->len);
  put_section (data, 0x08, index->data, index->len);
  put_section (data, 0x10, gs_ram->data, gs_ram->len);
  put_section (data, 0x48, stream_data, stream_size);

  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_byte_array_set_size (file, 0x60);
  memset (file->data, 0, file->len);
  put_s32_at (file, 0x00, 0x60);
  put_s32_at (file, 0x04, 0);          /* disc sector: informational */
  put_s32_at (file, 0x08, in->level_id);
  put_s32_at (file, 0x0c, in->reverb);
  put_extent (file, 0x10, data->data, data->len);
  put_extent (file, 0x20, gameplay_data, gameplay_size);
  pad_to (file, WK_RC2_SECTOR);
  GBytes *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&file));
  const guint8 *const plain[2] = { core->data, in->gameplay };
  const gsize n[2] = { core->len, in->gameplay_size };
  if (!verify (bytes, plain, n, error))
    {
      wk_error_prefix (error, "new RC2 level does not read back");
      g_bytes_unref (bytes);
      return NULL;
    }
  return bytes;
}
