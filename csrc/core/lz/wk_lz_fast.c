/* WAD-LZ level "default": a lazy parse with a cheap match finder.
 *
 * Candidates per position, cheapest first: the distance of the last match
 * (records of a fixed stride repeat it), the latest position with the same
 * 3 bytes (the closest short match: on a tie in bytes saved it wins, and a
 * short match leaves the bytes after it to the next one — 0.4 % of the
 * output on the bench's inputs against trying it last), then up to DEPTH
 * positions of a 4-byte hash chain, closest first. A chain candidate is
 * compared on its first 4 bytes and on the 2 bytes around the length it
 * must pass before its length is measured, and the chain walked is that of
 * the 4 bytes ending just past that length (a longer match has them too;
 * those chains are shorter than the one of the first 4 bytes). The best
 * maximises the bytes saved against literals (the first found wins ties);
 * a match that saves nothing is still taken when at most 3 literals wait
 * before it, since they ride on the match before for free and would
 * otherwise grow into a literal run (1-2 header bytes;
 * docs/formats/rc2-wadlz.md). A match found is extended backwards over
 * the literals waiting before it. One-step lazy evaluation, with a deeper
 * search after a match of 12-19 bytes (it saves the most there, per byte
 * searched) and a shallow one after a longer one (a clock-for-bytes trade,
 * docs/performance-lz.md round eight);
 * after many positions without a match the search steps over more of them
 * (incompressible data); positions inside long matches are only partly
 * indexed. All hashes come from one 8-byte load.
 *
 * Level "fast" is the same finder with FAST_DEPTH candidates and no look
 * ahead. The constants were tuned on make bench's ten inputs
 * (docs/performance-lz.md has the settings / size / instruction table):
 * the cheapest setting found whose total is no larger than the first
 * encoder's "best" output. They are macros so that a hand scan can
 * override them. */
#include "wk_lz_enc.h"

#include <string.h>

#ifndef H4_BITS
#define H4_BITS 18
#endif
#ifndef H3_BITS
#define H3_BITS 12
#endif
#ifndef DEPTH
#define DEPTH 8u  /* chain candidates per search */
#endif
#ifndef LDEPTH
#define LDEPTH 8u /* ... per search of the lazy step */
#endif
#ifndef LLONG
#define LLONG 12u /* ... after a match this long: */
#endif
#ifndef LDEPTH_LONG
#define LDEPTH_LONG 24u
#endif
#ifndef LEND
#define LEND 20u  /* ... and after a match this long: */
#endif
#ifndef LDEPTH_END
#define LDEPTH_END 4u
#endif
#ifndef LAZY
#define LAZY 32u  /* a match this long is taken without looking ahead */
#endif
#ifndef FAST_DEPTH
#define FAST_DEPTH 4u /* level "fast": a greedy parse, this many candidates */
#endif
#ifndef NICE
#define NICE 64u  /* a candidate this long ends the search */
#endif
#ifndef INS
#define INS 16u   /* matches up to this long get every position indexed */
#endif
#define SKIP 6u   /* after 2^SKIP misses in a row, step 2, then 3 ... */
G_STATIC_ASSERT (NICE <= WK_LZ_MAX_FAR_MATCH); /* find's early end */
#define WMASK (WK_LZ_WIN - 1)

/* Positions are stored plus WK_LZ_WIN, so that 0 (no position yet) lies
 * farther back than any match may reach: one distance check ends a chain
 * both at its end and at the window's edge. An entry of prev[] is only
 * overwritten a window later, so a chain walk that stops at the window
 * never meets one. */
#define BIAS WK_LZ_WIN

typedef struct {
  const guint8 *src;
  gsize n;
  guint32 *h4, *prev; /* 4-byte hash chains */
  guint32 *h3;        /* the latest position per 3-byte hash */
  guint rep;          /* distance of the last match */
} Finder;

typedef struct {
  guint len, dist;
  gint value; /* bytes saved against literals */
} Match;

static inline guint64
read64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return v;
}

static inline guint16
read16 (const guint8 *p)
{
  guint16 v;
  memcpy (&v, p, 2);
  return v;
}

/* Hashes of the first 3 and 4 bytes of v (little-endian: the low ones). */
static inline guint32
hash3 (guint64 v)
{
  return ((guint32) v << 8) * 2654435761u >> (32 - H3_BITS);
}

static inline guint32
hash4 (guint64 v)
{
  return (guint32) v * 2654435761u >> (32 - H4_BITS);
}

static inline void
insert (Finder *f, gsize i)
{
  guint64 v = read64 (f->src + i);
  guint32 h = hash4 (v), p = (guint32) (i + BIAS);
  f->prev[i & WMASK] = f->h4[h];
  f->h4[h] = p;
  f->h3[hash3 (v)] = p;
}

/* Common length of a and b, at most left bytes (left <= WK_LZ_MAX_MATCH),
 * cut to what a match from dist back may be. */
static inline gsize
measure (const guint8 *a, const guint8 *b, gsize left, gsize dist)
{
  gsize l = wk_lz_common (a, b, left);
  if (G_UNLIKELY (l > WK_LZ_MAX_FAR_MATCH) && dist > WK_LZ_NEAR_MAX)
    l = WK_LZ_MAX_FAR_MATCH;
  return l;
}

/* The match from dist back if it saves more than the best so far and is
 * longer than bar bytes (bar < left); its first 3 bytes and the one at
 * bar are compared before its length is measured. */
static inline void
consider (const guint8 *a, gsize dist, gsize left, gsize bar, Match *best)
{
  const guint8 *b = a - dist;
  /* one branch for both compares (both loads are in bounds; a
   * mispredicted branch costs more than the load) */
  if (((wk_lz_read32 (a) ^ wk_lz_read32 (b)) << 8) | (guint32) (a[bar] ^ b[bar]))
    return;
  gsize l = measure (a, b, left, dist);
  gint v = (gint) l - (gint) wk_lz_match_cost (l, dist);
  if (v > best->value)
    *best = (Match) { (guint) l, (guint) dist, v };
}

/* The best match at i. Chain candidates are measured only when longer
 * than `floor` bytes (the lazy step's: a match at i + 1 must be longer than
 * that to save more than the one at i). */
G_ALWAYS_INLINE static inline Match
find (const Finder *f, gsize i, guint floor, guint depth)
{
  Match best = { floor, 0, -1 };
  const guint8 *a = f->src + i;
  gsize left = MIN (f->n - i, (gsize) WK_LZ_MAX_MATCH), ib = i + BIAS;
  guint64 v = read64 (a);
  /* a match of at most floor bytes cannot win the lazy step */
  gsize bar = MIN ((gsize) floor, left - 1);
  if (f->rep && f->rep <= i)
    consider (a, f->rep, left, bar, &best);
  gsize dist = ib - f->h3[hash3 (v)];
  if (dist <= WK_LZ_FAR_MAX_SAFE && dist != best.dist)
    consider (a, dist, left, bar, &best);
  gsize longest = MAX (best.len, (gsize) floor), nice = MIN (left, (gsize) NICE);
  if (longest >= nice)
    return best;
  /* Chain candidates must be longer than `longest`, so they also have
   * the 4 bytes a[k, k + 4), k = longest - 3: walk the chain of those
   * (of positions q + k; q the candidate). Its first 4 bytes and the two
   * around `longest` are compared before a candidate is measured. */
  longest = MAX (longest, (gsize) 3);
  gsize k = longest - 3;
  guint32 a4 = (guint32) v;
  guint16 at = read16 (a + longest - 1);
  gsize low = MAX (ib - WK_LZ_FAR_MAX_SAFE, (gsize) BIAS) + k;
  gsize cc = f->h4[hash4 (wk_lz_read32 (a + k))];
  for (guint d = depth; d > 0 && cc >= low; d--)
    {
      const guint8 *b = f->src + (cc - k - BIAS);
      if (read16 (b + longest - 1) == at && wk_lz_read32 (b) == a4)
        {
          dist = ib - (cc - k);
          gsize l = measure (a, b, left, dist);
          if (l > longest)
            {
              longest = l;
              gint val = (gint) l - (gint) wk_lz_match_cost (l, dist);
              if (val > best.value)
                best = (Match) { (guint) l, (guint) dist, val };
              /* (a far match's cut, 264, is above NICE) */
              if (l >= nice)
                break;
              at = read16 (a + longest - 1);
            }
        }
      cc = f->prev[cc & WMASK];
    }
  return best;
}

/* Extends the match m found at i backwards over the literals waiting
 * since lit (the bytes before i that also precede its source): returns
 * where it starts. */
static inline gsize
back (const guint8 *src, gsize i, gsize lit, Match *m)
{
  if (lit >= i || m->dist == 0 || m->dist >= i)
    return i;
  gsize room = wk_lz_max_len (m->dist) - m->len;
  gsize lo = MAX (MAX (lit, (gsize) m->dist), i > room ? i - room : 0);
  gsize s = i;
  while (s > lo && src[s - 1] == src[s - 1 - m->dist])
    s--;
  m->len += (guint) (i - s);
  m->value = (gint) m->len - (gint) wk_lz_match_cost (m->len, m->dist);
  return s;
}

/* The parse, specialised by its two callers: depth candidates per search;
 * lazy: matches shorter than this get a look one position on, with
 * ldepth candidates (LDEPTH_LONG after a match of LLONG bytes or more,
 * LDEPTH_END after one of LEND or more). */
G_ALWAYS_INLINE static inline void
parse (const guint8 *src, gsize start, gsize n, guint depth, guint lazy, guint ldepth,
       WkLzScratch *scratch, WkLzTokens *out)
{
  Finder f = { .src = src, .n = n };
  /* one zeroed allocation for the three tables, kept by the thread */
  f.h4 = wk_lz_scratch_zeroed (scratch, sizeof (guint32)
                               * ((1u << H4_BITS) + WK_LZ_WIN + (1u << H3_BITS)));
  f.prev = f.h4 + (1u << H4_BITS);
  f.h3 = f.prev + WK_LZ_WIN;
  gsize limit = n >= 8 ? n - 7 : 0; /* positions with 8 readable bytes */
  for (gsize j = start > WK_LZ_WIN ? start - WK_LZ_WIN : 0; j < start && j < limit; j++)
    insert (&f, j);

  gsize i = start, lit = start, miss = 0;
  gboolean any = FALSE; /* a match was made: literals can ride on it */
  while (i < limit)
    {
      /* the next position's head, read by its search or insert (when that
       * position still has 8 readable bytes) */
      if (i + 1 < limit)
        __builtin_prefetch (&f.h4[hash4 (read64 (src + i + 1))]);
      Match m = find (&f, i, 0, depth);
      insert (&f, i);
      gsize s = m.dist ? back (src, i, lit, &m) : i; /* most searches find none */
      gint need = any && s - lit <= 3 ? 0 : 1;
      if (m.value < need)
        {
          miss++;
          i += 1 + (miss >> SKIP);
          continue;
        }
      miss = 0;
      while (m.len < lazy && i + 1 < limit)
        {
          /* the chain head the search at i + 1 starts from (the 4 bytes
           * ending just past its floor, when the cheap candidates do not
           * raise it) */
          gsize kk = MAX ((gsize) m.value + 2, (gsize) 3) - 3;
          if (i + 1 + kk + 4 <= n)
            __builtin_prefetch (&f.h4[hash4 (wk_lz_read32 (src + i + 1 + kk))]);
          Match nx = find (&f, i + 1, (guint) m.value + 2,
                           m.len < LLONG  ? ldepth
                           : m.len < LEND ? LDEPTH_LONG
                                          : LDEPTH_END);
          gsize sn = back (src, i + 1, lit, &nx);
          if (nx.value <= m.value)
            break;
          insert (&f, i + 1);
          i++;
          m = nx;
          s = sn;
        }
      wk_lz_tokens_push (out, s - lit, m.len, m.dist);
      f.rep = m.dist;
      any = TRUE;
      gsize e = s + m.len, end = MIN (e, limit);
      /* the head the search at e reads, fetched while the match's
       * positions are indexed */
      if (e < limit)
        __builtin_prefetch (&f.h4[hash4 (read64 (src + e))]);
      if (m.len <= INS)
        for (gsize j = i + 1; j < end; j++)
          insert (&f, j);
      else
        {
          for (gsize j = i + 1; j < s + 8; j++)
            insert (&f, j);
          for (gsize j = e - 8; j < end; j++)
            insert (&f, j);
        }
      i = e;
      lit = i;
    }
  out->tail = n - lit;
}

void
wk_lz_parse_fast (const guint8 *src, gsize start, gsize n, gboolean quick,
                  WkLzScratch *scratch, WkLzTokens *out)
{
  if (quick)
    parse (src, start, n, FAST_DEPTH, 0, 0, scratch, out);
  else
    parse (src, start, n, DEPTH, LAZY, LDEPTH, scratch, out);
}
