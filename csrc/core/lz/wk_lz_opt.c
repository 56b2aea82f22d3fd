/* WAD-LZ level "max": a shortest-path parse over the format's real costs
 * (docs/formats/rc2-wadlz.md):
 *
 *  - a match costs 2, 3 or 4 bytes by its class (little: ≤ 8 bytes from
 *    ≤ 2048 back; medium: ≤ 33 bytes (3) or ≤ 288 (4) from ≤ 0x4000; far:
 *    ≤ 9 (3) or ≤ 264 (4) from ≤ 0x7fff);
 *  - 1..3 literals after a match ride in it for free (the small literal),
 *    but then no literal run may follow;
 *  - a literal run costs 1 byte for 4..18 literals, 2 for 19..273, and may
 *    follow a match, a dummy or the stream start, never a run or a small
 *    literal;
 *  - a dummy (3 bytes, a packet without a match) goes where two literal
 *    stretches meet and carries 0..3 literals itself.
 *
 * So there are two states per input position: M (the last packet was a
 * match or a dummy that can still take a small literal or be followed by a
 * run) and X (after a run or a small literal: only a match or a dummy may
 * come). A forward pass over the positions of a chunk computes the
 * cheapest cost of reaching each (position, state); literal runs of every
 * length are relaxed in O(1) per position with two sliding-window minima
 * (the run header is the same for all lengths 4..18, and for 19..273). The
 * finder gives, per position, the longest match within each distance class,
 * so every length up to it is a candidate at its class's cost. The 0x2000
 * block rule is left to the packet layer (wk_lz_emit.c): it costs a pad
 * only where a packet would cross a boundary (measured: ~0.04 % of the
 * output, docs/performance.md).
 *
 * A chunk ends with a packet boundary every DP_CHUNK positions, or before
 * a match of NICE or more bytes (taken as found).
 *
 * The finder: a 3-byte hash with chains over the whole window, up to CHAIN
 * candidates per position, closest first. Raising CHAIN from 512 to 4096
 * shrinks the bench's inputs by only 0.1-0.5 % more at a fifth of the
 * speed: the parse is as good as this format allows (docs/performance.md). */
#include "wk_lz_enc.h"

#define HASH_BITS 17
#define WMASK (WK_LZ_WIN - 1)
#define CHAIN 512u /* candidates per position, closest first */
#define NICE 200u  /* a match this long is taken as found */

typedef WkLzChain Finder;

#define DP_CHUNK 32768u
#define DP_INF 0x3fffffffu

/* Longest match per distance class at one position: little (≤ 2048 back),
 * medium (≤ 0x4000), any (≤ 0x7fff). len[0] ≤ len[1] ≤ len[2]. */
typedef struct {
  guint len[3];
  guint dist[3];
} Classes;

static inline void
classes_add (Classes *c, guint len, guint dist)
{
  guint k = dist <= WK_LZ_LITTLE_DIST ? 0 : dist <= WK_LZ_NEAR_MAX ? 1 : 2;
  for (; k < 3; k++)
    if (len > c->len[k])
      {
        c->len[k] = len;
        c->dist[k] = dist;
      }
}

static void
finder_skip (Finder *f, gsize from, gsize to)
{
  for (gsize j = from; j < to; j++)
    wk_lz_chain_insert (f, j);
}

static guint
finder_find (Finder *f, gsize i, Classes *c)
{
  if (i + 3 > f->n)
    return 0;
  const guint8 *a = f->src + i;
  gsize left = f->n - i, longest = 2;
  gint32 p = f->head[wk_lz_hash3 (a, HASH_BITS)];
  for (guint chain = CHAIN; p >= 0 && chain > 0; chain--)
    {
      gsize dist = i - (gsize) p;
      if (dist > WK_LZ_FAR_MAX_SAFE || dist == 0)
        break;
      gsize max = MIN (left, wk_lz_max_len (dist));
      const guint8 *b = f->src + p;
      if (longest < max && b[longest] == a[longest])
        {
          gsize l = wk_lz_common (a, b, max);
          if (l > longest)
            {
              longest = l;
              classes_add (c, (guint) l, (guint) dist);
              if (l >= NICE || l == left)
                break;
            }
        }
      gint32 next = f->prev[p & WMASK];
      if (next >= p)
        break;
      p = next;
    }
  return longest >= 3 ? (guint) longest : 0;
}


typedef struct {
  guint32 *m, *x;   /* cheapest cost in state M / X, from the chunk start */
  guint16 *mlen;    /* M reached by: a match of mlen (0: a dummy) ... */
  guint16 *mdist;   /* ... from mdist back */
  guint16 *xlit;    /* X reached by xlit literals (1..3 small, 4.. a run) */
  guint16 *blen;    /* backtrack scratch */
  guint16 *bdist;
} DpTables;

/* Where a chunk starts: at the block start (a run may come first, a small
 * literal needs a dummy), after a match (M) or after literals (X). */
typedef enum { AT_START, AT_M, AT_X } DpStart;

/* Sliding-window minimum of (cost - position) over the positions a run can
 * start from; a ring of 512 ≥ the longest window (270). */
typedef struct {
  gint32 pos[512], val[512];
  guint head, tail;
} DpDeque;

static inline void
dq_push (DpDeque *d, gint32 j, guint32 cost)
{
  if (cost >= DP_INF)
    return;
  gint32 v = (gint32) cost - j;
  while (d->tail != d->head && d->val[(d->tail - 1) & 511] >= v)
    d->tail--;
  d->pos[d->tail & 511] = j;
  d->val[d->tail & 511] = v;
  d->tail++;
}

/* The cheapest run ending at i from this window (lo: its oldest start). */
static inline guint32
dq_best (DpDeque *d, gint32 lo, gint32 i, guint hdr, gint32 *from)
{
  while (d->tail != d->head && d->pos[d->head & 511] < lo)
    d->head++;
  if (d->tail == d->head)
    return DP_INF;
  *from = d->pos[d->head & 511];
  return (guint32) (d->val[d->head & 511] + i) + hdr;
}

/* The packets of the cheapest path from the chunk start to (e, in_m),
 * appended as tokens; *lit carries literals across chunks. */
static void
dp_backtrack (const DpTables *t, guint e, gboolean in_m, DpStart st,
              WkLzTokens *out, gsize *lit)
{
  guint n = 0, j = e;
  for (;;)
    {
      if (j == 0 && (in_m ? st == AT_M : st != AT_M))
        break;
      if (in_m)
        {
          guint len = t->mlen[j];
          t->blen[n] = (guint16) (len | 0x8000);
          t->bdist[n++] = t->mdist[j];
          if (len == 0)
            in_m = FALSE; /* a dummy, from X at the same position */
          else
            {
              j -= len;
              in_m = t->m[j] <= t->x[j];
            }
        }
      else
        {
          guint k = t->xlit[j];
          t->blen[n++] = (guint16) k;
          j -= k;
          if (j == 0 && k >= 4 && st == AT_START)
            break; /* a run from the block start itself */
          in_m = TRUE;
        }
    }
  while (n > 0)
    {
      n--;
      if (t->blen[n] & 0x8000)
        {
          wk_lz_tokens_push (out, *lit, t->blen[n] & 0x7fff, t->bdist[n]);
          *lit = 0;
        }
      else
        *lit += t->blen[n];
    }
}

/* The matches from position i (cost b to get there) relaxed into M, every
 * length at its cheapest class. */
static inline void
dp_relax (DpTables *t, guint i, guint32 b, const Classes *c, guint top)
{
  for (guint l = 3; l <= top; l++)
    {
      guint cost, dist;
      if (l <= c->len[0] && l <= WK_LZ_LITTLE_LEN)
        cost = 2, dist = c->dist[0];
      else if (l <= c->len[1])
        cost = l <= 33 ? 3 : 4, dist = c->dist[1];
      else
        cost = l <= 9 ? 3 : 4, dist = c->dist[2];
      guint32 v = b + cost;
      if (v < t->m[i + l])
        {
          t->m[i + l] = v;
          t->mlen[i + l] = (guint16) l;
          t->mdist[i + l] = (guint16) dist;
        }
    }
}

static void
dp_parse (Finder *f, gsize start, gsize n, WkLzTokens *out)
{
  gsize cap = DP_CHUNK + WK_LZ_MAX_MATCH + 1;
  DpTables t = { g_new (guint32, cap), g_new (guint32, cap), g_new (guint16, cap),
                 g_new (guint16, cap), g_new (guint16, cap),
                 g_new (guint16, 2 * cap), g_new (guint16, 2 * cap) };
  DpDeque *d1 = g_new (DpDeque, 1), *d2 = g_new (DpDeque, 1);
  gsize lit = 0, s = start;
  DpStart st = AT_START;
  while (s < n)
    {
      guint e = (guint) MIN ((gsize) DP_CHUNK, n - s);
      guint ready = MIN (e, WK_LZ_MAX_MATCH); /* m, x set up to here */
      for (guint j = 0; j <= ready; j++)
        t.m[j] = t.x[j] = DP_INF;
      if (st == AT_M)
        t.m[0] = 0;
      else
        t.x[0] = 0;
      d1->head = d1->tail = d2->head = d2->tail = 0;
      guint cut = e, long_len = 0, long_dist = 0;
      for (guint i = 0;; i++)
        {
          if (ready < e && ready < i + WK_LZ_MAX_MATCH)
            {
              ready++;
              t.m[ready] = t.x[ready] = DP_INF;
            }
          /* X at i: small literals and runs ending here */
          for (guint k = 1; k <= 3 && k <= i; k++)
            if (t.m[i - k] + k < t.x[i])
              {
                t.x[i] = t.m[i - k] + k;
                t.xlit[i] = (guint16) k;
              }
          if (i >= 4)
            dq_push (d1, (gint32) i - 4, i == 4 && st == AT_START ? 0 : t.m[i - 4]);
          if (i >= 19)
            dq_push (d2, (gint32) i - 19, i == 19 && st == AT_START ? 0 : t.m[i - 19]);
          gint32 from = 0;
          guint32 c = dq_best (d1, (gint32) i - 18, (gint32) i, 1, &from);
          if (c < t.x[i])
            {
              t.x[i] = c;
              t.xlit[i] = (guint16) (i - (guint) from);
            }
          c = dq_best (d2, (gint32) i - 273, (gint32) i, 2, &from);
          if (c < t.x[i])
            {
              t.x[i] = c;
              t.xlit[i] = (guint16) (i - (guint) from);
            }
          /* M at i: also a dummy after X */
          if (t.x[i] + 3 < t.m[i])
            {
              t.m[i] = t.x[i] + 3;
              t.mlen[i] = 0;
              t.mdist[i] = 0;
            }
          if (i == e)
            break;
          /* matches from i */
          Classes cl = { { 0 } };
          guint lmax = finder_find (f, s + i, &cl);
          wk_lz_chain_insert (f, s + i);
          if (lmax == 0)
            continue;
          if (lmax >= NICE)
            {
              cut = i;
              long_len = lmax;
              long_dist = cl.dist[2];
              break;
            }
          dp_relax (&t, i, MIN (t.m[i], t.x[i]), &cl, MIN (lmax, e - i));
        }
      gboolean in_m = t.m[cut] <= t.x[cut];
      dp_backtrack (&t, cut, in_m, st, out, &lit);
      if (long_len)
        {
          wk_lz_tokens_push (out, lit, long_len, long_dist);
          lit = 0;
          finder_skip (f, s + cut + 1, s + cut + long_len);
          s += cut + long_len;
          st = AT_M;
        }
      else
        {
          s += cut;
          st = in_m ? AT_M : AT_X;
        }
    }
  out->tail = lit;
  g_free (t.m);
  g_free (t.x);
  g_free (t.mlen);
  g_free (t.mdist);
  g_free (t.xlit);
  g_free (t.blen);
  g_free (t.bdist);
  g_free (d1);
  g_free (d2);
}

void
wk_lz_parse_opt (const guint8 *src, gsize start, gsize n, WkLzTokens *out)
{
  Finder f;
  wk_lz_chain_init (&f, src, start, n, HASH_BITS);
  dp_parse (&f, start, n, out);
  wk_lz_chain_clear (&f);
}
