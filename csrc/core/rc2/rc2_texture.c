#include "rc2_texture.h"

#include "../common/wk_error.h"
#include "../common/wk_reader.h"

#define TEXTURES_BASE 0x60u

/* The core header's texture tables, each {count, offset into core_index}
 * (docs/formats/rc2.md, "The core header"). */
static const struct { const char *kind; guint header; } TABLES[] = {
  { "tfrag", 0x30u }, { "moby", 0x38u }, { "tie", 0x40u }, { "shrub", 0x48u },
};

gboolean
wk_rc2_texture_kind (const char *kind, guint *header)
{
  for (gsize i = 0; i < G_N_ELEMENTS (TABLES); i++)
    if (g_strcmp0 (kind, TABLES[i].kind) == 0)
      {
        *header = TABLES[i].header;
        return TRUE;
      }
  return FALSE;
}

void
wk_rc2_tex_entry_decode (const guint8 raw[WK_RC2_TEXTURE_ENTRY], WkRc2TexEntry *e)
{
  e->data = (gint32) wk_le32 (raw);
  e->width = wk_les16 (raw + 4);
  e->height = wk_les16 (raw + 6);
  e->type = wk_les16 (raw + 8);
  e->palette = wk_les16 (raw + 10);
  e->mipmap = wk_les16 (raw + 12);
  e->pad = wk_les16 (raw + 14);
}

void
wk_rc2_tex_entry_encode (const WkRc2TexEntry *e, GByteArray *out)
{
  wk_put_u32 (out, (guint32) e->data);
  wk_put_u16 (out, (guint16) e->width);
  wk_put_u16 (out, (guint16) e->height);
  wk_put_u16 (out, (guint16) e->type);
  wk_put_u16 (out, (guint16) e->palette);
  wk_put_u16 (out, (guint16) e->mipmap);
  wk_put_u16 (out, (guint16) e->pad);
}

GArray *
wk_rc2_textures (const WkRc2Level *lvl, const char *kind, const guint8 *core_data,
                 gsize core_size, GError **error)
{
  guint table;
  if (!wk_rc2_texture_kind (kind, &table))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "no %s texture table (one of "
                    "tfrag, moby, tie, shrub)", kind);
      return NULL;
    }
  const WkRc2Section *index = wk_rc2_section (lvl, "core_index");
  const WkRc2Section *gs = wk_rc2_section (lvl, "gs_ram");
  const gint64 count = WK_RC2_CORE (lvl, table);
  const gint64 offset = WK_RC2_CORE (lvl, table + 4);
  const gint64 base = WK_RC2_CORE (lvl, TEXTURES_BASE);
  const gint64 header_at = (gint64) index->offset + table;
  if (count < 0 || offset < 0
      || offset + count * (gint64) WK_RC2_TEXTURE_ENTRY > (gint64) index->size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, header_at,
                    "%s texture table (%" G_GINT64_FORMAT " entries at 0x%"
                    G_GINT64_MODIFIER "x) runs past the %" G_GSIZE_FORMAT
                    "-byte core index", kind, count, offset, index->size);
      wk_error_prefix (error, "RC2 core header");
      return NULL;
    }
  const guint8 *file = wk_rc2_data (lvl);
  const guint8 *gs_ram = gs->size ? file + gs->offset : NULL;
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (WkRc2Texture), (guint) count);
  for (gint64 i = 0; i < count; i++)
    {
      const gint64 at = offset + i * WK_RC2_TEXTURE_ENTRY;
      WkRc2TexEntry e;
      wk_rc2_tex_entry_decode (file + index->offset + at, &e);
      const gint64 px = base + e.data;
      const gint64 pal = (gint64) e.palette * WK_RC2_PALETTE_UNIT;
      if (e.width <= 0 || e.height <= 0 || e.data < 0 || px < 0
          || px + (gint64) e.width * e.height > (gint64) core_size
          || e.palette < 0 || pal + (gint64) WK_RC2_PALETTE_BYTES > (gint64) gs->size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) index->offset + at,
                        "%s texture %" G_GINT64_FORMAT ": %dx%d pixels at "
                        "core_data 0x%" G_GINT64_MODIFIER "x or palette %d "
                        "(gs_ram 0x%" G_GINT64_MODIFIER "x) out of range", kind, i,
                        e.width, e.height, px, e.palette, pal);
          wk_error_prefix (error, "RC2 %s textures", kind);
          g_array_unref (out);
          return NULL;
        }
      WkRc2Texture t = { (guint) e.width, (guint) e.height, core_data + px,
                         gs_ram + pal };
      g_array_append_val (out, t);
    }
  return out;
}
