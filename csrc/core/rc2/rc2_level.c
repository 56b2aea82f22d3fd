#include "rc2_level.h"
#include "rc2_restream.h"
#include "tfrag_edit.h"

#include "../common/wk_reader.h"
#include "../lz/wk_lz.h"

typedef struct {
  const char *name;
  guint at;
} Slot;

/* The two level header layouts (wrench: GcUyaLevelWadHeader / 68). */
static const Slot slots_60[] = {
  { "data", 0x10 }, { "sound_bank", 0x18 }, { "gameplay", 0x20 },
  { "occlusion", 0x28 }, { "chunk0", 0x30 }, { "chunk1", 0x38 },
  { "chunk2", 0x40 }, { "chunk_bank0", 0x48 }, { "chunk_bank1", 0x50 },
  { "chunk_bank2", 0x58 }, { NULL, 0 },
};
static const Slot slots_68[] = {
  { "data", 0x0c }, { "sound_bank", 0x14 }, { "gameplay", 0x1c },
  { "gameplay_pal", 0x24 }, { "occlusion", 0x2c }, { "chunk0", 0x34 },
  { "chunk1", 0x3c }, { "chunk2", 0x44 }, { "chunk_bank0", 0x50 },
  { "chunk_bank1", 0x58 }, { "chunk_bank2", 0x60 }, { NULL, 0 },
};
/* The data extent's byte pairs (GcUyaLevelDataHeader). */
static const Slot sections[WK_RC2_SECTIONS] = {
  { "overlay", 0x00 }, { "core_index", 0x08 }, { "gs_ram", 0x10 },
  { "hud_header", 0x18 }, { "hud_bank0", 0x20 }, { "hud_bank1", 0x28 },
  { "hud_bank2", 0x30 }, { "hud_bank3", 0x38 }, { "hud_bank4", 0x40 },
  { "core_data", 0x48 }, { "transition_textures", 0x50 },
};

const WkRc2CoreField wk_rc2_core_fields[] = {
  { "gs_ram", 0x00, TRUE }, { "tfrags", 0x08, FALSE },
  { "occlusion", 0x0c, FALSE }, { "sky", 0x10, FALSE },
  { "collision", 0x14, FALSE }, { "moby_classes", 0x18, TRUE },
  { "tie_classes", 0x20, TRUE }, { "shrub_classes", 0x28, TRUE },
  { "tfrag_textures", 0x30, TRUE }, { "moby_textures", 0x38, TRUE },
  { "tie_textures", 0x40, TRUE }, { "shrub_textures", 0x48, TRUE },
  { "part_textures", 0x50, TRUE }, { "fx_textures", 0x58, TRUE },
  { "textures_base", 0x60, FALSE }, { "part_bank", 0x64, FALSE },
  { "fx_bank", 0x68, FALSE }, { "part_defs", 0x6c, FALSE },
  { "sound_remap", 0x70, FALSE }, { "unknown_74", 0x74, FALSE },
  { "ratchet_seqs", 0x78, FALSE }, { "scene_view_size", 0x7c, FALSE },
  { "unknown_80", 0x80, FALSE }, { "moby_gs_stash_count", 0x84, FALSE },
  { "compressed_size", 0x88, FALSE }, { "decompressed_size", 0x8c, FALSE },
  { "chrome_map_texture", 0x90, FALSE }, { "chrome_map_palette", 0x94, FALSE },
  { "glass_map_texture", 0x98, FALSE }, { "glass_map_palette", 0x9c, FALSE },
  { "unknown_a0", 0xa0, FALSE }, { "heightmap", 0xa4, FALSE },
  { "occlusion_oct", 0xa8, FALSE }, { "moby_gs_stash_list", 0xac, FALSE },
  { "occlusion_rad", 0xb0, FALSE }, { "moby_sound_remap", 0xb4, FALSE },
  { "occlusion_rad2", 0xb8, FALSE }, { NULL, 0, FALSE },
};

gboolean
wk_rc2_level_sniff (const guint8 *head, gsize n)
{
  if (n < WK_RC2_SNIFF_SIZE)
    return FALSE;
  const guint32 size = wk_le32 (head);
  return size == WK_RC2_HEADER || size == WK_RC2_HEADER_PAL;
}

void
wk_rc2_level_free (WkRc2Level *lvl)
{
  if (lvl == NULL)
    return;
  wk_tfrags_base_free (lvl->tfrags_base); /* before the map its block is in */
  for (guint i = 0; i < G_N_ELEMENTS (lvl->restream_maps); i++)
    wk_rc2_restream_map_free (lvl->restream_maps[i]);
  g_clear_pointer (&lvl->bytes, g_bytes_unref);
  g_free (lvl);
}

const guint8 *
wk_rc2_data (const WkRc2Level *lvl)
{
  return g_bytes_get_data (lvl->bytes, NULL);
}

const WkRc2Extent *
wk_rc2_extent (const WkRc2Level *lvl, const char *name)
{
  for (guint i = 0; i < lvl->n_extents; i++)
    if (strcmp (lvl->extents[i].name, name) == 0)
      return &lvl->extents[i];
  return NULL;
}

const WkRc2Section *
wk_rc2_section (const WkRc2Level *lvl, const char *name)
{
  for (guint i = 0; i < WK_RC2_SECTIONS; i++)
    if (strcmp (lvl->sections[i].name, name) == 0)
      return &lvl->sections[i];
  return NULL;
}

static gboolean
parse_extents (WkRc2Level *lvl, const guint8 *data, gsize size, GError **error)
{
  const Slot *slot = lvl->header_size == 0x60 ? slots_60 : slots_68;
  for (; slot->name; slot++)
    {
      WkRc2Extent *x = &lvl->extents[lvl->n_extents++];
      x->name = slot->name;
      x->slot = slot->at;
      x->sector = wk_les32 (data + slot->at);
      x->sectors = wk_les32 (data + slot->at + 4);
      if (x->sector < 0 || x->sectors < 0)
        {
          wk_set_error (error, WK_ERROR_FORMAT, slot->at,
                        "extent %s: negative sector pair %d + %d", x->name,
                        x->sector, x->sectors);
          return FALSE;
        }
      if (x->sectors == 0)
        continue;
      guint64 off = (guint64) x->sector * WK_RC2_SECTOR;
      guint64 len = (guint64) x->sectors * WK_RC2_SECTOR;
      if (off < lvl->header_size || off + len > size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, slot->at,
                        "extent %s: sectors %d + %d are bytes 0x%" G_GINT64_MODIFIER
                        "x..0x%" G_GINT64_MODIFIER "x, outside the %" G_GSIZE_FORMAT
                        "-byte file after its header", x->name, x->sector,
                        x->sectors, off, off + len, size);
          return FALSE;
        }
      x->offset = (gsize) off;
      x->size = (gsize) len;
    }
  return TRUE;
}

static gboolean
parse_sections (WkRc2Level *lvl, const guint8 *file, GError **error)
{
  const WkRc2Extent *data = wk_rc2_extent (lvl, "data");
  if (data->size < WK_RC2_DATA_HEADER)
    {
      wk_set_error (error, WK_ERROR_FORMAT, (gint64) data->offset,
                    "data extent of %" G_GSIZE_FORMAT " bytes cannot hold its "
                    "0x58-byte header", data->size);
      return FALSE;
    }
  const guint8 *p = file + data->offset;
  for (guint i = 0; i < WK_RC2_SECTIONS; i++)
    {
      WkRc2Section *s = &lvl->sections[i];
      gint32 off = wk_les32 (p + sections[i].at);
      gint32 len = wk_les32 (p + sections[i].at + 4);
      s->name = sections[i].name;
      gint64 at = (gint64) (data->offset + sections[i].at);
      if (len == 0)
        continue;
      if (off < 0 || len < 0 || (guint64) off + (guint64) len > data->size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, at,
                        "section %s: bytes %d + %d lie outside the %"
                        G_GSIZE_FORMAT "-byte data extent", s->name, off, len,
                        data->size);
          return FALSE;
        }
      s->offset = data->offset + (gsize) off;
      s->size = (gsize) len;
    }
  return TRUE;
}

static gboolean
parse_core_header (WkRc2Level *lvl, const guint8 *file, GError **error)
{
  const WkRc2Section *idx = wk_rc2_section (lvl, "core_index");
  if (idx->size < WK_RC2_CORE_HEADER)
    {
      wk_set_error (error, WK_ERROR_FORMAT, (gint64) idx->offset,
                    "core_index of %" G_GSIZE_FORMAT " bytes cannot hold the "
                    "0xbc-byte core header", idx->size);
      return FALSE;
    }
  for (guint i = 0; i < WK_RC2_CORE_HEADER / 4; i++)
    lvl->core[i] = wk_les32 (file + idx->offset + 4 * i);

  const WkRc2Section *cd = wk_rc2_section (lvl, "core_data");
  if (cd->size == 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT,
                    (gint64) wk_rc2_extent (lvl, "data")->offset + 0x48,
                    "the data extent has no core_data");
      return FALSE;
    }
  if (!wk_lz_header (file + cd->offset, cd->size, (gint64) cd->offset,
                     &lvl->core_stream_size, error))
    {
      wk_error_prefix (error, "core_data");
      return FALSE;
    }
  gint32 csize = WK_RC2_CORE (lvl, WK_RC2_COMPRESSED_SIZE);
  gint32 dsize = WK_RC2_CORE (lvl, WK_RC2_DECOMPRESSED_SIZE);
  gint64 at = (gint64) idx->offset;
  if (csize < 0 || (gsize) csize != lvl->core_stream_size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, at + WK_RC2_COMPRESSED_SIZE,
                    "core header says core_data is %d bytes compressed, its "
                    "WAD-LZ header says %" G_GSIZE_FORMAT, csize,
                    lvl->core_stream_size);
      return FALSE;
    }
  if (dsize < 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, at + WK_RC2_DECOMPRESSED_SIZE,
                    "negative decompressed size %d", dsize);
      return FALSE;
    }
  /* Region offsets into the decompressed core_data: strictly increasing. */
  static const guint order[] = { 0x08, 0x0c, 0x10, 0x14, 0x60 };
  static const char *const names[] = { "tfrags", "occlusion", "sky",
                                       "collision", "textures_base" };
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      gint32 v = WK_RC2_CORE (lvl, order[i]);
      gint32 before = i ? WK_RC2_CORE (lvl, order[i - 1]) : -1;
      if (v <= before || v > dsize || (v == dsize && i < 4))
        {
          wk_set_error (error, WK_ERROR_FORMAT, at + order[i],
                        "core header %s offset %d is not after %s (%d) and "
                        "inside the %d bytes of core_data", names[i], v,
                        i ? names[i - 1] : "the start", before, dsize);
          return FALSE;
        }
    }
  return TRUE;
}

WkRc2Level *
wk_rc2_level_parse (GBytes *bytes, GError **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr (WkRc2Level) lvl = g_new0 (WkRc2Level, 1);
  lvl->bytes = g_bytes_ref (bytes);
  if (size < 4)
    {
      wk_set_error (error, WK_ERROR_FORMAT, 0, "file of %" G_GSIZE_FORMAT
                    " bytes has no level header", size);
      wk_error_prefix (error, "RC2 level");
      return NULL;
    }
  lvl->header_size = wk_le32 (data);
  if (lvl->header_size != WK_RC2_HEADER && lvl->header_size != WK_RC2_HEADER_PAL)
    {
      wk_set_error (error, WK_ERROR_FORMAT, 0,
                    "header size 0x%x is neither 0x60 nor 0x68", lvl->header_size);
      wk_error_prefix (error, "RC2 level header");
      return NULL;
    }
  if (size < lvl->header_size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, 0, "0x%x-byte header, file has %"
                    G_GSIZE_FORMAT " bytes", lvl->header_size, size);
      wk_error_prefix (error, "RC2 level header");
      return NULL;
    }
  lvl->sector = wk_les32 (data + 4);
  lvl->id = wk_les32 (data + 8);
  lvl->reverb = wk_les32 (data + (lvl->header_size == 0x60 ? 0x0c : 0x4c));
  if (!parse_extents (lvl, data, size, error))
    {
      wk_error_prefix (error, "RC2 level header");
      return NULL;
    }
  if (wk_rc2_extent (lvl, "data")->size == 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, wk_rc2_extent (lvl, "data")->slot,
                    "the level has no data extent");
      wk_error_prefix (error, "RC2 level header");
      return NULL;
    }
  if (!parse_sections (lvl, data, error))
    {
      wk_error_prefix (error, "RC2 data extent");
      return NULL;
    }
  if (!parse_core_header (lvl, data, error))
    {
      wk_error_prefix (error, "RC2 core");
      return NULL;
    }
  return g_steal_pointer (&lvl);
}

gboolean
wk_rc2_chunk (const WkRc2Level *lvl, guint i, gint32 *tfrags, gint32 *collision)
{
  char name[8];
  g_snprintf (name, sizeof name, "chunk%u", i);
  const WkRc2Extent *x = wk_rc2_extent (lvl, name);
  if (x == NULL || x->size < 8)
    return FALSE;
  *tfrags = wk_les32 (wk_rc2_data (lvl) + x->offset);
  *collision = wk_les32 (wk_rc2_data (lvl) + x->offset + 4);
  return TRUE;
}

/* "chunk<i>.tfrags" / "chunk<i>.collision": the chunk extent opens with
 * {s32 tfrags, s32 collision}, offsets of WAD-LZ streams from the extent's
 * start (0 = none), each running at most to the extent's end. */
static gboolean
chunk_stream (const WkRc2Level *lvl, const char *name, gsize *offset,
              gsize *size, GError **error)
{
  g_autofree gchar *ext = g_strndup (name, (gsize) (strchr (name, '.') - name));
  const char *part = strchr (name, '.') + 1;
  const WkRc2Extent *x = wk_rc2_extent (lvl, ext);
  gboolean tfrags = strcmp (part, "tfrags") == 0;
  if (x == NULL || (!tfrags && strcmp (part, "collision") != 0))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "no %s stream: chunk0..2 "
                    "with .tfrags or .collision", name);
      return FALSE;
    }
  if (x->size < 8)
    {
      wk_set_error (error, WK_ERROR_FORMAT, x->slot, "the %s extent is empty", ext);
      wk_error_prefix (error, "RC2 level header");
      return FALSE;
    }
  const guint8 *h = wk_rc2_data (lvl) + x->offset;
  gint32 at = wk_les32 (h + (tfrags ? 0 : 4));
  if (at <= 0 || (gsize) at >= x->size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, (gint64) x->offset + (tfrags ? 0 : 4),
                    "%s offset %d: %s", part, at, at == 0 ? "the chunk has none"
                    : "outside the chunk extent");
      wk_error_prefix (error, "RC2 %s", ext);
      return FALSE;
    }
  *offset = x->offset + (gsize) at;
  *size = x->size - (gsize) at;
  return TRUE;
}

gboolean
wk_rc2_stream (const WkRc2Level *lvl, const char *name, gsize *offset,
               gsize *size, gint64 *expected, GError **error)
{
  *expected = -1;
  if (strcmp (name, "core_data") == 0)
    {
      const WkRc2Section *cd = wk_rc2_section (lvl, "core_data");
      *offset = cd->offset;
      *size = cd->size;
      *expected = WK_RC2_CORE (lvl, WK_RC2_DECOMPRESSED_SIZE);
      return TRUE;
    }
  if (g_str_has_prefix (name, "chunk") && strchr (name, '.'))
    return chunk_stream (lvl, name, offset, size, error);
  const WkRc2Extent *x = wk_rc2_extent (lvl, name);
  if (x == NULL || !g_str_has_prefix (name, "gameplay"))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "no %s stream in a 0x%x-byte "
                    "level header (core_data, gameplay%s)", name,
                    lvl->header_size, lvl->header_size == 0x68 ? ", gameplay_pal" : "");
      return FALSE;
    }
  if (x->size == 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, x->slot, "the %s extent is empty", name);
      wk_error_prefix (error, "RC2 level header");
      return FALSE;
    }
  *offset = x->offset;
  *size = x->size;
  return TRUE;
}

gboolean
wk_rc2_tfrag_texture_count (const WkRc2Level *lvl, guint *count, GError **error)
{
  const gint64 n = WK_RC2_CORE (lvl, 0x30);
  if (n < 0)
    { /* -1 would switch the texture-index check of the parse off */
      wk_set_error (error, WK_ERROR_FORMAT,
                    (gint64) wk_rc2_section (lvl, "core_index")->offset + 0x30,
                    "tfrag texture count %" G_GINT64_FORMAT " is negative", n);
      wk_error_prefix (error, "RC2 core header");
      return FALSE;
    }
  *count = (guint) n;
  return TRUE;
}

/* The blocks of core_data with no stored size: where each starts (a core
 * header field) and what ends it (docs/formats/rc2.md "The core header";
 * rc2-collision-sky.md "Sky", "Collision"). */
static const struct {
  const char *name;
  guint field;
  guint end;          /* the field that ends it; 0: the first of after[] past it */
  const char *end_name;
} core_blocks[] = {
  { "tfrags", 0x08, 0, NULL },
  { "sky", 0x10, 0x14, "collision" },
  { "collision", 0x14, 0x60, "textures_base" },
};

gboolean
wk_rc2_core_block (const WkRc2Level *lvl, const char *name, gsize core_size,
                   gsize *start, gsize *end, GError **error)
{
  guint b = 0;
  while (b < G_N_ELEMENTS (core_blocks) && strcmp (core_blocks[b].name, name) != 0)
    b++;
  if (b == G_N_ELEMENTS (core_blocks))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "no core data block '%s' "
                    "(tfrags, sky, collision)", name);
      return FALSE;
    }
  const gsize header_at = wk_rc2_section (lvl, "core_index")->offset;
  const guint field = core_blocks[b].field;
  const gint64 s = WK_RC2_CORE (lvl, field);
  if (s < 0 || (guint64) s > core_size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, (gint64) header_at + field,
                    "%s offset 0x%" G_GINT64_MODIFIER "x lies outside the %"
                    G_GSIZE_FORMAT "-byte core data", name, s, core_size);
      wk_error_prefix (error, "RC2 core header");
      return FALSE;
    }
  gint64 stop = (gint64) core_size;
  if (core_blocks[b].end == 0)
    {
      static const guint after[3] = { 0x0c, 0x10, 0x14 }; /* occlusion, sky, collision */
      for (int k = 0; k < 3; k++)
        {
          const gint64 v = WK_RC2_CORE (lvl, after[k]);
          if (v > s && v < stop)
            stop = v;
        }
    }
  else
    {
      stop = WK_RC2_CORE (lvl, core_blocks[b].end);
      if (stop < s || (guint64) stop > core_size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) header_at + core_blocks[b].end,
                        "%s offset 0x%" G_GINT64_MODIFIER "x (the end of the %s "
                        "block at 0x%" G_GINT64_MODIFIER "x) lies outside 0x%"
                        G_GINT64_MODIFIER "x..0x%" G_GSIZE_MODIFIER "x",
                        core_blocks[b].end_name, stop, name, s, s, core_size);
          wk_error_prefix (error, "RC2 core header");
          return FALSE;
        }
    }
  *start = (gsize) s;
  *end = (gsize) stop;
  return TRUE;
}

gboolean
wk_rc2_tfrag_block (const WkRc2Level *lvl, gsize core_size, gsize *start,
                    gsize *end, guint *texture_count, GError **error)
{
  return wk_rc2_tfrag_texture_count (lvl, texture_count, error)
         && wk_rc2_core_block (lvl, "tfrags", core_size, start, end, error);
}
