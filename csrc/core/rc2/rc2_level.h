/* RC2 (Ratchet & Clank: Going Commando, PS2) LEVEL<n>.WAD container.
 *
 * A level header (0x60 bytes, or the 0x68 variant) of {offset, size} pairs
 * in 2048-byte sectors relative to the file start; the `data` extent opens
 * with {offset, size} pairs in bytes relative to itself; its core_index
 * starts with the 0xbc-byte core header; core_data and the gameplay extent
 * are WAD-LZ streams. Every size is checked against an independent number
 * the file gives. See docs/formats/rc2.md. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_RC2_SECTOR 2048u
#define WK_RC2_HEADER 0x60u        /* the level header's size field */
#define WK_RC2_HEADER_PAL 0x68u    /* the variant with gameplay_pal */
#define WK_RC2_SNIFF_SIZE 16       /* bytes wk_rc2_level_sniff needs */
#define WK_RC2_CORE_HEADER 0xbcu
#define WK_RC2_DATA_HEADER 0x58u
#define WK_RC2_MAX_EXTENTS 11
#define WK_RC2_SECTIONS 11

typedef struct {
  const char *name;      /* "data", "gameplay", "chunk0", ... */
  gint32 sector, sectors; /* as stored */
  gsize offset, size;    /* bytes from the file start; size 0 = absent */
  guint slot;            /* offset of its pair in the level header */
} WkRc2Extent;

typedef struct {
  const char *name;      /* "overlay", "core_index", "hud_bank0", ... */
  gsize offset, size;    /* absolute file bytes; size 0 = absent */
} WkRc2Section;

typedef struct {
  GBytes *bytes;
  guint32 header_size;   /* 0x60 or 0x68 */
  gint32 sector, id, reverb;
  WkRc2Extent extents[WK_RC2_MAX_EXTENTS];
  guint n_extents;
  WkRc2Section sections[WK_RC2_SECTIONS];
  gint32 core[WK_RC2_CORE_HEADER / 4]; /* the core header's words as stored */
  gsize core_stream_size;  /* core_data's WAD-LZ size field */
  /* rc2_save.c's maps of core_data, gameplay, gameplay_pal (WkRestreamMap,
   * made at the first rewrite; the bytes never change) */
  gpointer restream_maps[3];
  /* rc2_save.c's parse of the tfrags block in the core_data map's plain
   * bytes (WkTfragsBase, made at the first terrain edit) */
  gpointer tfrags_base;
} WkRc2Level;

/* TRUE when head (the file's first n bytes) looks like an RC2 level: it
 * starts with the header size, WK_RC2_HEADER or WK_RC2_HEADER_PAL. */
gboolean wk_rc2_level_sniff (const guint8 *head, gsize n);

/* Parse and cross-check the container (no decompression). Takes a
 * reference on bytes. */
WkRc2Level *wk_rc2_level_parse (GBytes *bytes, GError **error);
void wk_rc2_level_free (WkRc2Level *lvl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkRc2Level, wk_rc2_level_free)

const WkRc2Extent *wk_rc2_extent (const WkRc2Level *lvl, const char *name);
const WkRc2Section *wk_rc2_section (const WkRc2Level *lvl, const char *name);
const guint8 *wk_rc2_data (const WkRc2Level *lvl);

/* Core header fields by name: offset in the header; is_range for
 * {count, offset} pairs. NULL-terminated. */
typedef struct {
  const char *name;
  guint offset;
  gboolean is_range;
} WkRc2CoreField;
extern const WkRc2CoreField wk_rc2_core_fields[];

#define WK_RC2_CORE(lvl, off) ((lvl)->core[(off) / 4])
#define WK_RC2_COMPRESSED_SIZE 0x88
#define WK_RC2_DECOMPRESSED_SIZE 0x8c

/* The tfrags block of core_data (it has no stored size): from the core
 * header's tfrags offset (0x08) to the first of the occlusion, sky and
 * collision offsets after it, or to the end of core_data; and the tfrag
 * texture count (0x30). FORMAT error when the offset lies outside
 * core_data or the count is negative. */
gboolean wk_rc2_tfrag_block (const WkRc2Level *lvl, gsize core_size,
                             gsize *start, gsize *end, guint *texture_count,
                             GError **error);

/* A block of core_data that has no stored size: "tfrags" (as above), "sky"
 * (from its offset, 0x10, to the collision offset, 0x14) or "collision"
 * (to textures_base, 0x60). FORMAT error naming the core header field
 * when the block does not lie in core_size bytes; ARGUMENT for another name. */
gboolean wk_rc2_core_block (const WkRc2Level *lvl, const char *name, gsize core_size,
                            gsize *start, gsize *end, GError **error);

/* The tfrag texture count alone (0x30; also the count of the tfrags of
 * the chunk extents): FORMAT error when it is negative. */
gboolean wk_rc2_tfrag_texture_count (const WkRc2Level *lvl, guint *count,
                                     GError **error);

/* Where a WAD-LZ stream of the level lies and what it must decode to
 * (expected < 0: no declared size). name: "core_data", "gameplay",
 * "gameplay_pal", "chunk<i>.tfrags", "chunk<i>.collision". FALSE with an
 * error when the level has no such stream. */
gboolean wk_rc2_stream (const WkRc2Level *lvl, const char *name, gsize *offset,
                        gsize *size, gint64 *expected, GError **error);

/* The chunk extent i (0..2) header {s32 tfrags, s32 collision}: offsets of
 * WAD-LZ streams from the extent start, 0 = none. FALSE when the extent
 * is absent. */
gboolean wk_rc2_chunk (const WkRc2Level *lvl, guint i, gint32 *tfrags,
                       gint32 *collision);

G_END_DECLS
