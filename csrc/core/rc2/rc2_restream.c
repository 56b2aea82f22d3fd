/* Reusing an old WAD-LZ stream's blocks around an edit (see the header).
 *
 * The old stream is decoded one 0x2000-byte block at a time (the decoder
 * stopped at each boundary by its end pointer: no packet crosses one), so
 * plain_at[j] is what blocks 0..j-1 produce. Kept: the blocks before the
 * first changed byte (cut where the last packet was no literal run), and
 * the blocks from the first boundary at least a whole window (0xc000, the
 * farthest any reading of a match reaches) past the last changed byte:
 * their matches then only read bytes the edit did not change, at the same
 * distances. Between them the new bytes are compressed as a fresh stream
 * whose body starts on a boundary and is closed by dummies (`11 00 00`,
 * no output) into the second half of a block and a pad (`12 00 00`, then
 * 0xEE to the boundary), the packets docs/formats/rc2.md describes. */
#include "rc2_restream.h"

#include <string.h>

#include "../common/wk_error.h"
#include "../lz/wk_lz.h"

#define WINDOW 0xc000u

static GBytes *
whole (const guint8 *plain, gsize n, WkRestreamInfo *info, GError **error)
{
  memset (info, 0, sizeof *info);
  info->whole = TRUE;
  info->compressed = n;
  return wk_lz_compress (plain, n, WK_RC2_LZ_MODE, error);
}

/* plain_at[0..nb], after_run[0..nb] of the old stream; FALSE if it cannot
 * be walked block by block or does not give old_n bytes. */
static gboolean
block_map (const guint8 *old, gsize size, gsize old_n, gsize *plain_at,
           gboolean *after_run, guint nb)
{
  WkLzDecoder d;
  if (!wk_lz_decoder_init (&d, old, size, 0, NULL))
    return FALSE;
  g_autofree guint8 *out = g_malloc (MAX (old_n, 1));
  const guint8 *end = d.end;
  plain_at[0] = 0;
  after_run[0] = FALSE;
  for (guint j = 0; j < nb; j++)
    {
      gsize stop = WK_LZ_HEADER + (gsize) (j + 1) * WK_LZ_BLOCK;
      d.end = old + stop < end ? old + stop : end;
      if (wk_lz_decoder_run (&d, out, old_n, NULL) != WK_LZ_DONE || d.ip != d.end)
        return FALSE;
      plain_at[j + 1] = d.produced;
      after_run[j + 1] = d.after_run;
    }
  return d.produced == old_n;
}

static gboolean
check (GBytes *s, const guint8 *plain, gsize n)
{
  gsize size;
  const guint8 *p = g_bytes_get_data (s, &size);
  g_autoptr (GPtrArray) v = wk_lz_validate (p, size, 1);
  if (v->len)
    return FALSE;
  WkLzDecoder d;
  if (!wk_lz_decoder_init (&d, p, size, 0, NULL))
    return FALSE;
  g_autofree guint8 *out = g_malloc (n + 1);
  return wk_lz_decoder_run (&d, out, n + 1, NULL) == WK_LZ_DONE && d.produced == n
         && memcmp (out, plain, n) == 0;
}

GBytes *
wk_rc2_restream (const guint8 *old, gsize old_size, const guint8 *old_plain,
                 gsize old_n, const guint8 *new_plain, gsize new_n,
                 WkRestreamInfo *info, GError **error)
{
  gsize declared;
  if (!wk_lz_header (old, old_size, 0, &declared, NULL))
    return whole (new_plain, new_n, info, error);
  gsize a = 0, s = 0, lim = MIN (old_n, new_n);
  while (a < lim && old_plain[a] == new_plain[a])
    a++;
  if (a == old_n && a == new_n)
    {
      memset (info, 0, sizeof *info);
      info->kept_before = declared;
      return g_bytes_new (old, declared);
    }
  while (s < lim - a && old_plain[old_n - 1 - s] == new_plain[new_n - 1 - s])
    s++;
  guint nb = (guint) ((declared - WK_LZ_HEADER + WK_LZ_BLOCK - 1) / WK_LZ_BLOCK);
  g_autofree gsize *plain_at = g_new (gsize, nb + 1);
  g_autofree gboolean *after_run = g_new (gboolean, nb + 1);
  if (!block_map (old, declared, old_n, plain_at, after_run, nb))
    return whole (new_plain, new_n, info, error);
  guint i = 0, j = nb;
  for (guint k = 1; k <= nb && plain_at[k] <= a; k++)
    if (!after_run[k] && k < nb)
      i = k;
  gsize b = old_n - s;
  for (guint k = i + 1; k < nb; k++)
    if (plain_at[k] >= b + WINDOW)
      {
        j = k;
        break;
      }
  if (i == 0 && j == nb)
    return whole (new_plain, new_n, info, error);
  gsize from = plain_at[i], to = j == nb ? new_n : plain_at[j] + new_n - old_n;
  g_autoptr (GBytes) mid = wk_lz_compress (new_plain + from, to - from, WK_RC2_LZ_MODE,
                                           error);
  if (mid == NULL)
    return NULL;
  gsize msize;
  const guint8 *m = g_bytes_get_data (mid, &msize);
  g_autoptr (GByteArray) o = g_byte_array_new ();
  g_byte_array_append (o, old, (guint) (WK_LZ_HEADER + (gsize) i * WK_LZ_BLOCK));
  g_byte_array_append (o, m + WK_LZ_HEADER, (guint) (msize - WK_LZ_HEADER));
  if (j < nb)
    {
      static const guint8 dummy[3] = { 0x11, 0x00, 0x00 }, pad[3] = { 0x12, 0x00, 0x00 };
      gsize r = (msize - WK_LZ_HEADER) % WK_LZ_BLOCK;
      if (r)
        {
          for (; r < WK_LZ_BLOCK / 2; r += 3)
            g_byte_array_append (o, dummy, 3);
          if (r > WK_LZ_BLOCK - 3)
            return whole (new_plain, new_n, info, error);
          g_byte_array_append (o, pad, 3);
          for (r += 3; r < WK_LZ_BLOCK; r++)
            g_byte_array_append (o, (const guint8 *) "\xee", 1);
        }
      g_byte_array_append (o, old + WK_LZ_HEADER + (gsize) j * WK_LZ_BLOCK,
                           (guint) (declared - WK_LZ_HEADER - (gsize) j * WK_LZ_BLOCK));
    }
  if (o->len > G_MAXINT32)
    return whole (new_plain, new_n, info, error);
  gint32 total = GINT32_TO_LE ((gint32) o->len);
  memcpy (o->data + 3, &total, 4);
  g_autoptr (GBytes) out = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  if (!check (out, new_plain, new_n))
    return whole (new_plain, new_n, info, error);
  info->whole = FALSE;
  info->kept_before = WK_LZ_HEADER + (gsize) i * WK_LZ_BLOCK;
  info->kept_after = declared - WK_LZ_HEADER - (gsize) j * WK_LZ_BLOCK;
  info->compressed = to - from;
  return g_steal_pointer (&out);
}
