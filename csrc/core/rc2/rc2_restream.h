/* Recompressing an edited WAD-LZ stream without compressing all of it:
 * the old stream's 0x2000-byte blocks that decode to bytes the edit left
 * alone are kept, and in the blocks between them every old packet that
 * still gives the new bytes; only the rest is compressed again (with the
 * game-safe encoder, csrc/core/lz/), each rewritten run of blocks ending
 * on a block boundary. The result is checked with the validator and
 * decoded back by the caller; when any of that fails the whole input is
 * compressed.
 * See docs/formats/rc2-writing.md ("Saving a level"). It uses only the public
 * decoder, packet reader and encoder of csrc/core/lz/. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  gsize kept_before, kept_after;   /* old stream bytes reused */
  gsize compressed;                /* plain bytes compressed again */
  gboolean whole;                  /* fell back to compressing everything */
} WkRestreamInfo;

/* An old stream decoded one block at a time: plain (what it decodes to),
 * plain_at[k] what blocks 0..k-1 produce (k = 0..nb), after_run[k]
 * whether block k-1 ended on a literal run. mapped FALSE: the stream
 * could not be walked block by block (it is still decoded). */
typedef struct {
  const guint8 *stream;
  gsize declared;
  GBytes *plain;
  gsize *plain_at;
  gboolean *after_run;
  guint nb;
  gboolean mapped;
} WkRestreamMap;

/* Decode the stream at old (size bytes available; base its file offset
 * for errors); expected >= 0: the size it must decode to. max: a cap on
 * its output. FormatError when it is broken. */
WkRestreamMap *wk_rc2_restream_map (const guint8 *old, gsize size, gint64 base,
                                    gint64 expected, gsize max, GError **error);
void wk_rc2_restream_map_free (WkRestreamMap *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkRestreamMap, wk_rc2_restream_map_free)

/* A stream of new_plain reusing what it can of the mapped old stream
 * (splice FALSE: compress it all). The caller checks it with the
 * validator and decodes it back (rc2_save.c), and compresses it all when
 * either fails. */
GBytes *wk_rc2_restream (const WkRestreamMap *m, const guint8 *new_plain, gsize new_n,
                         gboolean splice, WkRestreamInfo *info, GError **error);

/* The encoder level RC2 saves recompress with (the fastest game-safe one). */
#define WK_RC2_LZ_MODE WK_LZ_FAST

G_END_DECLS
