/* Writing an edited RC2 level back: new blocks put into their regions of
 * core_data (regions never move), the changed WAD-LZ streams recompressed
 * (rc2_restream.c), the data extent's sections and the file's extents
 * laid out again in their stored order, their pairs, the 0x60 / 0x68
 * header and the core header's compressed size recomputed; every byte the
 * edit did not reach is copied. The result is parsed again and every
 * stream decoded and compared with what went in before it is returned.
 * See docs/formats/rc2-writing.md ("Saving a level"). */
#pragma once
#include <glib.h>

#include "rc2_level.h"
#include "rc2_restream.h"
#include "tfrag_edit.h"

G_BEGIN_DECLS

typedef struct {
  /* a new tfrags block (at most its region of core_data), or NULL */
  const guint8 *tfrags;
  gsize tfrags_size;
  /* a new collision block (at most its region), or NULL */
  const guint8 *collision;
  gsize collision_size;
  /* the new decompressed gameplay (NTSC) and PAL gameplay, or NULL */
  const guint8 *gameplay;
  gsize gameplay_size;
  const guint8 *gameplay_pal;
  gsize gameplay_pal_size;
} WkRc2Rewrite;

typedef struct {
  WkRestreamInfo core_data, gameplay, gameplay_pal;
} WkRc2RewriteInfo;

/* Byte ranges of core_data's tfrags and collision regions (from the core
 * header: a region runs to the next region offset after it). */
void wk_rc2_core_region (const WkRc2Level *lvl, const char *name, gsize *start,
                         gsize *end);

GBytes *wk_rc2_level_rewrite (const WkRc2Level *lvl, const WkRc2Rewrite *rw,
                              WkRc2RewriteInfo *info, GError **error);

/* The level's tfrags block (wk_rc2_tfrag_block of its decoded core_data)
 * edited as wk_tfrags_edit edits it, with the level's tfrag texture count
 * (edit->texture_count is not read): the same bytes. The decoded core_data
 * and the block's parse are made at the first call and kept on the level
 * (a level's bytes never change), shared with wk_rc2_level_rewrite.
 * *status: a new array, one per patch (*n_patches). */
GBytes *wk_rc2_level_tfrags_edit (const WkRc2Level *lvl, const WkTfragEdit *edit,
                                  guint8 **status, guint *n_patches, GError **error);

/* Check a level file the way the rewrite checks its result (parse, every
 * stream decoding to its declared size) and write it atomically. checked:
 * these very bytes (held in memory, immutable) passed that check before
 * (the rewrite returned them, or an earlier save checked them): written
 * without checking again. */
gboolean wk_rc2_level_save (GBytes *bytes, const char *path, gboolean checked,
                            GError **error);

G_END_DECLS
