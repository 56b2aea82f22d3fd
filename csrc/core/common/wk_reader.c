#include "wk_reader.h"

gboolean
wk_reader_check (const WkReader *r, gsize n, const char *what, GError **error)
{
  if (n <= wk_reader_left (r))
    return TRUE;
  wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (r),
                "truncated %s: need %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT
                " left", what, n, wk_reader_left (r));
  return FALSE;
}

gboolean
wk_reader_need (const WkReader *r, guint64 count, gsize elem_size,
                const char *what, GError **error)
{
  gsize left = wk_reader_left (r);
  if (elem_size == 0 || count <= left / elem_size)
    return TRUE;
  wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (r),
                "%s count %" G_GUINT64_FORMAT " × %" G_GSIZE_FORMAT
                " bytes does not fit in the %" G_GSIZE_FORMAT " bytes left",
                what, count, elem_size, left);
  return FALSE;
}

gboolean
wk_reader_skip (WkReader *r, gsize n, const char *what, GError **error)
{
  if (!wk_reader_check (r, n, what, error))
    return FALSE;
  r->pos += n;
  return TRUE;
}

gboolean
wk_reader_seek (WkReader *r, gsize pos, const char *what, GError **error)
{
  if (pos > r->size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, r->base + (gint64) pos,
                    "%s lies past the end (size %" G_GSIZE_FORMAT ")", what,
                    r->size);
      return FALSE;
    }
  r->pos = pos;
  return TRUE;
}

gboolean
wk_reader_bytes (WkReader *r, gsize n, const guint8 **out, const char *what,
                 GError **error)
{
  if (!wk_reader_check (r, n, what, error))
    return FALSE;
  *out = r->data + r->pos;
  r->pos += n;
  return TRUE;
}

gboolean
wk_reader_sub (WkReader *r, gsize n, WkReader *sub, const char *what,
               GError **error)
{
  if (!wk_reader_check (r, n, what, error))
    return FALSE;
  wk_reader_init (sub, r->data + r->pos, n, wk_reader_abs (r));
  r->pos += n;
  return TRUE;
}

#define WK_DEFINE_READ(name, type, size, load)                              \
  gboolean name (WkReader *r, type *out, const char *what, GError **error)  \
  {                                                                         \
    if (!wk_reader_check (r, size, what, error))                            \
      return FALSE;                                                         \
    *out = load (r->data + r->pos);                                         \
    r->pos += size;                                                         \
    return TRUE;                                                            \
  }

static inline guint8 wk_u8 (const guint8 *p) { return *p; }
WK_DEFINE_READ (wk_read_u8, guint8, 1, wk_u8)
WK_DEFINE_READ (wk_read_u16, guint16, 2, wk_le16)
WK_DEFINE_READ (wk_read_u32, guint32, 4, wk_le32)
WK_DEFINE_READ (wk_read_i32, gint32, 4, wk_les32)
WK_DEFINE_READ (wk_read_f32, gfloat, 4, wk_lef32)

void wk_put_u8 (GByteArray *out, guint8 v) { g_byte_array_append (out, &v, 1); }

void
wk_put_u16 (GByteArray *out, guint16 v)
{
  v = GUINT16_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 2);
}

void
wk_put_u32 (GByteArray *out, guint32 v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (out, (const guint8 *) &v, 4);
}

void
wk_put_f32 (GByteArray *out, gfloat f)
{
  guint32 u;
  memcpy (&u, &f, 4);
  wk_put_u32 (out, u);
}

void
wk_put_bytes (GByteArray *out, const guint8 *data, gsize n)
{
  if (n > G_MAXUINT)
    g_error ("wk_put_bytes: %" G_GSIZE_FORMAT " bytes at once", n);
  g_byte_array_append (out, data, (guint) n);
}

void
wk_put_pad (GByteArray *out, gsize align)
{
  while (out->len % align)
    wk_put_u8 (out, 0);
}

void
wk_set_u16 (GByteArray *out, gsize at, guint16 v)
{
  g_assert (at + 2 <= out->len);
  v = GUINT16_TO_LE (v);
  memcpy (out->data + at, &v, 2);
}

void
wk_set_u32 (GByteArray *out, gsize at, guint32 v)
{
  g_assert (at + 4 <= out->len);
  v = GUINT32_TO_LE (v);
  memcpy (out->data + at, &v, 4);
}

void
wk_set_f32 (GByteArray *out, gsize at, gfloat f)
{
  guint32 u;
  memcpy (&u, &f, 4);
  wk_set_u32 (out, at, u);
}
