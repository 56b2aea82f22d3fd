/* WAD-LZ encoder: hash-chain match finder, greedy or lazy parse, and a
 * packet layer that keeps the game's rules:
 *  - no two literal runs in a row (a dummy packet `11 0k 00` goes between,
 *    carrying up to 3 literals itself);
 *  - a small literal (1..3 bytes) rides on the match before it, so a literal
 *    run never follows a small literal;
 *  - no packet crosses a 0x2000 block boundary counted from offset 0x10: a
 *    packet that would is preceded by a pad `12 00 00` + 0xEE filler. A pad
 *    is only ever needed in the last 0x120 bytes of a block, where the
 *    disputed pad targets (0x1000 / 0x2000) agree;
 *  - far matches only up to 0x7fff back, where the disputed far bases agree. */
#include "wk_lz.h"

#include <string.h>

#include "../common/wk_error.h"

#define HASH_BITS 16
#define WIN 32768u
#define WMASK (WIN - 1)
#define NICE_LEN 288u
#define LAZY_MAX 96u   /* a match this long is taken without looking ahead */

/* ---- packet layer ---------------------------------------------------- */

typedef struct {
  GByteArray *out;
  guint8 pend[8];    /* a match packet waiting for its small literal */
  guint pend_n, pend_k; /* size, index of the byte holding the literal count */
  gboolean has_pend;
  gboolean after_run;
} Emit;

static gsize
block_pos (const Emit *e)
{
  return (e->out->len - WK_LZ_HEADER) % WK_LZ_BLOCK;
}

/* Place a whole packet. The stream position inside a block is always at
 * most BLOCK - 3 (or 0), so a pad fits where a packet does not. */
static void
place (Emit *e, const guint8 *pkt, gsize n, const guint8 *lit, gsize k)
{
  gsize at = block_pos (e), size = n + k;
  if (at + size > WK_LZ_BLOCK - 3 && at + size != WK_LZ_BLOCK)
    {
      static const guint8 pad[3] = { 0x12, 0x00, 0x00 };
      g_byte_array_append (e->out, pad, 3);
      gsize fill = WK_LZ_BLOCK - at - 3;
      guint8 ee[WK_LZ_BLOCK];
      memset (ee, 0xee, fill);
      g_byte_array_append (e->out, ee, (guint) fill);
    }
  g_byte_array_append (e->out, pkt, (guint) n);
  if (k)
    g_byte_array_append (e->out, lit, (guint) k);
}

static void
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
          guint8 dummy[3] = { 0x11, (guint8) k, 0x00 };
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
      guint8 head[2];
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

static void
emit_match (Emit *e, gsize len, gsize dist)
{
  flush_pending (e, NULL, 0);
  guint8 *q = e->pend;
  gsize d = dist - 1;
  guint n = 0;
  if (len <= 8 && dist <= 2048) /* little */
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

/* ---- match finder ---------------------------------------------------- */

typedef struct {
  gsize len, dist;
  gssize savings; /* bytes saved against sending the same bytes as literals */
} Match;

typedef struct {
  const guint8 *src;
  gsize n;
  gint32 *head, *prev;
  guint max_chain;
} Finder;

static inline guint32
hash3 (const guint8 *p)
{
  guint32 v = p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16);
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

static inline guint
packet_cost (gsize len, gsize dist)
{
  if (len <= 8 && dist <= 2048)
    return 2;
  if (dist <= WK_LZ_NEAR_MAX)
    return len <= 33 ? 3 : 4;
  return len <= 9 ? 3 : 4;
}

static inline void
insert (Finder *f, gsize i)
{
  if (i + 3 > f->n)
    return;
  guint32 h = hash3 (f->src + i);
  f->prev[i & WMASK] = f->head[h];
  f->head[h] = (gint32) i;
}

static inline gsize
common_len (const guint8 *a, const guint8 *b, gsize max)
{
  gsize l = 0;
  while (l + 8 <= max)
    {
      guint64 x, y;
      memcpy (&x, a + l, 8);
      memcpy (&y, b + l, 8);
      if (x != y)
        return l + (gsize) (__builtin_ctzll (x ^ y) >> 3);
      l += 8;
    }
  while (l < max && a[l] == b[l])
    l++;
  return l;
}

/* The candidate with the best savings (closer wins ties). Candidates come
 * closest first, so a later one only wins by being longer. */
static Match
find (const Finder *f, gsize i)
{
  Match best = { 0, 0, 0 };
  if (i + 3 > f->n)
    return best;
  const guint8 *a = f->src + i;
  gsize left = f->n - i, longest = 0;
  gint32 c = f->head[hash3 (a)];
  for (guint chain = f->max_chain; c >= 0 && chain > 0; chain--)
    {
      gsize dist = i - (gsize) c;
      if (dist > WK_LZ_FAR_MAX_SAFE || dist == 0)
        break;
      gsize max = MIN (left, dist <= WK_LZ_NEAR_MAX ? (gsize) 288 : 264);
      const guint8 *b = f->src + c;
      if (longest < max && b[longest] == a[longest])
        {
          gsize l = common_len (a, b, max);
          if (l >= 3 && l > longest)
            {
              longest = l;
              gssize s = (gssize) l - packet_cost (l, dist);
              if (s > best.savings)
                best = (Match) { l, dist, s };
              if (l >= NICE_LEN || l == left)
                break;
            }
        }
      gint32 next = f->prev[c & WMASK];
      if (next >= c)
        break;
      c = next;
    }
  return best;
}

/* ---- parse ----------------------------------------------------------- */

static GByteArray *
encode (const guint8 *src, gsize n, WkLzMode mode)
{
  Emit e = { .out = g_byte_array_sized_new ((guint) MIN (n + n / 16 + 64,
                                                          (gsize) G_MAXINT32)) };
  static const guint8 header[WK_LZ_HEADER] = { 'W', 'A', 'D' };
  g_byte_array_append (e.out, header, WK_LZ_HEADER);

  Finder f = { .src = src, .n = n,
               .max_chain = mode == WK_LZ_LAZY ? 96 : 32 };
  f.head = g_new (gint32, 1u << HASH_BITS);
  f.prev = g_new (gint32, WIN);
  memset (f.head, 0xff, sizeof (gint32) << HASH_BITS);

  gsize i = 0, lit = 0;
  Match cur = { 0 };
  gboolean have = FALSE;
  while (i < n)
    {
      Match m = have ? cur : find (&f, i);
      have = FALSE;
      insert (&f, i);
      if (m.savings <= 0)
        {
          i++;
          continue;
        }
      if (mode == WK_LZ_LAZY && m.len < LAZY_MAX)
        {
          Match next = find (&f, i + 1);
          /* Defer only when the extra savings pay for more than 3/4 of a
           * byte per extra byte covered: those bytes could otherwise be
           * matched after m. */
          gssize extra = (gssize) (next.len + 1) - (gssize) m.len;
          gboolean defer = next.savings > m.savings
                           && (next.savings - m.savings) * 4 > MAX (extra, 0) * 3;
          if (defer)
            {
              cur = next;
              have = TRUE;
              i++;
              continue;
            }
        }
      emit_literals (&e, src + lit, i - lit);
      emit_match (&e, m.len, m.dist);
      for (gsize j = i + 1; j < i + m.len; j++)
        insert (&f, j);
      i += m.len;
      lit = i;
    }
  emit_literals (&e, src + lit, n - lit);
  flush_pending (&e, NULL, 0);
  g_free (f.head);
  g_free (f.prev);
  return e.out;
}

GBytes *
wk_lz_compress (const guint8 *src, gsize n, WkLzMode mode, GError **error)
{
  /* Worst case growth is about 2 %; keep the s32 size field valid. */
  if (n > (gsize) G_MAXINT32 / 2)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "%" G_GSIZE_FORMAT " bytes are more than a WAD-LZ stream "
                    "can describe", n);
      return NULL;
    }
  GByteArray *out = encode (src, n, mode == WK_LZ_BEST ? WK_LZ_LAZY : mode);
  if (mode == WK_LZ_BEST)
    {
      GByteArray *greedy = encode (src, n, WK_LZ_GREEDY);
      if (greedy->len < out->len)
        {
          g_byte_array_unref (out);
          out = greedy;
        }
      else
        g_byte_array_unref (greedy);
    }
  guint32 total = GUINT32_TO_LE (out->len);
  memcpy (out->data + 3, &total, 4);
  return g_byte_array_free_to_bytes (out);
}
