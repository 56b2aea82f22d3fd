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

typedef struct {
  guint8 *buf;
  gsize len, cap;
  guint8 pend[8];       /* a match packet waiting for its small literal */
  guint pend_n, pend_k; /* size, index of the byte holding the literal count */
  gboolean has_pend;
  gboolean after_run;
} Emit;

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

/* Place a whole packet (pkt: 8 readable bytes when n <= 8). The stream position inside a block is always at
 * most BLOCK - 3 (or 0), so a pad fits where a packet does not. */
static inline void
place (Emit *e, const guint8 *pkt, gsize n, const guint8 *lit, gsize k)
{
  reserve (e);
  gsize at = block_pos (e), size = n + k;
  guint8 *o = e->buf + e->len;
  if (at + size > WK_LZ_BLOCK - 3 && at + size != WK_LZ_BLOCK)
    {
      gsize fill = WK_LZ_BLOCK - at - 3;
      o[0] = 0x12;
      o[1] = o[2] = 0x00;
      memset (o + 3, 0xee, fill);
      o += 3 + fill;
    }
  if (n <= 8 && k <= 3)
    { /* fixed-size copies (ROOM covers them): no library call */
      memcpy (o, pkt, 8);
      for (gsize j = 0; j < k; j++)
        o[n + j] = lit[j];
    }
  else
    {
      memcpy (o, pkt, n);
      memcpy (o + n, lit, k);
    }
  e->len = (gsize) (o + n + k - e->buf);
}

static inline void
flush_pending (Emit *e, const guint8 *lit, gsize k)
{
  if (!e->has_pend)
    return;
  e->pend[e->pend_k] |= (guint8) k;
  place (e, e->pend, e->pend_n, lit, k);
  e->has_pend = FALSE;
  e->after_run = FALSE;
}

static void
emit_literals (Emit *e, const guint8 *p, gsize n)
{
  if (n == 0)
    return;
  if (e->has_pend && n <= 3)
    {
      flush_pending (e, p, n);
      return;
    }
  flush_pending (e, NULL, 0);
  while (n > 0)
    {
      if (e->after_run || n <= 3)
        {
          gsize k = n <= 3 ? n : 0;
          guint8 dummy[8] = { 0x11, (guint8) k, 0x00 };
          place (e, dummy, 3, p, k);
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
      guint8 head[8];
      if (r <= 18)
        head[0] = (guint8) (r - 3);
      else
        {
          head[0] = 0;
          head[1] = (guint8) (r - 18);
        }
      place (e, head, hdr, p, r);
      p += r;
      n -= r;
      e->after_run = TRUE;
    }
}

/* A match packet (len 0: a dummy), held back until its small literal is
 * known. */
static inline void
emit_match (Emit *e, gsize len, gsize dist)
{
  flush_pending (e, NULL, 0);
  guint8 *q = e->pend;
  gsize d = dist - 1;
  guint n = 0;
  if (len == 0) /* dummy */
    {
      q[0] = 0x11;
      q[1] = q[2] = 0;
      e->pend_k = 1;
      n = 3;
    }
  else if (len <= WK_LZ_LITTLE_LEN && dist <= WK_LZ_LITTLE_DIST) /* little */
    {
      q[n++] = (guint8) (((len - 1) << 5) | ((d & 7) << 2));
      e->pend_k = 0;
      q[n++] = (guint8) (d >> 3);
    }
  else if (dist <= WK_LZ_NEAR_MAX) /* medium */
    {
      if (len <= 33)
        q[n++] = (guint8) (0x20 | (len - 2));
      else
        {
          q[n++] = 0x20;
          q[n++] = (guint8) (len - 33);
        }
      e->pend_k = n;
      q[n++] = (guint8) ((d & 0x3f) << 2);
      q[n++] = (guint8) (d >> 6);
    }
  else /* far, high distance bit clear */
    {
      gsize raw = dist - WK_LZ_FAR_BASE;
      if (len <= 9)
        q[n++] = (guint8) (0x10 | (len - 2));
      else
        {
          q[n++] = 0x10;
          q[n++] = (guint8) (len - 9);
        }
      e->pend_k = n;
      q[n++] = (guint8) ((raw & 0x3f) << 2);
      q[n++] = (guint8) (raw >> 6);
    }
  e->pend_n = n;
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
