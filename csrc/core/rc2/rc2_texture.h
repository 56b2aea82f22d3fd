/* RC2 textures: the 16-byte texture-table entry of the core index, the
 * GS's CLUT order and the tfrag texture table of a level. Read here, and
 * written by rc2_build.c with the same entry code. docs/formats/rc2-tfrag.md
 * "Textures". */
#pragma once
#include <glib.h>

#include "rc2_level.h"

G_BEGIN_DECLS

#define WK_RC2_TEXTURE_ENTRY 16u   /* one texture-table entry */
#define WK_RC2_PALETTE_BYTES 1024u /* 256 × RGBA32 */
#define WK_RC2_PALETTE_UNIT 0x100u /* an entry's palette field counts these */

/* {s32 data, s16 width, height, type, palette, mipmap, pad}: data is the
 * texels' offset from the core header's textures_base in core_data,
 * palette the CLUT's offset in gs_ram in WK_RC2_PALETTE_UNIT bytes. */
typedef struct {
  gint32 data;
  gint16 width, height, type, palette, mipmap, pad;
} WkRc2TexEntry;

void wk_rc2_tex_entry_decode (const guint8 raw[WK_RC2_TEXTURE_ENTRY],
                              WkRc2TexEntry *e);
void wk_rc2_tex_entry_encode (const WkRc2TexEntry *e, GByteArray *out);

/* Where the GS keeps colour i of a 256-colour CLUT: index bits 3 and 4
 * swapped (its own inverse). */
static inline guint
wk_rc2_clut_index (guint i)
{
  return (((i & 0x10) >> 1) != (i & 0x08)) ? i ^ 0x18 : i;
}

/* One tfrag texture of a level: width × height 8-bit texels in core_data
 * and its CLUT (WK_RC2_PALETTE_BYTES in CLUT order) in gs_ram. */
typedef struct {
  guint width, height;
  const guint8 *pixels;
  const guint8 *palette;
} WkRc2Texture;

/* A texture table of the core header ("tfrag" 0x30, "moby" 0x38, "tie"
 * 0x40, "shrub" 0x48: {count, offset} in the core index), every entry checked against core_data (its decompressed bytes)
 * and gs_ram. A GArray of WkRc2Texture pointing into core_data and the
 * level's bytes; NULL with a FORMAT error naming the entry. */
GArray *wk_rc2_textures (const WkRc2Level *lvl, const char *kind,
                         const guint8 *core_data, gsize core_size, GError **error);
/* The core-header offset of a texture table kind ("tfrag", "moby", "tie",
 * "shrub"); FALSE for any other name. */
gboolean wk_rc2_texture_kind (const char *kind, guint *header);

G_END_DECLS
