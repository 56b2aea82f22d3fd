/* WAD-LZ compression driver: splits the input into blocks, parses them (on
 * several threads when asked), and lays the tokens of all blocks out as
 * one stream (wk_lz_emit.c). Blocks are parsed independently — each
 * matches into the window before it but starts and ends its own tokens —
 * so the stream is the same for any number of threads, and the packet
 * layer, which alone knows the stream position, sees one token sequence:
 * a block boundary is no packet boundary to it (literals on both sides
 * merge, the game's rules hold across it). */
#include "wk_lz_enc.h"

#include <string.h>

#include "../common/wk_error.h"

typedef struct {
  const guint8 *src;
  gsize start, n, block; /* src[start, n) is parsed */
  WkLzMode mode;
  WkLzTokens *tokens;
  guint nblocks;
  gint next; /* next block to parse (atomic) */
} Job;

static void
parse_block (Job *job, guint b, WkLzScratch *scratch)
{
  gsize start = job->start + (gsize) b * job->block, end = MIN (job->n, start + job->block);
  WkLzTokens *t = &job->tokens[b];
  switch (job->mode)
    {
    case WK_LZ_GREEDY:
    case WK_LZ_LAZY:
      wk_lz_parse_legacy (job->src, start, end, job->mode == WK_LZ_LAZY, t);
      break;
    case WK_LZ_MAX:
      wk_lz_parse_opt (job->src, start, end, t);
      break;
    default:
      wk_lz_parse_fast (job->src, start, end, job->mode == WK_LZ_FAST, scratch, t);
      break;
    }
}

static gpointer
worker (gpointer data)
{
  Job *job = data;
  WkLzScratch scratch = { 0 };
  for (;;)
    {
      gint b = g_atomic_int_add (&job->next, 1);
      if (b < 0 || (guint) b >= job->nblocks)
        break;
      parse_block (job, (guint) b, &scratch);
    }
  g_free (scratch.mem);
  return NULL;
}

/* Appends the packets of src[start, n) to the stream o (taken). */
static GByteArray *
encode (GByteArray *o, const guint8 *src, gsize start, gsize n, WkLzMode mode,
        guint threads, gsize block)
{
  gsize size = n - start;
  Job job = { src, start, n, block ? block : MAX (size, (gsize) 1), mode, NULL, 0, 0 };
  job.nblocks = (guint) MAX ((size + job.block - 1) / job.block, (gsize) 1);
  job.tokens = g_new0 (WkLzTokens, job.nblocks);
  threads = MIN (threads, job.nblocks);
  GThread **pool = g_new0 (GThread *, MAX (threads, 1u));
  for (guint k = 1; k < threads; k++)
    pool[k] = g_thread_try_new ("wk-lz", worker, &job, NULL);
  worker (&job); /* this thread takes blocks too; a thread that could not
                  * start just leaves its share to the others */
  for (guint k = 1; k < threads; k++)
    if (pool[k])
      g_thread_join (pool[k]);
  g_free (pool);
  GByteArray *out = wk_lz_layout (o, o->len > WK_LZ_HEADER, src, start, n, job.tokens,
                                  job.nblocks);
  for (guint b = 0; b < job.nblocks; b++)
    wk_lz_tokens_clear (&job.tokens[b]);
  g_free (job.tokens);
  return out;
}

/* A stream with its header and no packets yet (size field unset). */
static GByteArray *
header (void)
{
  GByteArray *o = g_byte_array_new ();
  g_byte_array_set_size (o, WK_LZ_HEADER);
  memset (o->data, 0, WK_LZ_HEADER);
  memcpy (o->data, "WAD", 3);
  return o;
}

guint
wk_lz_threads_available (void)
{
  return (guint) MAX (g_get_num_processors (), 1u);
}

GBytes *
wk_lz_compress_full (const guint8 *src, gsize n, WkLzMode mode, guint threads,
                     gsize block, GError **error)
{
  /* Worst case growth is about 2 %; keep the s32 size field valid. */
  if (n > (gsize) G_MAXINT32 / 2)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "%" G_GSIZE_FORMAT " bytes are more than a WAD-LZ stream "
                    "can describe", n);
      return NULL;
    }
  if (threads == 0)
    threads = wk_lz_threads_available ();
  if (block == 0 && (mode == WK_LZ_DEFAULT || mode == WK_LZ_MAX || mode == WK_LZ_FAST))
    block = WK_LZ_DEFAULT_BLOCK;
  GByteArray *out = encode (header (), src, 0, n, mode == WK_LZ_BEST ? WK_LZ_LAZY : mode,
                            threads, block);
  if (mode == WK_LZ_BEST)
    {
      /* one-byte lookahead can lose to greedy on some inputs */
      GByteArray *greedy = encode (header (), src, 0, n, WK_LZ_GREEDY, threads, block);
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

GByteArray *
wk_lz_compress_onto (GByteArray *o, const guint8 *src, gsize start, gsize end,
                     WkLzMode mode)
{
  g_return_val_if_fail (o->len >= WK_LZ_HEADER && start <= end, o);
  if (end - start < WK_LZ_ONTO_LITERALS)
    { /* no parse: its tables cost more than its matches save here */
      WkLzTokens lit = { .tail = end - start };
      return wk_lz_layout (o, o->len > WK_LZ_HEADER, src, start, end, &lit, 1);
    }
  if (mode == WK_LZ_BEST)
    mode = WK_LZ_LAZY;
  gsize block = mode == WK_LZ_GREEDY || mode == WK_LZ_LAZY ? 0 : WK_LZ_DEFAULT_BLOCK;
  return encode (o, src, start, end, mode, 1, block);
}

GBytes *
wk_lz_compress (const guint8 *src, gsize n, WkLzMode mode, GError **error)
{
  return wk_lz_compress_full (src, n, mode, 1, 0, error);
}
