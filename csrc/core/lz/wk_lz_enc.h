/* WAD-LZ encoder internals, shared by the parsers (wk_lz_legacy.c,
 * wk_lz_fast.c, wk_lz_opt.c), the packet layer (wk_lz_emit.c) and the
 * driver (wk_lz_encode.c). Not installed; the public API is wk_lz.h.
 *
 * A parser turns input bytes into tokens: `lit` literal bytes, then a match
 * of `len` bytes reaching `dist` back (len 0: a dummy packet, which only
 * the optimal parse asks for). The packet layer turns tokens into packets
 * and keeps the game's layout rules (docs/formats/rc2-wadlz.md). A parser may be
 * given a block of a larger input: it matches into the bytes before the
 * block (up to the window) but starts and ends its own tokens at the block
 * edges, so blocks can be parsed on separate threads and their tokens
 * simply concatenated. */
#pragma once
#include <glib.h>

#include "wk_lz.h"

#define WK_LZ_WIN 32768u              /* bytes a parser looks back */
#define WK_LZ_MAX_MATCH 288u          /* medium match with a length byte */
#define WK_LZ_MAX_FAR_MATCH 264u      /* far match with a length byte */
#define WK_LZ_LITTLE_DIST 2048u       /* little matches reach this far */
#define WK_LZ_LITTLE_LEN 8u           /* ... and are this long at most */

typedef struct {
  guint32 lit;  /* literal bytes before the match */
  guint16 len;  /* 0: a dummy packet (no match) */
  guint16 dist; /* 1..WK_LZ_FAR_MAX_SAFE */
} WkLzToken;

typedef struct {
  WkLzToken *v;
  gsize n, cap;
  gsize tail; /* literal bytes after the last token */
} WkLzTokens;

static inline void
wk_lz_tokens_push (WkLzTokens *t, gsize lit, gsize len, gsize dist)
{
  if (G_UNLIKELY (t->n == t->cap))
    {
      t->cap = t->cap ? t->cap * 2 : 1024;
      t->v = g_renew (WkLzToken, t->v, t->cap);
    }
  t->v[t->n++] = (WkLzToken) { (guint32) lit, (guint16) len, (guint16) dist };
}

static inline void
wk_lz_tokens_clear (WkLzTokens *t)
{
  g_free (t->v);
  *t = (WkLzTokens) { 0 };
}

/* Bytes of the packet of a match (without its small literal): the format's
 * cost per distance class (little, medium, far; docs/formats/rc2-wadlz.md). */
static inline guint
wk_lz_match_cost (gsize len, gsize dist)
{
  /* 3 bytes, one more past the form's short length (33 medium, 9 far), one
   * less for a little match (never past either short length). Written
   * without branches: the compares depend on the data. */
  gsize short_len = dist <= WK_LZ_NEAR_MAX ? 33 : 9;
  return 3u + (guint) (len > short_len)
         - (guint) ((len <= WK_LZ_LITTLE_LEN) & (dist <= WK_LZ_LITTLE_DIST));
}

/* The longest a match may be at distance dist (the far form is shorter). */
static inline gsize
wk_lz_max_len (gsize dist)
{
  return dist <= WK_LZ_NEAR_MAX ? WK_LZ_MAX_MATCH : WK_LZ_MAX_FAR_MATCH;
}

/* Common prefix of a and b, at most max bytes (8 at a time). */
static inline gsize
wk_lz_common (const guint8 *a, const guint8 *b, gsize max)
{
  gsize l = 0;
  while (l + 8 <= max)
    {
      guint64 x, y;
      __builtin_memcpy (&x, a + l, 8);
      __builtin_memcpy (&y, b + l, 8);
      if (x != y)
        return l + (gsize) (__builtin_ctzll (x ^ y) >> 3);
      l += 8;
    }
  while (l < max && a[l] == b[l])
    l++;
  return l;
}

static inline guint32
wk_lz_read32 (const guint8 *p)
{
  guint32 v;
  __builtin_memcpy (&v, p, 4);
  return v;
}

/* A 3-byte hash with chains over the window (the legacy and max levels'
 * match finder): head[hash] is the latest position, prev[pos % WIN] the
 * one before it with the same hash; -1 ends a chain. */
typedef struct {
  const guint8 *src;
  gsize n;       /* positions up to n - 3 are indexed */
  guint bits;    /* hash bits */
  gint32 *head, *prev;
} WkLzChain;

static inline guint32
wk_lz_hash3 (const guint8 *p, guint bits)
{
  guint32 v = p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16);
  return (v * 2654435761u) >> (32 - bits);
}

static inline void
wk_lz_chain_insert (WkLzChain *c, gsize i)
{
  if (i + 3 > c->n)
    return;
  guint32 h = wk_lz_hash3 (c->src + i, c->bits);
  c->prev[i & (WK_LZ_WIN - 1)] = c->head[h];
  c->head[h] = (gint32) i;
}

/* Set up for the block src[start, n), the window before it indexed. */
void wk_lz_chain_init (WkLzChain *c, const guint8 *src, gsize start, gsize n,
                       guint bits);
void wk_lz_chain_clear (WkLzChain *c);

/* Parsers: tokens for src[start, end), matching back to src[start - WIN]
 * at most. Appended to out; out->tail is set. */
void wk_lz_parse_legacy (const guint8 *src, gsize start, gsize end,
                         gboolean lazy, WkLzTokens *out);
/* Memory a parser may keep from one block to the next on one thread (the
 * tables of a fresh allocation are fresh pages each block: the kernel's
 * page faults and zeroing cost more than a memset of warm memory). */
typedef struct {
  gpointer mem;
  gsize size;
} WkLzScratch;

/* size zeroed bytes of s (reused when large enough). */
static inline gpointer
wk_lz_scratch_zeroed (WkLzScratch *s, gsize size)
{
  if (s->size < size)
    {
      g_free (s->mem);
      s->mem = g_malloc0 (size);
      s->size = size;
    }
  else
    __builtin_memset (s->mem, 0, size);
  return s->mem;
}

/* quick: the "fast" level (greedy, few candidates), else "default".
 * scratch: the thread's, kept across its blocks (freed by the caller). */
void wk_lz_parse_fast (const guint8 *src, gsize start, gsize end, gboolean quick,
                       WkLzScratch *scratch, WkLzTokens *out);
void wk_lz_parse_opt (const guint8 *src, gsize start, gsize end,
                      WkLzTokens *out);

/* The packet layer: appends to the stream o (taken; the result is the
 * longer stream) the packets of the tokens of consecutive blocks covering
 * src[start, end). after_run: the packet before may be a literal run or
 * carry a small literal (then literals start on a dummy). The size field
 * is the caller's. */
GByteArray *wk_lz_layout (GByteArray *o, gboolean after_run, const guint8 *src,
                          gsize start, gsize end, WkLzTokens *blocks, guint nblocks);
