/* Recompressing an edited WAD-LZ stream without compressing all of it:
 * the old stream's 0x2000-byte blocks that decode to bytes the edit left
 * alone are kept, only the bytes between them are compressed again (with
 * the game-safe encoder, csrc/core/lz/), the new part laid out to start
 * and end on a block boundary. The result is checked with the validator
 * and decoded back; when any of that fails the whole input is compressed.
 * See docs/formats/rc2.md ("Saving a level"). [This is WAD-LZ knowledge
 * kept outside csrc/core/lz/ while that folder is rewritten; it only uses
 * the public decoder, encoder and validator.] */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  gsize kept_before, kept_after;   /* old stream bytes reused */
  gsize compressed;                /* plain bytes compressed again */
  gboolean whole;                  /* fell back to compressing everything */
} WkRestreamInfo;

/* old: a WAD-LZ stream (its header's size) that decodes to old_plain;
 * returns a game-safe stream of new_plain. */
GBytes *wk_rc2_restream (const guint8 *old, gsize old_size, const guint8 *old_plain,
                         gsize old_n, const guint8 *new_plain, gsize new_n,
                         WkRestreamInfo *info, GError **error);

/* The encoder mode every RC2 writer uses. */
#define WK_RC2_LZ_MODE WK_LZ_BEST

G_END_DECLS
