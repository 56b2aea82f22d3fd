/* ENG texture pixels: ABGR1555 <-> RGBA and the RLE16 codec. */
#include "eng_text.h"

#include "../common/wk_reader.h"

static inline guint8
expand5 (guint v)
{
  return (guint8) ((v << 3) | (v >> 2));
}

void
wk_eng_abgr1555_to_rgba (guint16 v, guint8 rgba[4])
{
  rgba[0] = expand5 (v & 31u);
  rgba[1] = expand5 ((v >> 5) & 31u);
  rgba[2] = expand5 ((v >> 10) & 31u);
  rgba[3] = v == 0 ? 0 : 255; /* bit 15 does not make a texel transparent */
}

/* For each 8-bit value the 5-bit value whose expansion is nearest, so that
 * expand -> quantise gives every 5-bit value back. */
static void
quant5_table (guint8 table[256])
{
  for (guint v = 0; v < 256; v++)
    {
      guint best = 0, best_d = G_MAXUINT;
      for (guint q = 0; q < 32; q++)
        {
          guint e = expand5 (q);
          guint d = e > v ? e - v : v - e;
          if (d < best_d)
            best = q, best_d = d;
        }
      table[v] = (guint8) best;
    }
}

/* Bit 15 for pixels without a source value of their own: the bit most
 * non-zero source pixels carry (clear on a tie or without a source). */
static guint16
majority_bit15 (const guint16 *src, gsize n)
{
  gsize set = 0, opaque = 0;
  for (gsize i = 0; src && i < n; i++)
    if (src[i])
      opaque++, set += (src[i] & 0x8000u) != 0;
  return 2 * set > opaque ? 0x8000u : 0;
}

void
wk_eng_rgba_to_abgr1555_over (const guint8 *rgba, gsize n, const guint16 *src,
                              guint16 *out)
{
  guint8 q[256];
  quant5_table (q);
  const guint16 bit_new = majority_bit15 (src, n);
  for (gsize i = 0; i < n; i++)
    {
      const guint8 *p = rgba + 4 * i;
      if (p[3] < 128)
        {
          out[i] = 0;
          continue;
        }
      guint v = q[p[0]] | (guint) q[p[1]] << 5 | (guint) q[p[2]] << 10;
      guint old = src ? src[i] : 0;
      /* the colour unchanged: the source value, bit 15 included; else the
       * bit of the pixel this one replaces */
      v |= old ? (old & 0x8000u) : bit_new;
      if (v == 0) /* opaque black: 0 would read as transparent */
        v = 0x8000u;
      out[i] = (guint16) v;
    }
}

void
wk_eng_rgba_to_abgr1555 (const guint8 *rgba, gsize n, guint16 *out)
{
  wk_eng_rgba_to_abgr1555_over (rgba, n, NULL, out);
}

gboolean
wk_eng_rle16_decode (const guint8 *src, gsize n_words, gint64 abs,
                     guint16 *out, guint64 n_pixels, GError **error)
{
  gsize i = 0;
  guint64 dst = 0;
  while (dst < n_pixels)
    {
      gint64 at = abs + 2 * (gint64) i;
      if (i >= n_words)
        {
          if (dst + 1 == n_pixels)
            { /* one short: the last pixel stays 0 (see docs) */
              if (out)
                out[dst] = 0;
              return TRUE;
            }
          wk_set_error (error, WK_ERROR_FORMAT, at,
                        "RLE16 stream ends after %" G_GUINT64_FORMAT " of %"
                        G_GUINT64_FORMAT " pixels", dst, n_pixels);
          return FALSE;
        }
      gint16 c = wk_les16 (src + 2 * i);
      i++;
      gboolean repeat = c < 0;
      guint64 n = repeat ? (guint64) (-(gint32) c) : (guint64) c;
      if (n > n_pixels - dst)
        {
          wk_set_error (error, WK_ERROR_FORMAT, at,
                        "RLE16 %s run of %" G_GUINT64_FORMAT " pixels at pixel %"
                        G_GUINT64_FORMAT " overflows the %" G_GUINT64_FORMAT
                        "-pixel page", repeat ? "repeat" : "literal", n, dst,
                        n_pixels);
          return FALSE;
        }
      gsize need = repeat ? 1 : (gsize) n;
      if (need > n_words - i)
        {
          wk_set_error (error, WK_ERROR_FORMAT, at,
                        "RLE16 %s run needs %" G_GSIZE_FORMAT " pixel words, the "
                        "stream has %" G_GSIZE_FORMAT " left",
                        repeat ? "repeat" : "literal", need, n_words - i);
          return FALSE;
        }
      if (out)
        {
          if (repeat)
            {
              guint16 v = wk_le16 (src + 2 * i);
              for (guint64 k = 0; k < n; k++)
                out[dst + k] = v;
            }
          else
            for (guint64 k = 0; k < n; k++)
              out[dst + k] = wk_le16 (src + 2 * (i + k));
        }
      i += need;
      dst += n;
    }
  return TRUE; /* words after a full page are ignored, as by the engine's
                * port in ArgonautReverse */
}

typedef struct {
  gsize start;
  gsize len;
  gboolean repeat;
} Seg;

static void
add_literal (GArray *segs, gsize start, gsize len)
{
  while (len > 0)
    {
      gsize n = MIN (len, (gsize) WK_ENG_RLE_MAX_RUN);
      Seg s = { start, n, FALSE };
      g_array_append_val (segs, s);
      start += n;
      len -= n;
    }
}

void
wk_eng_rle16_encode (const guint16 *px, gsize n, GByteArray *out)
{
  g_autoptr (GArray) segs = g_array_new (FALSE, FALSE, sizeof (Seg));
  gsize i = 0, lit = 0; /* literal pixels pending from i - lit */
  while (i < n)
    {
      gsize r = 1;
      while (i + r < n && r < WK_ENG_RLE_MAX_RUN && px[i + r] == px[i])
        r++;
      if (r >= 3) /* a repeat (2 words) only pays from 3 pixels on */
        {
          add_literal (segs, i - lit, lit);
          lit = 0;
          Seg s = { i, r, TRUE };
          g_array_append_val (segs, s);
        }
      else
        lit += r;
      i += r;
    }
  add_literal (segs, n - lit, lit);

  /* A reader that stops at w·h-1 pixels (ArgonautReverse) would drop a run
   * that starts at the last pixel: fold the last pixel into the run before. */
  guint ns = segs->len;
  if (n >= 2 && ns >= 2
      && g_array_index (segs, Seg, ns - 1).start == n - 1)
    {
      Seg *prev = &g_array_index (segs, Seg, ns - 2);
      Seg *last = &g_array_index (segs, Seg, ns - 1);
      if (!prev->repeat && prev->len < WK_ENG_RLE_MAX_RUN)
        {
          prev->len++;
          g_array_set_size (segs, ns - 1);
        }
      else
        { /* shorten the run before by one (a repeat keeps >= 2) */
          prev->len--;
          last->start = n - 2;
          last->len = 2;
          last->repeat = FALSE;
        }
    }

  for (guint k = 0; k < segs->len; k++)
    {
      const Seg *s = &g_array_index (segs, Seg, k);
      if (s->repeat)
        {
          wk_put_u16 (out, (guint16) (-(gint32) s->len));
          wk_put_u16 (out, px[s->start]);
        }
      else
        {
          wk_put_u16 (out, (guint16) s->len);
          for (gsize j = 0; j < s->len; j++)
            wk_put_u16 (out, px[s->start + j]);
        }
    }
}
