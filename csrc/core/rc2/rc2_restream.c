/* Reusing an old WAD-LZ stream's blocks and packets around an edit (see
 * the header).
 *
 * The old stream is decoded one 0x2000-byte block at a time (the decoder
 * stopped at each boundary by its end pointer: no packet crosses one), so
 * plain_at[j] is what blocks 0..j-1 produce. Kept: every block whose
 * output the edit did not change and that still decodes to it in the new
 * stream — a block a whole window (0xc000, the farthest any reading of a
 * match reaches) past the last change, or one a trial decode after the
 * new bytes before it reproduces (its matches may read changed bytes that
 * happen to agree, or reach past a change into unchanged ones); a size
 * change keeps the blocks before the first change and those after it
 * that pass the same test. Each run of other blocks is written again
 * packet by packet (rerun): the old packets that still give the new bytes
 * are copied, the bytes of the others compressed onto what precedes them;
 * unless it ends the stream the run is closed by dummies (`11 00 00`, no
 * output) into the second half of a block and a pad (`12 00 00`, then
 * 0xEE to the boundary), the packets docs/formats/rc2-wadlz.md describes. */
#include "rc2_restream.h"

#include <string.h>

#include "../common/wk_error.h"
#include "../lz/wk_lz.h"

#define WINDOW ((gsize) 0xc000)
/* Bytes before a recompressed part its encoder indexes for matches: a
 * wider window found few more matches and did not make the saves of
 * make bench's level smaller (each part is padded to its block's end)
 * but cost 5 % of the rewrite (32 KiB; callgrind,
 * docs/performance-rc2-export.md). */
#define PRIMED ((gsize) 2048)

static GBytes *
whole (const guint8 *plain, gsize n, WkRestreamInfo *info, GError **error)
{
  memset (info, 0, sizeof *info);
  info->whole = TRUE;
  info->compressed = n;
  return wk_lz_compress (plain, n, WK_RC2_LZ_MODE, error);
}

void
wk_rc2_restream_map_free (WkRestreamMap *m)
{
  if (m == NULL)
    return;
  g_clear_pointer (&m->plain, g_bytes_unref);
  g_free (m->plain_at);
  g_free (m->after_run);
  g_free (m);
}

WkRestreamMap *
wk_rc2_restream_map (const guint8 *old, gsize size, gint64 base, gint64 expected,
                     gsize max, GError **error)
{
  WkLzDecoder d;
  if (!wk_lz_decoder_init (&d, old, size, base, error))
    return NULL;
  g_autoptr (WkRestreamMap) m = g_new0 (WkRestreamMap, 1);
  m->stream = old;
  m->declared = (gsize) (d.end - old);
  m->nb = (guint) ((m->declared - WK_LZ_HEADER + WK_LZ_BLOCK - 1) / WK_LZ_BLOCK);
  m->plain_at = g_new0 (gsize, m->nb + 1);
  m->after_run = g_new0 (gboolean, m->nb + 1);
  m->mapped = TRUE;
  gsize bound = MIN ((guint64) max, wk_lz_max_output (m->declared));
  gsize cap = expected >= 0 ? (gsize) expected + 1 : MIN (bound + 1, m->declared * 4 + 64);
  guint8 *out = g_malloc (cap);
  const guint8 *end = d.end;
  for (guint j = 0; j <= m->nb; j++)
    {
      /* block by block (no packet crosses a boundary in a game-safe
       * stream); if one does, the rest in one go, unmapped */
      gsize stop = WK_LZ_HEADER + (gsize) (j + 1) * WK_LZ_BLOCK;
      d.end = j == m->nb || !m->mapped || old + stop >= end ? end : old + stop;
      GError *err = NULL;
      for (;;)
        {
          WkLzStatus st = wk_lz_decoder_run (&d, out, cap, &err);
          if (st == WK_LZ_DONE)
            break;
          if (st == WK_LZ_ERROR && d.end != end && m->mapped)
            { /* a packet past this boundary: not walkable by blocks */
              g_clear_error (&err);
              m->mapped = FALSE;
              d.end = end;
              continue;
            }
          if (st == WK_LZ_ERROR || cap > bound)
            {
              if (st != WK_LZ_ERROR)
                wk_set_error (&err, WK_ERROR_FORMAT, base, "the stream decodes to "
                              "more than %" G_GSIZE_FORMAT " bytes", bound);
              g_propagate_error (error, err);
              g_free (out);
              return NULL;
            }
          cap = MIN (cap * 2, bound + 1);
          out = g_realloc (out, cap);
        }
      if (j < m->nb)
        {
          m->plain_at[j + 1] = d.produced;
          m->after_run[j + 1] = d.after_run;
        }
      if (d.end == end)
        break;
    }
  if (expected >= 0 && d.produced != (gsize) expected)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "the stream decodes to %"
                    G_GSIZE_FORMAT " bytes, its container says %" G_GINT64_FORMAT,
                    d.produced, expected);
      g_free (out);
      return NULL;
    }
  m->plain_at[m->nb] = d.produced;
  m->plain = g_bytes_new_take (g_realloc (out, MAX (d.produced, 1)), d.produced);
  return g_steal_pointer (&m);
}

/* Does block k of the old stream, decoded right after new_plain[0, at),
 * give new_plain[at, at + its old output size)? The decoder is given the
 * last WINDOW bytes before `at` as history (every distance either reading
 * of the far bit allows), so this is exactly what the block does in the
 * new stream when everything before it decodes to new_plain[0, at). */
static gboolean
decodes_in_place (const WkRestreamMap *m, guint k, const guint8 *new_plain,
                  gsize new_n, gsize at)
{
  gsize n = m->plain_at[k + 1] - m->plain_at[k];
  if (at + n > new_n)
    return FALSE;
  gsize history = MIN (WINDOW, at);
  g_autofree guint8 *out = g_malloc (history + n + 1);
  memcpy (out, new_plain + at - history, history);
  WkLzDecoder d = { 0 };
  d.stream = m->stream;
  d.ip = m->stream + WK_LZ_HEADER + (gsize) k * WK_LZ_BLOCK;
  d.end = MIN (m->stream + m->declared, d.ip + WK_LZ_BLOCK);
  d.produced = history;
  d.after_run = m->after_run[k];
  return wk_lz_decoder_run (&d, out, history + n, NULL) == WK_LZ_DONE
         && d.produced == history + n
         && memcmp (out + history, new_plain + at, n) == 0;
}

/* Bytes a and b share from the start (of n), found 4 KiB at a time. */
static gsize
common_prefix (const guint8 *a, const guint8 *b, gsize n)
{
  gsize i = 0;
  while (i + 4096 <= n && memcmp (a + i, b + i, 4096) == 0)
    i += 4096;
  while (i < n && a[i] == b[i])
    i++;
  return i;
}

/* Bytes that end at a and at b and agree (at most n). */
static gsize
common_suffix (const guint8 *a_end, const guint8 *b_end, gsize n)
{
  gsize i = 0;
  while (i + 4096 <= n && memcmp (a_end - i - 4096, b_end - i - 4096, 4096) == 0)
    i += 4096;
  while (i < n && a_end[-1 - (gssize) i] == b_end[-1 - (gssize) i])
    i++;
  return i;
}

/* Append to o (which ends after packets that give plain[0, from)) the
 * packets of plain[from, to), matching back into the bytes before. */
static void
compress_onto (GByteArray **o, const guint8 *plain, gsize from, gsize to)
{
  gsize history = MIN (from, PRIMED);
  *o = wk_lz_compress_onto (*o, plain + from - history, history, to - from + history,
                            WK_RC2_LZ_MODE);
}

/* Unless it is the stream's last part, close o to the next boundary with
 * dummies into the block's second half and a pad. FALSE: it ends one or
 * two bytes short of a boundary (no room). */
static gboolean
close_block (GByteArray *o, gboolean last)
{
  gsize r = (o->len - WK_LZ_HEADER) % WK_LZ_BLOCK;
  if (last || r == 0)
    return TRUE;
  static const guint8 dummy[3] = { 0x11, 0x00, 0x00 }, pad[3] = { 0x12, 0x00, 0x00 };
  for (; r < WK_LZ_BLOCK / 2; r += 3)
    g_byte_array_append (o, dummy, 3);
  if (r > WK_LZ_BLOCK - 3)
    return FALSE;
  g_byte_array_append (o, pad, 3);
  for (r += 3; r < WK_LZ_BLOCK; r++)
    g_byte_array_append (o, (const guint8 *) "\xee", 1);
  return TRUE;
}

static void
keep_blocks (GByteArray *o, const guint8 *old, gsize declared, guint from, guint to)
{
  gsize a = WK_LZ_HEADER + (gsize) from * WK_LZ_BLOCK;
  gsize b = MIN (declared, WK_LZ_HEADER + (gsize) to * WK_LZ_BLOCK);
  g_byte_array_append (o, old + a, (guint) (b - a));
}

static void
count_kept (WkRestreamInfo *info, gsize kept)
{
  if (info->compressed)
    info->kept_after += kept;
  else
    info->kept_before += kept;
}

/* Does old packet p, at output offset `at`, give new_plain there when
 * what comes before it is new_plain (its match's source bytes as they
 * are in the new stream; an overlapping match compares the same way)? */
static gboolean
packet_right (const WkLzPacket *p, const guint8 *new_plain, gsize n, gsize at)
{
  if (at + p->len + p->lit > n || p->dist > at)
    return FALSE;
  return (p->len == 0 || memcmp (new_plain + at, new_plain + at - p->dist, p->len) == 0)
         && memcmp (new_plain + at + p->len, p->lit_at, p->lit) == 0;
}

/* Old blocks k..*e-1 written again as new_plain[from, to) (o ends on block
 * k's start; from = its output start; *e: where the kept blocks resume,
 * moved on when the new bytes need more room, below): their packets are walked and each
 * one that still gives the new bytes is copied (shifted as the bytes
 * before it require, never across a boundary; a dummy before a run that
 * may follow a run or a small literal), the bytes of the others are
 * compressed onto what is before them. tail FALSE: after the first packet
 * that does not, everything up to `to` is compressed (the size changed:
 * the old packets' outputs no longer line up). */
static gboolean
rerun (GByteArray **o, const WkRestreamMap *m, guint k, guint *e, const guint8 *new_plain,
       gsize new_n, gsize from, gsize to, gboolean tail, WkRestreamInfo *info)
{
  static const guint8 dummy[3] = { 0x11, 0x00, 0x00 };
  const guint8 *old = m->stream;
  gsize at = from, span = G_MAXSIZE; /* span: the first byte waiting to be compressed */
  /* after: o may end on a run or a small literal; o ends on the old block
   * before k (or the header): what followed it in the old stream may */
  gboolean after = FALSE;
  /* copied packets are appended a stretch at a time: old[copy, pos) are
   * the packets kept since (queued bytes, not yet in o) */
  gsize copy = 0, queued = 0;
#define FLUSH()                                                         \
  G_STMT_START {                                                        \
    g_byte_array_append (*o, old + copy, (guint) queued);               \
    count_kept (info, queued);                                          \
    queued = 0;                                                         \
  } G_STMT_END
  guint b = k;
again:
  for (; b < *e && at < to; b++)
    {
      gsize pos = WK_LZ_HEADER + (gsize) b * WK_LZ_BLOCK;
      gsize bend = MIN (m->declared, pos + WK_LZ_BLOCK);
      while (pos < bend && at < to)
        {
          WkLzPacket p;
          if (wk_lz_packet (old, pos, m->declared, &p) != WK_LZ_PACKET_OK)
            return FALSE;
          if (p.pad)
            break;
          gboolean right = (tail || span == G_MAXSIZE) && at + p.len + p.lit <= to
                           && packet_right (&p, new_plain, new_n, at);
          if (right && span != G_MAXSIZE)
            {
              compress_onto (o, new_plain, span, at);
              info->compressed += at - span;
              span = G_MAXSIZE;
              after = TRUE;
            }
          gboolean dummy_first = p.run && after;
          gsize need = (dummy_first ? 3 : 0) + p.size;
          gsize bp = ((*o)->len + queued - WK_LZ_HEADER) % WK_LZ_BLOCK;
          if (right && (bp + need <= WK_LZ_BLOCK - 3 || bp + need == WK_LZ_BLOCK))
            {
              if (queued && (dummy_first || copy + queued != pos))
                FLUSH ();
              if (dummy_first)
                g_byte_array_append (*o, dummy, 3);
              if (queued == 0)
                copy = pos;
              queued += p.size;
              after = p.run || p.lit;
            }
          else
            {
              if (queued)
                FLUSH ();
              if (span == G_MAXSIZE)
                span = at;
            }
          at += p.len + p.lit;
          pos += p.size;
        }
    }
  if (queued)
    FLUSH ();
  if (span == G_MAXSIZE && at < to)
    span = at;
  if (span != G_MAXSIZE)
    {
      compress_onto (o, new_plain, span, to);
      info->compressed += to - span;
      span = G_MAXSIZE;
      after = TRUE;
    }
  /* o ran past the end of block e - 1 (what it wrote is longer than the
   * packets it replaced): closing it would add a block, so the next
   * blocks are walked too, their packets shifted, until a pad's filler
   * takes up the difference (or the stream ends). Likewise when o ends
   * on the boundary after what may be a run and block e starts with one
   * (the walk puts a dummy between). */
  gsize fits = WK_LZ_HEADER + (gsize) *e * WK_LZ_BLOCK;
  if (tail && *e < m->nb
      && (((*o)->len > fits - 3 && (*o)->len != fits)
          || ((*o)->len == fits && after && old[fits] < 0x10)))
    {
      to = m->plain_at[++*e];
      goto again;
    }
#undef FLUSH
  return close_block (*o, *e == m->nb);
}

/* Same size: every old block whose output and whole window are unchanged
 * is kept; each run of the others is written again (rerun). */
static gboolean
same_size (GByteArray **o, const WkRestreamMap *m, const guint8 *old_plain,
           const guint8 *new_plain, gsize n, WkRestreamInfo *info)
{
  const guint8 *old = m->stream;
  gsize declared = m->declared;
  const gsize *plain_at = m->plain_at;
  g_autofree gboolean *reuse = g_new (gboolean, MAX (m->nb, 1));
  guint nb = m->nb;
  /* dirty[k]: block k's output differs; a clean block is reusable when
   * it decodes to the same bytes after the new ones (a trial decode) */
  g_autofree gboolean *dirty = g_new0 (gboolean, MAX (nb, 1));
  for (guint k = 0; k < nb; k++)
    dirty[k] = memcmp (old_plain + plain_at[k], new_plain + plain_at[k],
                       plain_at[k + 1] - plain_at[k]) != 0;
  /* last[k]: the last changed byte of a dirty block */
  g_autofree gsize *last = g_new0 (gsize, MAX (nb, 1));
  for (guint k = 0; k < nb; k++)
    if (dirty[k])
      for (gsize x = plain_at[k + 1]; x-- > plain_at[k];)
        if (old_plain[x] != new_plain[x])
          {
            last[k] = x;
            break;
          }
  gint prev = -1;      /* the last dirty block before k */
  for (guint k = 0; k < nb; k++)
    {
      if (dirty[k])
        {
          reuse[k] = FALSE;
          prev = (gint) k;
          continue;
        }
      gsize after = prev < 0 ? plain_at[k] + 1 : plain_at[k] - last[prev] - 1;
      reuse[k] = prev < 0 || after >= WINDOW
                 || decodes_in_place (m, k, new_plain, n, plain_at[k]);
    }
  memset (info, 0, sizeof *info);
  for (guint k = 0; k < nb;)
    {
      guint e = k;
      gboolean r = reuse[k];
      while (e < nb && reuse[e] == r)
        e++;
      if (r)
        {
          keep_blocks (*o, old, declared, k, e);
          count_kept (info, MIN (declared, WK_LZ_HEADER + (gsize) e * WK_LZ_BLOCK)
                              - (WK_LZ_HEADER + (gsize) k * WK_LZ_BLOCK));
        }
      else if (!rerun (o, m, k, &e, new_plain, n, plain_at[k], plain_at[e], TRUE, info))
        return FALSE;
      k = e;
    }
  return TRUE;
}

GBytes *
wk_rc2_restream (const WkRestreamMap *m, const guint8 *new_plain, gsize new_n,
                 gboolean splice, WkRestreamInfo *info, GError **error)
{
  const guint8 *old = m->stream;
  gsize declared = m->declared, old_n;
  const guint8 *old_plain = g_bytes_get_data (m->plain, &old_n);
  gsize lim = MIN (old_n, new_n), a = common_prefix (old_plain, new_plain, lim), s;
  if (a == old_n && a == new_n)
    {
      memset (info, 0, sizeof *info);
      info->kept_before = declared;
      return g_bytes_new (old, declared);
    }
  if (!splice || !m->mapped || m->nb == 0)
    return whole (new_plain, new_n, info, error);
  s = common_suffix (old_plain + old_n, new_plain + new_n, lim - a);
  guint nb = m->nb;
  const gsize *plain_at = m->plain_at;
  g_autoptr (GByteArray) o = g_byte_array_sized_new ((guint) (declared + declared / 8
                                                                + WK_LZ_BLOCK));
  g_byte_array_append (o, old, WK_LZ_HEADER);
  memset (info, 0, sizeof *info);
  gboolean ok;
  if (old_n == new_n)
    ok = same_size (&o, m, old_plain, new_plain, new_n, info);
  else
    { /* one changed span, the rest shifted: keep a prefix and a suffix */
      guint i = 0, j = nb;
      for (guint k = 1; k < nb && plain_at[k] <= a; k++)
        i = k;
      gsize b = old_n - s;
      for (guint k = i + 1; k < nb; k++)
        if (plain_at[k] >= b
            && (plain_at[k] >= b + WINDOW
                || decodes_in_place (m, k, new_plain, new_n, plain_at[k] + new_n - old_n)))
          {
            j = k;
            break;
          }
      gsize from = plain_at[i], to = j == nb ? new_n : plain_at[j] + new_n - old_n;
      keep_blocks (o, old, declared, 0, i);
      info->kept_before = WK_LZ_HEADER + (gsize) i * WK_LZ_BLOCK;
      ok = rerun (&o, m, i, &j, new_plain, new_n, from, to, FALSE, info);
      if (ok && j < nb)
        {
          keep_blocks (o, old, declared, j, nb);
          info->kept_after += declared - WK_LZ_HEADER - (gsize) j * WK_LZ_BLOCK;
        }
      info->kept_before -= WK_LZ_HEADER;
    }
  if (!ok || info->kept_before + info->kept_after == 0)
    return whole (new_plain, new_n, info, error);
  if (o->len > G_MAXINT32)
    return whole (new_plain, new_n, info, error);
  gint32 total = GINT32_TO_LE ((gint32) o->len);
  memcpy (o->data + 3, &total, 4);
  g_autoptr (GBytes) out = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  info->whole = FALSE;
  return g_steal_pointer (&out);
}
