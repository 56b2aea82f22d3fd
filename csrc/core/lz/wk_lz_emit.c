/* WAD-LZ packet layer: tokens (literals, match) to packets, keeping the
 * game's rules (docs/formats/rc2-wadlz.md):
 *  - no two literal runs in a row (a dummy packet `11 0k 00` goes between,
 *    carrying up to 3 literals itself);
 *  - a small literal (1..3 bytes) rides on the match before it, so a literal
 *    run never follows a small literal;
 *  - no packet crosses a 0x2000 block boundary counted from offset 0x10: a
 *    packet that would is preceded by a pad `12 00 00` + 0xEE filler. A pad
 *    is only ever needed in the last 0x120 bytes of a block, where the
 *    disputed pad targets (0x1000 / 0x2000) agree; a literal run that would
 *    need one is cut short instead;
 *  - far matches only up to 0x7fff back, where the disputed far bases agree
 *    (the parsers never produce more). */
#include "wk_lz_enc.h"

#include <string.h>

/* Packets (up to 8 bytes) are built in a guint64, first byte lowest, and
 * stored with one 8-byte write. Built byte by byte in memory and then
 * copied as 8 bytes (a wide load right after narrow stores), a third of
 * the layer's samples fell on that copy (docs/performance-lz.md, round
 * eight). */
typedef struct {
  guint8 *buf;
  gsize len, cap;
  guint64 pend;             /* a match packet waiting for its small literal */
  guint pend_n, pend_shift; /* size, bit offset of the literal count's byte */
  gboolean has_pend;
  gboolean after_run;
} Emit;

/* a if m is all ones, b if it is 0: without a branch (gcc turns some
 * ternaries on data-dependent tests into branches) */
static inline guint64
pick (guint64 m, guint64 a, guint64 b)
{
  return (a & m) | (b & ~m);
}

static inline void
put8 (guint8 *o, guint64 v)
{
  v = GUINT64_TO_LE (v);
  memcpy (o, &v, 8);
}

/* Longest a packet, its pad and filler can be (a pad's filler stops at the
 * block boundary, so < 0x120 bytes, plus a 275-byte run). */
#define ROOM 1024u

static inline void
reserve (Emit *e)
{
  if (G_UNLIKELY (e->cap - e->len < ROOM))
    {
      e->cap = e->cap * 2 + ROOM;
      e->buf = g_realloc (e->buf, e->cap);
    }
}

static inline gsize
block_pos (const Emit *e)
{
  return (e->len - WK_LZ_HEADER) % WK_LZ_BLOCK;
}

/* Where a packet of size bytes goes: after a pad if it would cross a
 * block boundary. The stream position inside a block is always at most
 * BLOCK - 3 (or 0), so a pad fits where a packet does not. */
static inline guint8 *
room_for (Emit *e, gsize size)
{
  reserve (e);
  gsize at = block_pos (e);
  guint8 *o = e->buf + e->len;
  if (G_UNLIKELY (at + size > WK_LZ_BLOCK - 3 && at + size != WK_LZ_BLOCK))
    {
      gsize fill = WK_LZ_BLOCK - at - 3;
      o[0] = 0x12;
      o[1] = o[2] = 0x00;
      memset (o + 3, 0xee, fill);
      o += 3 + fill;
    }
  return o;
}

/* Place a whole packet: its n <= 8 bytes pkt (one 8-byte store: ROOM
 * covers it, and what lies past the packet is overwritten by the next
 * one), then k literals. */
static inline void
place (Emit *e, guint64 pkt, gsize n, const guint8 *lit, gsize k)
{
  guint8 *o = room_for (e, n + k);
  put8 (o, pkt);
  memcpy (o + n, lit, k);
  e->len = (gsize) (o + n + k - e->buf);
}

/* The pending match, carrying k <= 3 literals. */
static inline void
flush_pending (Emit *e, const guint8 *lit, gsize k)
{
  static const guint8 none[1];
  if (!e->has_pend)
    return;
  gsize n = e->pend_n;
  guint8 *o = room_for (e, n + k);
  put8 (o, e->pend | (guint64) k << e->pend_shift);
  /* the literals without a loop or a branch on k: lit[0], lit[k / 2],
   * lit[k - 1] (bytes past k are overwritten later) */
  const guint8 *l = (const guint8 *) (guintptr) pick (-(guint64) (k != 0), (guintptr) lit,
                                                      (guintptr) none);
  o[n] = l[0];
  o[n + 1] = l[k >> 1];
  o[n + 2] = l[k - (k != 0)];
  e->len = (gsize) (o + n + k - e->buf);
  e->has_pend = FALSE;
  e->after_run = FALSE;
}

/* Literals that do not ride on a pending match: runs and dummies. */
static G_GNUC_NO_INLINE void
emit_runs (Emit *e, const guint8 *p, gsize n)
{
  flush_pending (e, NULL, 0);
  while (n > 0)
    {
      if (e->after_run || n <= 3)
        {
          gsize k = n <= 3 ? n : 0;
          place (e, 0x11 | (guint64) k << 8, 3, p, k); /* 11 0k 00 */
          p += k;
          n -= k;
          e->after_run = FALSE;
          continue;
        }
      gsize r = MIN (n, (gsize) WK_LZ_MAX_RUN);
      /* A run that would need a pad is cut to end 3 bytes before the
       * boundary instead; the dummy that must follow fills those 3. */
      gsize at = block_pos (e), space = WK_LZ_BLOCK - 3 - at;
      gsize hdr = r <= 18 ? 1 : 2;
      if (at + hdr + r > WK_LZ_BLOCK - 3 && at + hdr + r != WK_LZ_BLOCK
          && space >= 5 && r > space - 2)
        {
          r = space - (space - 1 <= 18 ? 1 : 2);
          hdr = r <= 18 ? 1 : 2;
        }
      /* r - 3, or 00 and r - 18 */
      place (e, r <= 18 ? r - 3 : (guint64) (r - 18) << 8, hdr, p, r);
      p += r;
      n -= r;
      e->after_run = TRUE;
    }
}

/* Literals (none, too) before the next match or the end. Up to 3 ride
 * on the pending match: its literal count 0 is the same packet as no
 * literals. */
static inline void
emit_literals (Emit *e, const guint8 *p, gsize n)
{
  if (e->has_pend && n <= 3)
    flush_pending (e, p, n);
  else if (n)
    emit_runs (e, p, n);
}

/* A match packet (len 0: a dummy), held back until its small literal is
 * known. */
static inline void
emit_match (Emit *e, gsize len, gsize dist)
{
  flush_pending (e, NULL, 0);
  if (G_UNLIKELY (len == 0)) /* dummy: 11 00 00 (the optimal parse's only) */
    {
      e->pend = 0x11;
      e->pend_shift = 8;
      e->pend_n = 3;
      e->has_pend = TRUE;
      return;
    }
  /* The kind depends on the data (branches on it are mispredicted):
   * every kind's bytes are computed and one is picked. Medium, or far
   * with the high distance bit clear: the kind's byte with a short length,
   * or the kind's byte and a length byte; then the distance field (6 bits
   * shifted by 2, the literal count below them; then 8 bits). */
  gsize d = dist - 1;
  gboolean far = dist > WK_LZ_NEAR_MAX;
  guint64 f = pick (-(guint64) far, dist - WK_LZ_FAR_BASE, d);
  guint64 short_len = far ? 9 : 33, kind = far ? 0x10 : 0x20;
  gboolean longer = len > short_len;
  guint shift = longer ? 16 : 8;
  guint64 head = longer ? kind | (len - short_len) << 8 : kind | (len - 2);
  guint64 q = head | (((f & 0x3f) << 2) | (f >> 6 & 0xff) << 8) << shift;
  /* little: length and the low distance bits, then the rest */
  gboolean little = (len <= WK_LZ_LITTLE_LEN) & (dist <= WK_LZ_LITTLE_DIST);
  guint64 ql = ((len - 1) << 5) | ((d & 7) << 2) | (d >> 3 & 0xff) << 8;
  guint64 lm = -(guint64) little;
  e->pend = pick (lm, ql, q);
  e->pend_shift = (guint) pick (lm, 0, shift);
  e->pend_n = (guint) pick (lm, 2, 3 + longer);
  e->has_pend = TRUE;
}

GByteArray *
wk_lz_layout (GByteArray *o, gboolean after_run, const guint8 *src, gsize start,
              gsize end, WkLzTokens *blocks, guint nblocks)
{
  Emit e = { 0 };
  gsize len;
  e.buf = g_byte_array_steal (o, &len);
  g_byte_array_unref (o);
  e.len = len;
  e.cap = len + (end - start) + (end - start) / 32 + 2 * ROOM;
  e.buf = g_realloc (e.buf, e.cap);
  e.after_run = after_run;

  gsize pos = start, carry = 0; /* literals left over from the block before */
  for (guint b = 0; b < nblocks; b++)
    {
      const WkLzTokens *t = &blocks[b];
      for (gsize i = 0; i < t->n; i++)
        {
          gsize lit = carry + t->v[i].lit;
          carry = 0;
          emit_literals (&e, src + pos, lit);
          pos += lit;
          emit_match (&e, t->v[i].len, t->v[i].dist);
          pos += t->v[i].len;
        }
      carry += t->tail;
    }
  emit_literals (&e, src + pos, carry);
  flush_pending (&e, NULL, 0);
  g_assert (pos + carry == end);
  return g_byte_array_new_take (e.buf, e.len);
}
