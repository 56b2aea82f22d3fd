/* WAD-LZ level "default": a lazy parse with a cheap match finder.
 *
 * Candidates per position, cheapest first: the distance of the last match
 * (records of a fixed stride repeat it), the latest position with the same
 * 6 bytes (likely a long match), the latest with the same 3 bytes (short
 * matches, which only pay within a little match's 2048 bytes or where
 * they end a literal stretch), then up to DEPTH positions with the same 4
 * bytes, closest first. Each candidate is compared only if it can be
 * longer than the best so far. The best maximises the bytes saved against
 * literals (closer wins ties); a match saving nothing is still taken when
 * at most 3 literals wait before it, since they ride on the match before
 * for free and would otherwise grow into a literal run (1-2 header bytes;
 * docs/formats/rc2.md). One-step lazy evaluation; after many positions
 * without a match the search steps over more of them (incompressible
 * data); positions inside long matches are only partly indexed.
 *
 * The constants were tuned on make bench's ten inputs (docs/performance.md):
 * DEPTH 24 is the smallest depth whose total is no larger than the first
 * encoder's "best" output. */
#include "wk_lz_enc.h"

#include <string.h>

#define H4_BITS 16
#define H3_BITS 12
#define H6_BITS 15
#define WMASK (WK_LZ_WIN - 1)
#define DEPTH 24u  /* 4-byte chain candidates */
#define LAZY 32u   /* a match this long is taken without looking ahead */
#define SKIP 6u    /* after 2^SKIP misses in a row, step 2, then 3 ... */
#define INS 32u    /* matches up to this long get every position indexed */

typedef struct {
  const guint8 *src;
  gsize n;
  guint32 *h4, *h3, *h6, *prev; /* positions + 1 (0: empty) */
  guint rep;                     /* distance of the last match */
} Finder;

typedef struct {
  guint len, dist;
  gint value;
} Match;

static inline guint32
hash4 (const guint8 *p)
{
  return (wk_lz_read32 (p) * 2654435761u) >> (32 - H4_BITS);
}

static inline guint32
hash3 (const guint8 *p)
{
  return ((wk_lz_read32 (p) << 8) * 2654435761u) >> (32 - H3_BITS);
}

static inline guint32
hash6 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return (guint32) (((v << 16) * 0x9E3779B97F4A7C15ull) >> (64 - H6_BITS));
}

static inline void
insert (Finder *f, gsize i)
{
  const guint8 *p = f->src + i;
  f->h6[hash6 (p)] = (guint32) i + 1;
  guint32 h = hash4 (p);
  f->prev[i & WMASK] = f->h4[h];
  f->h4[h] = (guint32) i + 1;
  f->h3[hash3 (p)] = (guint32) i + 1;
}

/* The match at a from dist back, if it saves more than the best so far. */
static inline void
consider (const guint8 *a, gsize dist, gsize left, Match *best)
{
  gsize l = wk_lz_common (a, a - dist, MIN (left, wk_lz_max_len (dist)));
  gint v = (gint) l - (gint) wk_lz_match_cost (l, dist);
  if (l >= 3 && v > best->value)
    *best = (Match) { (guint) l, (guint) dist, v };
}

static inline Match
find (const Finder *f, gsize i)
{
  Match best = { 0, 0, -1 };
  const guint8 *a = f->src + i;
  gsize left = f->n - i;
  if (f->rep && f->rep <= i)
    consider (a, f->rep, left, &best);
  guint32 c = f->h6[hash6 (a)];
  if (c && i - (c - 1) <= WK_LZ_FAR_MAX_SAFE)
    consider (a, i - (c - 1), left, &best);
  c = f->h3[hash3 (a)];
  if (c && i - (c - 1) <= WK_LZ_FAR_MAX_SAFE)
    consider (a, i - (c - 1), left, &best);
  if (best.len >= MIN (left, (gsize) WK_LZ_MAX_MATCH))
    return best; /* nothing can be longer (runs, zeros) */
  c = f->h4[hash4 (a)];
  guint32 a4 = wk_lz_read32 (a);
  gsize longest = best.len;
  for (guint d = DEPTH; c && d > 0; d--)
    {
      gsize pos = c - 1, dist = i - pos;
      if (dist > WK_LZ_FAR_MAX_SAFE)
        break;
      const guint8 *b = f->src + pos;
      if (longest < left && b[longest] == a[longest] && wk_lz_read32 (b) == a4)
        {
          gsize max = MIN (left, wk_lz_max_len (dist));
          gsize l = wk_lz_common (a, b, max);
          if (l > longest)
            {
              longest = l;
              gint v = (gint) l - (gint) wk_lz_match_cost (l, dist);
              if (v > best.value)
                best = (Match) { (guint) l, (guint) dist, v };
              if (l == max)
                break;
            }
        }
      guint32 next = f->prev[pos & WMASK];
      if (next >= c)
        break;
      c = next;
    }
  return best;
}

void
wk_lz_parse_fast (const guint8 *src, gsize start, gsize n, WkLzTokens *out)
{
  Finder f = { .src = src, .n = n };
  f.h4 = g_new0 (guint32, 1u << H4_BITS);
  f.h3 = g_new0 (guint32, 1u << H3_BITS);
  f.prev = g_new0 (guint32, WK_LZ_WIN);
  f.h6 = g_new0 (guint32, 1u << H6_BITS);
  gsize limit = n >= 8 ? n - 7 : 0; /* positions with 8 readable bytes */
  for (gsize j = start > WK_LZ_WIN ? start - WK_LZ_WIN : 0; j < start && j < limit; j++)
    insert (&f, j);

  gsize i = start, lit = start, miss = 0;
  gboolean any = FALSE; /* a match was made: literals can ride on it */
  while (i < limit)
    {
      Match m = find (&f, i);
      insert (&f, i);
      gint need = any && i - lit <= 3 ? 0 : 1;
      if (m.value < need)
        {
          miss++;
          i += 1 + (miss >> SKIP);
          continue;
        }
      miss = 0;
      while (m.len < LAZY && i + 1 < limit)
        {
          Match nx = find (&f, i + 1);
          if (nx.value <= m.value)
            break;
          insert (&f, i + 1);
          i++;
          m = nx;
        }
      wk_lz_tokens_push (out, i - lit, m.len, m.dist);
      f.rep = m.dist;
      any = TRUE;
      gsize e = i + m.len;
      if (m.len <= INS)
        for (gsize j = i + 1; j < e && j < limit; j++)
          insert (&f, j);
      else
        {
          for (gsize j = i + 1; j < i + 8; j++)
            insert (&f, j);
          for (gsize j = e - 8; j < e && j < limit; j++)
            insert (&f, j);
        }
      i = e;
      lit = i;
    }
  out->tail = n - lit;
  g_free (f.h4);
  g_free (f.h3);
  g_free (f.prev);
  g_free (f.h6);
}
