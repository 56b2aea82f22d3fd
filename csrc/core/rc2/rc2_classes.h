/* RC2 core class tables: the moby, tie and shrub classes of a level.
 *
 * The core header (start of core_index) holds {count, offset} of each table
 * in core_index: moby (0x18) and tie (0x20) entries of 0x20 bytes, shrub
 * (0x28) entries of 0x30: {s32 offset into the decompressed core_data (0 =
 * no data there), s32 class number, two words, u8 textures[16] (indices
 * into the kind's texture table, 0xff = none)}, shrubs then 8 s16 of
 * billboard info. A class's data has no stored size: it runs to the next
 * block boundary of core_data. See docs/formats/rc2-gameplay.md ("Core class
 * tables"). */
#pragma once
#include <glib.h>

#include "rc2_gameplay.h" /* WkRc2Kind */

G_BEGIN_DECLS

/* Where a kind's tables sit: {count, offset} of the class table (moby
 * 0x18, tie 0x20, shrub 0x28) and of its texture table in the core
 * header, and the entry size (0x20; shrubs 0x30). WkRc2Kind order. */
typedef struct {
  const char *name;
  guint table;
  guint textures;
  guint entry;
} WkRc2ClassTableDef;
extern const WkRc2ClassTableDef wk_rc2_class_table_defs[WK_RC2_KINDS];
#define WK_RC2_CLASS_ENTRY_BILLBOARD 0x20u /* shrubs: 8 s16 of billboard info */

typedef struct {
  gint32 id;            /* the class number (o_class) */
  gint32 offset;        /* into the decompressed core_data; 0 = none */
  gsize size;           /* to the next block boundary; 0 when offset is 0 */
  gint32 word_8, word_c;
  guint8 textures[16];  /* as stored */
  guint n_textures;     /* entries before the first 0xff */
  gint16 billboard[8];  /* shrubs only (zero otherwise) */
  gsize entry;          /* offset of the entry in core_index */
} WkRc2Class;

typedef struct {
  GArray *tables[WK_RC2_KINDS];  /* WkRc2Class, in table order */
} WkRc2Classes;

/* Parse the three tables from core_index (which starts with the core
 * header); base = file offset of core_index[0], for errors. Checks: tables
 * inside core_index after the header; data offsets 0 or inside core_data
 * and strictly increasing (the non-zero ones) in each table; texture
 * indices inside the kind's texture table. */
WkRc2Classes *wk_rc2_classes_parse (const guint8 *index, gsize size, gint64 base,
                                    GError **error);
void wk_rc2_classes_free (WkRc2Classes *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkRc2Classes, wk_rc2_classes_free)

G_END_DECLS
