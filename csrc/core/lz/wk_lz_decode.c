/* WAD-LZ decoder. A packet is decoded with all bounds proved by one check
 * (enough input and output left for the longest packet) on the fast path;
 * near either end the same code runs with a check per field. Either way
 * each back-reference is checked against the output start. */
#include "wk_lz.h"

#include <string.h>

#include "../common/wk_reader.h"

/* Longest packet (2 + 273) plus the unconditional 4-byte copy of a small
 * literal, rounded up. */
#define IN_MARGIN 288u
/* Longest output (288 + 3) plus the overrun of 8-byte match copies. */
#define OUT_MARGIN 320u

gboolean
wk_lz_header (const guint8 *src, gsize size, gint64 base, gsize *declared,
              GError **error)
{
  if (size < WK_LZ_HEADER)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base,
                    "WAD-LZ header needs 16 bytes, %" G_GSIZE_FORMAT " given", size);
      return FALSE;
    }
  if (memcmp (src, "WAD", 3) != 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base,
                    "no WAD-LZ magic (\"WAD\"): %02x %02x %02x", src[0], src[1],
                    src[2]);
      return FALSE;
    }
  gint32 total = wk_les32 (src + 3); /* unaligned on purpose */
  if (total < (gint32) WK_LZ_HEADER || (guint64) total > size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + 3,
                    "WAD-LZ size field says %d bytes, %" G_GSIZE_FORMAT
                    " are available", total, size);
      return FALSE;
    }
  *declared = (gsize) total;
  return TRUE;
}

gboolean
wk_lz_decoder_init (WkLzDecoder *d, const guint8 *src, gsize size, gint64 base,
                    GError **error)
{
  gsize declared;
  if (!wk_lz_header (src, size, base, &declared, error))
    return FALSE;
  d->stream = src;
  d->ip = src + WK_LZ_HEADER;
  d->end = src + declared;
  d->base = base;
  d->produced = 0;
  d->after_run = FALSE;
  return TRUE;
}

enum { PKT_OK = 0, PKT_FULL = 1, PKT_ERROR = -1 };

static int
truncated (const WkLzDecoder *d, const guint8 *ip, GError **error)
{
  wk_set_error (error, WK_ERROR_FORMAT, d->base + (ip - d->stream),
                "WAD-LZ packet (flag 0x%02x) runs past the end of the stream "
                "(%" G_GSIZE_FORMAT " bytes left)", ip[0], (gsize) (d->end - ip));
  return PKT_ERROR;
}

/* One packet at *ipp. careful is a constant after inlining: FALSE only when
 * the caller proved IN_MARGIN input and OUT_MARGIN output are left. */
static inline G_ALWAYS_INLINE int
packet (const WkLzDecoder *d, const guint8 **ipp, gsize *opp,
        gboolean *after_run, guint8 *out, gsize cap, gboolean careful,
        GError **error)
{
  const guint8 *ip = *ipp, *end = d->end;
  gsize op = *opp;
  guint f = ip[0];

  if (f < 0x10) /* literal run */
    {
      if (*after_run)
        {
          wk_set_error (error, WK_ERROR_FORMAT, d->base + (ip - d->stream),
                        "two WAD-LZ literal runs in a row (the game forbids it)");
          return PKT_ERROR;
        }
      gsize n = f + 3u, hdr = 1;
      if (f == 0)
        {
          if (careful && end - ip < 2)
            return truncated (d, ip, error);
          n = ip[1] + 18u;
          hdr = 2;
        }
      if (careful && (gsize) (end - ip) < hdr + n)
        return truncated (d, ip, error);
      if (careful && cap - op < n)
        return PKT_FULL;
      memcpy (out + op, ip + hdr, n);
      *ipp = ip + hdr + n;
      *opp = op + n;
      *after_run = TRUE;
      return PKT_OK;
    }

  const guint8 *p = ip + 1;
  gsize len, dist;
  guint k;
  if (f < 0x20) /* far match, dummy or pad */
    {
      guint m = f & 7;
      if (careful && end - p < (m ? 2 : 3))
        return truncated (d, ip, error);
      if (m == 0)
        m = *p++ + 7u;
      guint b0 = p[0], b1 = p[1];
      p += 2;
      gsize raw = ((gsize) (f & 8) << 11) | ((gsize) b1 << 6) | (b0 >> 2);
      if (raw == 0 && m != 1)
        {
          /* Pad: skip to the next block boundary [assumed 0x2000]. */
          gsize pos = (gsize) (p - d->stream) - WK_LZ_HEADER;
          gsize next = (pos + WK_LZ_BLOCK - 1) / WK_LZ_BLOCK * WK_LZ_BLOCK;
          gsize left = (gsize) (end - d->stream) - WK_LZ_HEADER;
          *ipp = next >= left ? end : d->stream + WK_LZ_HEADER + next;
          *after_run = FALSE;
          return PKT_OK;
        }
      k = b0 & 3;
      len = raw ? m + 2u : 0;          /* raw == 0, m == 1: dummy packet */
      dist = raw ? raw + WK_LZ_FAR_BASE : 0;
    }
  else if (f < 0x40) /* medium match */
    {
      guint m = f & 0x1f;
      if (careful && end - p < (m ? 2 : 3))
        return truncated (d, ip, error);
      if (m == 0)
        m = *p++ + 31u;
      len = m + 2u;
      guint b1 = p[0], b2 = p[1];
      p += 2;
      dist = ((gsize) b2 << 6) + (b1 >> 2) + 1;
      k = b1 & 3;
    }
  else /* little match */
    {
      if (careful && end - p < 1)
        return truncated (d, ip, error);
      len = (f >> 5) + 1u;
      dist = ((gsize) p[0] << 3) + ((f >> 2) & 7) + 1;
      k = f & 3;
      p++;
    }
  if (careful && (gsize) (end - p) < k)
    return truncated (d, ip, error);
  if (careful && cap - op < len + k)
    return PKT_FULL;
  if (dist > op)
    {
      wk_set_error (error, WK_ERROR_FORMAT, d->base + (ip - d->stream),
                    "WAD-LZ match (flag 0x%02x) reaches %" G_GSIZE_FORMAT
                    " bytes back, only %" G_GSIZE_FORMAT " written", f, dist, op);
      return PKT_ERROR;
    }

  guint8 *o = out + op;
  const guint8 *s = o - dist;
  if (careful)
    {
      if (dist >= len)
        memcpy (o, s, len);
      else
        for (gsize i = 0; i < len; i++)
          o[i] = s[i];
      memcpy (o + len, p, k);
    }
  else
    {
      if (dist >= 8)
        for (gsize i = 0; i < len; i += 8)
          memcpy (o + i, s + i, 8); /* may write up to 7 bytes past: margin */
      else if (dist == 1)
        memset (o, s[0], len);
      else
        for (gsize i = 0; i < len; i++)
          o[i] = s[i];
      memcpy (o + len, p, 4); /* k <= 3 of these count */
    }
  *ipp = p + k;
  *opp = op + len + k;
  *after_run = FALSE;
  return PKT_OK;
}

WkLzStatus
wk_lz_decoder_run (WkLzDecoder *d, guint8 *out, gsize cap, GError **error)
{
  const guint8 *ip = d->ip;
  gsize op = d->produced;
  gboolean after_run = d->after_run;
  int rc = PKT_OK;
  while (ip < d->end)
    {
      if ((gsize) (d->end - ip) >= IN_MARGIN && cap - op >= OUT_MARGIN)
        rc = packet (d, &ip, &op, &after_run, out, cap, FALSE, error);
      else
        rc = packet (d, &ip, &op, &after_run, out, cap, TRUE, error);
      if (rc != PKT_OK)
        break;
    }
  d->ip = ip;
  d->produced = op;
  d->after_run = after_run;
  return rc == PKT_OK ? WK_LZ_DONE : rc == PKT_FULL ? WK_LZ_FULL : WK_LZ_ERROR;
}

/* The farthest a match reaches under either reading of the far bit
 * (docs/formats/rc2-wadlz.md): the history wk_lz_decodes_to keeps. */
#define HISTORY 0xc000u
#define CHUNK 0x10000u

gboolean
wk_lz_decodes_to (const guint8 *src, gsize size, gint64 base, gint64 expected,
                  const guint8 *want, gsize want_n, GError **error)
{
  WkLzDecoder d;
  if (!wk_lz_decoder_init (&d, src, size, base, error))
    return FALSE;
  if (want && expected >= 0 && (guint64) expected != want_n)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "the stream is said to decode "
                    "to %" G_GINT64_FORMAT " bytes, %" G_GSIZE_FORMAT " expected",
                    expected, want_n);
      return FALSE;
    }
  /* HISTORY + CHUNK stays under malloc's mmap threshold: warm memory */
  g_autofree guint8 *buf = g_malloc (HISTORY + CHUNK);
  gsize before = 0, checked = 0; /* output before buf[0]; compared in buf */
  gsize cap_total = expected >= 0 ? (gsize) expected : want ? want_n : G_MAXSIZE;
  for (;;)
    {
      gsize cap = HISTORY + CHUNK;
      if (cap_total - before < cap)
        cap = cap_total - before;
      WkLzStatus st = wk_lz_decoder_run (&d, buf, cap, error);
      if (st == WK_LZ_ERROR)
        return FALSE;
      if (want && memcmp (buf + checked, want + before + checked, d.produced - checked))
        {
          wk_set_error (error, WK_ERROR_FORMAT, base, "the stream decodes to other "
                        "bytes than expected from output offset %" G_GSIZE_FORMAT,
                        before + checked);
          return FALSE;
        }
      if (st == WK_LZ_DONE)
        break;
      if (d.produced < HISTORY + CHUNK / 2)
        { /* full before the buffer is: the cap itself */
          wk_set_error (error, WK_ERROR_FORMAT, base, "the stream decodes to more "
                        "than %" G_GSIZE_FORMAT " bytes", cap_total);
          return FALSE;
        }
      gsize keep = HISTORY;
      memmove (buf, buf + d.produced - keep, keep);
      before += d.produced - keep;
      d.produced = checked = keep;
    }
  gsize total = before + d.produced;
  if (total != cap_total && (expected >= 0 || want))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "the stream decodes to %"
                    G_GSIZE_FORMAT " bytes, not %" G_GSIZE_FORMAT, total, cap_total);
      return FALSE;
    }
  return TRUE;
}
