/* The first WAD-LZ parsers ("greedy", "lazy"; "best" keeps the smaller):
 * a 3-byte hash (64 Ki heads) with chains over the window, 32 candidates
 * (greedy) or 96 (lazy); the best candidate maximises the bytes saved
 * against literals, closer first on ties. Kept under their names for
 * comparison (make bench measures the new modes against them); their
 * streams are unchanged. See docs/formats/rc2-wadlz.md. */
#include "wk_lz_enc.h"

#define HASH_BITS 16
#define WMASK (WK_LZ_WIN - 1)
#define NICE_LEN 288u
#define LAZY_MAX 96u /* a match this long is taken without looking ahead */

typedef struct {
  gsize len, dist;
  gssize savings; /* bytes saved against sending the same bytes as literals */
} Match;

typedef struct {
  WkLzChain c; /* matches end at c.n */
  guint max_chain;
} Finder;

static inline void
insert (Finder *f, gsize i)
{
  wk_lz_chain_insert (&f->c, i);
}

/* The candidate with the best savings (closer wins ties). Candidates come
 * closest first, so a later one only wins by being longer. */
static Match
find (const Finder *f, gsize i)
{
  Match best = { 0, 0, 0 };
  if (i + 3 > f->c.n)
    return best;
  const guint8 *a = f->c.src + i;
  gsize left = f->c.n - i, longest = 0;
  gint32 c = f->c.head[wk_lz_hash3 (a, HASH_BITS)];
  for (guint chain = f->max_chain; c >= 0 && chain > 0; chain--)
    {
      gsize dist = i - (gsize) c;
      if (dist > WK_LZ_FAR_MAX_SAFE || dist == 0)
        break;
      gsize max = MIN (left, wk_lz_max_len (dist));
      const guint8 *b = f->c.src + c;
      if (longest < max && b[longest] == a[longest])
        {
          gsize l = wk_lz_common (a, b, max);
          if (l >= 3 && l > longest)
            {
              longest = l;
              gssize s = (gssize) l - wk_lz_match_cost (l, dist);
              if (s > best.savings)
                best = (Match) { l, dist, s };
              if (l >= NICE_LEN || l == left)
                break;
            }
        }
      gint32 next = f->c.prev[c & WMASK];
      if (next >= c)
        break;
      c = next;
    }
  return best;
}

void
wk_lz_parse_legacy (const guint8 *src, gsize start, gsize n, gboolean lazy,
                    WkLzTokens *out)
{
  Finder f = { .max_chain = lazy ? 96 : 32 };
  wk_lz_chain_init (&f.c, src, start, n, HASH_BITS);

  gsize i = start, lit = start;
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
      if (lazy && m.len < LAZY_MAX)
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
      wk_lz_tokens_push (out, i - lit, m.len, m.dist);
      for (gsize j = i + 1; j < i + m.len; j++)
        insert (&f, j);
      i += m.len;
      lit = i;
    }
  out->tail = n - lit;
  wk_lz_chain_clear (&f.c);
}

void
wk_lz_chain_init (WkLzChain *c, const guint8 *src, gsize start, gsize n,
                  guint bits)
{
  *c = (WkLzChain) { src, n, bits, g_new (gint32, (gsize) 1 << bits),
                     g_new (gint32, WK_LZ_WIN) };
  for (gsize k = 0; k < (gsize) 1 << bits; k++)
    c->head[k] = -1;
  for (gsize j = start > WK_LZ_WIN ? start - WK_LZ_WIN : 0; j < start; j++)
    wk_lz_chain_insert (c, j);
}

void
wk_lz_chain_clear (WkLzChain *c)
{
  g_free (c->head);
  g_free (c->prev);
  c->head = c->prev = NULL;
}
