#include "rc2_build.h"

#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"
#include "../lz/wk_lz.h"
#include "rc2_classes.h"
#include "rc2_collision.h"
#include "rc2_level.h"
#include "rc2_sky.h"

#define MAX_TEXTURE_SIDE 1024u   /* [assumed] the GS's largest page side */
#define MAX_SIZE (256u << 20)    /* [assumed] bound on any part of a sample */
#define GSRAM_ENTRY 16u          /* {s32 psm, s16 w, s16 h, s32 addr, s32 offset} */
#define REGION 16u               /* an empty core_data region */
#define CLASS_ALIGN 0x40u        /* class data in core_data, as Wrench packs it */
#define MAX_CLASSES 1024u        /* [assumed] per kind, a bound on the input */

/* Classes go into core_data and their tables into core_index in this
 * order (Wrench's packer; docs/formats/rc2-gameplay.md, "Core class tables"). */
static const WkRc2Kind class_order[] = { WK_RC2_MOBY, WK_RC2_TIE, WK_RC2_SHRUB };
static const char *const table_kind[WK_RC2_TABLES] = { "tfrag", "moby", "tie", "shrub" };

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
  for (guint t = 0; t < WK_RC2_TABLES; t++)
    for (guint i = 0; in->table[t] && i < in->n_table[t]; i++)
      if (in->table[t][i] >= in->n_textures)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%s texture table entry %u "
                        "names texture %u of %u", table_kind[t], i, in->table[t][i],
                        in->n_textures);
          return FALSE;
        }
  if ((in->sky && (in->sky_size < WK_SKY_HEADER || in->sky_size > MAX_SIZE))
      || (in->collision && (in->collision_size == 0 || in->collision_size > MAX_SIZE)))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "a sky block of %" G_GSIZE_FORMAT
                    " bytes (0x40 .. 256 MiB) or a collision block of %" G_GSIZE_FORMAT
                    " (1 byte .. 256 MiB)", in->sky_size, in->collision_size);
      return FALSE;
    }
  guint64 class_bytes = 0;
  for (guint k = 0; k < WK_RC2_KINDS; k++)
    {
      const char *name = wk_rc2_class_table_defs[k].name;
      if (in->n_classes[k] > MAX_CLASSES)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1, "%u %s classes (at most %u)",
                        in->n_classes[k], name, MAX_CLASSES);
          return FALSE;
        }
      /* the kind's texture table: tfrag, moby, tie, shrub */
      guint n_tex = in->n_table[k == WK_RC2_MOBY ? WK_RC2_TABLE_MOBY
                                : k == WK_RC2_TIE ? WK_RC2_TABLE_TIE : WK_RC2_TABLE_SHRUB];
      for (guint i = 0; i < in->n_classes[k]; i++)
        {
          const WkRc2NewClass *c = &in->classes[k][i];
          class_bytes += c->size + CLASS_ALIGN;
          if ((c->data != NULL) != (c->size > 0) || class_bytes > MAX_SIZE)
            {
              wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%s class %d: %" G_GSIZE_FORMAT
                            " bytes of data (a class has data of 1 byte .. 256 MiB "
                            "or none)", name, c->id, c->size);
              return FALSE;
            }
          for (guint j = 0; j < 16 && c->textures[j] != 0xff; j++)
            if (c->textures[j] >= n_tex)
              {
                wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%s class %d: texture "
                              "slot %u names entry %u of the %u-entry %s texture "
                              "table", name, c->id, j, c->textures[j], n_tex, name);
                return FALSE;
              }
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
 * offsets strictly increasing), the sky (or an empty one: a zero 0x40-byte
 * header, no shells, no textures), the collision block (or one of no
 * faces), the texels, then the class data (moby, tie, shrub) at 0x40
 * boundaries; class_at[k][i] = the offset of class i of kind k. */
static gboolean
build_core (const WkRc2NewLevel *in, GByteArray *core, gint32 region[5],
            GArray *texel_offsets, gint32 *class_at[WK_RC2_KINDS], GError **error)
{
  region[0] = 0;
  wk_put_bytes (core, in->tfrags, in->tfrags_size);
  wk_put_pad (core, 16);
  g_autoptr (GBytes) empty = NULL;
  const guint8 *coll = in->collision;
  gsize coll_size = in->collision_size;
  if (coll == NULL)
    {
      static const WkCollMesh no_faces = { 0 };
      empty = wk_rc2_collision_build (&no_faces, error);
      if (empty == NULL)
        return FALSE;
      coll = g_bytes_get_data (empty, &coll_size);
    }
  static const guint8 zeros[WK_SKY_HEADER] = { 0 };
  region[1] = (gint32) core->len;
  wk_put_bytes (core, zeros, REGION);
  region[2] = (gint32) core->len;
  if (in->sky)
    wk_put_bytes (core, in->sky, in->sky_size);
  else
    wk_put_bytes (core, zeros, WK_SKY_HEADER);
  wk_put_pad (core, 16);
  region[3] = (gint32) core->len;
  wk_put_bytes (core, coll, coll_size);
  wk_put_pad (core, 16);
  region[4] = (gint32) core->len; /* textures_base */
  for (guint i = 0; i < in->n_textures; i++)
    {
      const WkRc2NewTexture *t = &in->textures[i];
      gint32 off = (gint32) (core->len - (guint) region[4]);
      g_array_append_val (texel_offsets, off);
      wk_put_bytes (core, t->pixels, (gsize) t->width * t->height);
      wk_put_pad (core, 16);
    }
  for (guint o = 0; o < G_N_ELEMENTS (class_order); o++)
    {
      WkRc2Kind k = class_order[o];
      for (guint i = 0; i < in->n_classes[k]; i++)
        {
          const WkRc2NewClass *c = &in->classes[k][i];
          class_at[k][i] = 0;
          if (c->data == NULL)
            continue;
          wk_put_pad (core, CLASS_ALIGN);
          class_at[k][i] = (gint32) core->len;
          wk_put_bytes (core, c->data, c->size);
        }
    }
  wk_put_pad (core, 16);
  return TRUE;
}

static void
put_tex_entry (const WkRc2NewLevel *in, const GArray *texel_offsets, guint i,
               GByteArray *index)
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

static void
build_index (const WkRc2NewLevel *in, const gint32 region[5],
             const GArray *texel_offsets, gint32 *const class_at[WK_RC2_KINDS],
             gsize stream_size, gsize core_size, GByteArray *index)
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
  guint n_tfrag = in->table[WK_RC2_TABLE_TFRAG] ? in->n_table[WK_RC2_TABLE_TFRAG]
                                                : in->n_textures;
  for (guint i = 0; i < n_tfrag; i++)
    put_tex_entry (in, texel_offsets,
                   in->table[WK_RC2_TABLE_TFRAG] ? in->table[WK_RC2_TABLE_TFRAG][i] : i,
                   index);
  /* the class tables, then the moby, tie, shrub texture tables, each
   * 16-aligned (Wrench's order) */
  for (guint o = 0; o < G_N_ELEMENTS (class_order); o++)
    {
      WkRc2Kind k = class_order[o];
      const WkRc2ClassTableDef *d = &wk_rc2_class_table_defs[k];
      wk_put_pad (index, 16);
      wk_set_u32 (index, d->table, (guint32) (gint32) in->n_classes[k]);
      wk_set_u32 (index, d->table + 4, (guint32) in->n_classes[k] ? (gint32) index->len : 0);
      for (guint i = 0; i < in->n_classes[k]; i++)
        {
          const WkRc2NewClass *c = &in->classes[k][i];
          wk_put_u32 (index, (guint32) class_at[k][i]);
          wk_put_u32 (index, (guint32) c->id);
          wk_put_u32 (index, 0);   /* word_8 */
          wk_put_u32 (index, 0);   /* word_c */
          wk_put_bytes (index, c->textures, 16);
          for (guint b = 0; d->entry > WK_RC2_CLASS_ENTRY_BILLBOARD && b < 8; b++)
            wk_put_u16 (index, (guint16) c->billboard[b]);
        }
    }
  for (guint t = WK_RC2_TABLE_MOBY; t < WK_RC2_TABLES; t++)
    {
      guint slot;
      wk_rc2_texture_kind (table_kind[t], &slot);
      wk_put_pad (index, 16);
      wk_set_u32 (index, slot, (guint32) (gint32) in->n_table[t]);
      wk_set_u32 (index, slot + 4, (guint32) in->n_table[t] ? (gint32) index->len : 0);
      for (guint i = 0; i < in->n_table[t]; i++)
        put_tex_entry (in, texel_offsets, in->table[t][i], index);
    }
  wk_set_u32 (index, 0x00, (guint32) (gint32) in->n_palettes);
  wk_set_u32 (index, 0x04, (guint32) (gint32) gs_at);
  static const guint at[5] = { 0x08, 0x0c, 0x10, 0x14, 0x60 };
  for (int r = 0; r < 5; r++)
    wk_set_u32 (index, at[r], (guint32) region[r]);
  wk_set_u32 (index, 0x30, (guint32) (gint32) n_tfrag);
  wk_set_u32 (index, 0x34, (guint32) (gint32) tex_at);
  wk_set_u32 (index, WK_RC2_COMPRESSED_SIZE, (guint32) (gint32) stream_size);
  wk_set_u32 (index, WK_RC2_DECOMPRESSED_SIZE, (guint32) (gint32) core_size);
}

/* Append a section 16-aligned and note {offset, size} in the pair table. */
static void
put_section (GByteArray *data, guint slot, const guint8 *bytes, gsize n)
{
  wk_put_pad (data, 16);
  wk_set_u32 (data, slot, (guint32) (gint32) data->len);
  wk_set_u32 (data, slot + 4, (guint32) (gint32) n);
  wk_put_bytes (data, bytes, n);
}

static void
put_extent (GByteArray *file, guint slot, const guint8 *bytes, gsize n)
{
  wk_put_pad (file, WK_RC2_SECTOR);
  wk_set_u32 (file, slot, (guint32) (gint32) (file->len / WK_RC2_SECTOR));
  wk_set_u32 (file, slot + 4, (guint32) (gint32) ((n + WK_RC2_SECTOR - 1) / WK_RC2_SECTOR));
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
  const WkRc2Section *index = wk_rc2_section (lvl, "core_index");
  g_autoptr (WkRc2Classes) classes = wk_rc2_classes_parse (
      wk_rc2_data (lvl) + index->offset, index->size, (gint64) index->offset, error);
  if (classes == NULL)
    return FALSE;
  for (guint t = 0; t < WK_RC2_TABLES; t++)
    {
      GArray *tex = wk_rc2_textures (lvl, table_kind[t], plain[0], n[0], error);
      if (tex == NULL)
        return FALSE;
      g_array_unref (tex);
    }
  return TRUE;
}

static GBytes *finish (const WkRc2NewLevel *in, GByteArray *core, const gint32 region[5],
                       const GArray *texel_offsets, gint32 *const class_at[WK_RC2_KINDS],
                       GError **error);

GBytes *
wk_rc2_level_build (const WkRc2NewLevel *in, GError **error)
{
  if (!check_input (in, error))
    return NULL;
  g_autoptr (GByteArray) core = g_byte_array_new ();
  g_autoptr (GArray) texel_offsets = g_array_new (FALSE, FALSE, sizeof (gint32));
  gint32 region[5];
  gint32 *class_at[WK_RC2_KINDS];
  for (guint k = 0; k < WK_RC2_KINDS; k++)
    class_at[k] = g_new0 (gint32, MAX (in->n_classes[k], 1));
  GBytes *result = NULL;
  if (build_core (in, core, region, texel_offsets, class_at, error))
    result = finish (in, core, region, texel_offsets, class_at, error);
  for (guint k = 0; k < WK_RC2_KINDS; k++)
    g_free (class_at[k]);
  return result;
}

static GBytes *
finish (const WkRc2NewLevel *in, GByteArray *core, const gint32 region[5],
        const GArray *texel_offsets, gint32 *const class_at[WK_RC2_KINDS],
        GError **error)
{
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
  build_index (in, region, texel_offsets, class_at, stream_size, core->len, index);
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
  wk_set_u32 (file, 0x00, (guint32) 0x60);
  wk_set_u32 (file, 0x04, (guint32) 0);          /* disc sector: informational */
  wk_set_u32 (file, 0x08, (guint32) in->level_id);
  wk_set_u32 (file, 0x0c, (guint32) in->reverb);
  put_extent (file, 0x10, data->data, data->len);
  put_extent (file, 0x20, gameplay_data, gameplay_size);
  wk_put_pad (file, WK_RC2_SECTOR);
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
