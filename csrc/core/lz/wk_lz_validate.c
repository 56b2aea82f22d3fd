/* WAD-LZ validator: walks the packets without producing output and lists
 * every place where a stream breaks a rule of the game or relies on a
 * reading that sources dispute. See docs/formats/rc2-wadlz.md. The walk's
 * packet reader, wk_lz_packet, is public (the RC2 save's splice uses it). */
#include "wk_lz.h"

#include <string.h>

#include "../common/wk_reader.h"

typedef enum { PREV_NONE, PREV_RUN, PREV_MATCH, PREV_SMALL_LITERAL } Prev;

#define ADD(...)                                                        \
  G_STMT_START {                                                        \
    if (v->len < limit)                                                 \
      g_ptr_array_add (v, g_strdup_printf (__VA_ARGS__));               \
  } G_STMT_END

static inline G_ALWAYS_INLINE int
read_packet (const guint8 *src, gsize pos, gsize end, WkLzPacket *p)
{
  const guint8 *ip = src + pos;
  gsize left = end - pos, n;
  guint f = ip[0];
  *p = (WkLzPacket) { 0 };
  p->far_high = f >= 0x10 && f < 0x20 && (f & 8);
  /* size of the packet's fixed part */
  if (f < 0x10)
    n = f ? 1 + f + 3u : (left >= 2 ? 2 + ip[1] + 18u : 2);
  else if (f < 0x40)
    n = (f & (f < 0x20 ? 7 : 0x1f)) ? 3 : 4;
  else
    n = 2;
  p->size = n;
  if (n > left)
    return WK_LZ_PACKET_SHORT;
  gsize k = 0;
  if (f < 0x10)
    {
      p->run = TRUE;
      p->lit = n - (f ? 1 : 2);
      p->lit_at = ip + (f ? 1 : 2);
      return WK_LZ_PACKET_OK;
    }
  if (f < 0x20)
    {
      guint b0 = ip[n - 2], b1 = ip[n - 1];
      gsize raw = ((gsize) (f & 8) << 11) | ((gsize) b1 << 6) | (b0 >> 2);
      guint m = (f & 7) ? f & 7 : ip[1] + 7u;
      if (raw == 0 && m != 1)
        {
          p->pad = TRUE;
          return WK_LZ_PACKET_OK;
        }
      k = b0 & 3;
      if (raw)
        {
          p->len = m + 2u;
          p->dist = raw + WK_LZ_FAR_BASE;
        }
    }
  else if (f < 0x40)
    {
      guint b1 = ip[n - 2], b2 = ip[n - 1];
      p->len = ((f & 0x1f) ? f & 0x1f : ip[1] + 31u) + 2u;
      p->dist = ((gsize) b2 << 6) + (b1 >> 2) + 1;
      k = b1 & 3;
    }
  else
    {
      p->len = (f >> 5) + 1u;
      p->dist = ((gsize) ip[1] << 3) + ((f >> 2) & 7) + 1;
      k = f & 3;
    }
  p->lit = k;
  p->lit_at = ip + n;
  if (n + k > left)
    return WK_LZ_PACKET_SHORT_LITERAL;
  p->size = n + k;
  return WK_LZ_PACKET_OK;
}

int
wk_lz_packet (const guint8 *src, gsize pos, gsize end, WkLzPacket *p)
{
  return read_packet (src, pos, end, p);
}

GPtrArray *
wk_lz_validate (const guint8 *src, gsize size, guint limit)
{
  GPtrArray *v = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  gsize declared;
  if (!wk_lz_header (src, size, 0, &declared, &error))
    {
      ADD ("%s", error->message);
      return v;
    }
  const gsize end = declared;
  gsize pos = WK_LZ_HEADER, produced = 0;
  Prev prev = PREV_NONE;
  while (pos < end)
    {
      guint f = src[pos];
      WkLzPacket p;
      int r = read_packet (src, pos, end, &p);
      if (r == WK_LZ_PACKET_SHORT)
        {
          ADD ("0x%" G_GSIZE_MODIFIER "x: packet (flag 0x%02x) needs %"
               G_GSIZE_FORMAT " bytes, the stream ends after %" G_GSIZE_FORMAT,
               pos, f, p.size, end - pos);
          break;
        }
      if (p.run && prev == PREV_RUN)
        ADD ("0x%" G_GSIZE_MODIFIER "x: two literal runs in a row", pos);
      else if (p.run && prev == PREV_SMALL_LITERAL)
        ADD ("0x%" G_GSIZE_MODIFIER "x: literal run right after a small "
             "literal (an LZO-style reader takes this flag as a match) "
             "[assumed rule]", pos);
      if (p.far_high && !p.pad)
        ADD ("0x%" G_GSIZE_MODIFIER "x: far match with the high "
             "distance bit (distance 0x%" G_GSIZE_MODIFIER "x here, "
             "0x%" G_GSIZE_MODIFIER "x in the other reading)", pos,
             p.dist, p.dist - 0x3800);
      if (r == WK_LZ_PACKET_SHORT_LITERAL)
        {
          ADD ("0x%" G_GSIZE_MODIFIER "x: small literal of %" G_GSIZE_FORMAT
               " bytes runs past the end of the stream", pos, p.lit);
          break;
        }
      gsize n = p.size, rel = pos - WK_LZ_HEADER;
      if (rel / WK_LZ_BLOCK != (rel + n - 1) / WK_LZ_BLOCK)
        ADD ("0x%" G_GSIZE_MODIFIER "x: %" G_GSIZE_FORMAT "-byte packet "
             "crosses the block boundary at 0x%" G_GSIZE_MODIFIER "x", pos, n,
             (rel / WK_LZ_BLOCK + 1) * WK_LZ_BLOCK + WK_LZ_HEADER);
      if (p.dist > produced)
        ADD ("0x%" G_GSIZE_MODIFIER "x: match reaches %" G_GSIZE_FORMAT
             " bytes back, only %" G_GSIZE_FORMAT " written", pos, p.dist,
             produced);
      if (p.pad)
        {
          if (rel % WK_LZ_BLOCK < WK_LZ_BLOCK / 2)
            ADD ("0x%" G_GSIZE_MODIFIER "x: pad packet in the first half of a "
                 "block (readers disagree whether it skips to the next 0x1000 "
                 "or 0x2000 boundary)", pos);
          gsize next = (rel + n + WK_LZ_BLOCK - 1) / WK_LZ_BLOCK * WK_LZ_BLOCK;
          pos = WK_LZ_HEADER + next;
          prev = PREV_MATCH;
          continue;
        }
      produced += p.len + p.lit;
      pos += n;
      prev = p.run ? PREV_RUN : p.lit ? PREV_SMALL_LITERAL : PREV_MATCH;
    }
  return v;
}
