/* Bounds-checked little-endian reader over a byte buffer.
 *
 * Every read checks offset and length against the buffer; every failure is a
 * WK_ERROR_FORMAT naming what was read and the absolute file offset
 * (base + position). Counts read from a file are validated with
 * wk_reader_need() before anything is allocated or looped over. */
#pragma once
#include <glib.h>
#include <string.h>

#include "wk_error.h"

G_BEGIN_DECLS

typedef struct {
  const guint8 *data;
  gsize size;
  gsize pos;
  gint64 base; /* absolute file offset of data[0], for error messages */
} WkReader;

static inline void
wk_reader_init (WkReader *r, const guint8 *data, gsize size, gint64 base)
{
  r->data = data;
  r->size = size;
  r->pos = 0;
  r->base = base;
}

static inline gsize wk_reader_left (const WkReader *r) { return r->size - r->pos; }
static inline gint64 wk_reader_abs (const WkReader *r) { return r->base + (gint64) r->pos; }
static inline const guint8 *wk_reader_ptr (const WkReader *r) { return r->data + r->pos; }

/* Unchecked little-endian loads, for loops whose extent was checked once. */
static inline guint16 wk_le16 (const guint8 *p) { guint16 v; memcpy (&v, p, 2); return GUINT16_FROM_LE (v); }
static inline guint32 wk_le32 (const guint8 *p) { guint32 v; memcpy (&v, p, 4); return GUINT32_FROM_LE (v); }
static inline gint16 wk_les16 (const guint8 *p) { return (gint16) wk_le16 (p); }
static inline gint32 wk_les32 (const guint8 *p) { return (gint32) wk_le32 (p); }
static inline gfloat wk_lef32 (const guint8 *p) { guint32 u = wk_le32 (p); gfloat f; memcpy (&f, &u, 4); return f; }

/* Fails unless n more bytes are available. */
gboolean wk_reader_check (const WkReader *r, gsize n, const char *what, GError **error);

/* Fails unless count elements of elem_size bytes fit in what is left
 * (overflow-safe). Use before allocating or looping on a count from a file. */
gboolean wk_reader_need (const WkReader *r, guint64 count, gsize elem_size,
                         const char *what, GError **error);

gboolean wk_reader_skip (WkReader *r, gsize n, const char *what, GError **error);
gboolean wk_reader_seek (WkReader *r, gsize pos, const char *what, GError **error);
/* A view of the next n bytes; advances. */
gboolean wk_reader_bytes (WkReader *r, gsize n, const guint8 **out,
                          const char *what, GError **error);
/* A sub-reader over the next n bytes (its base is absolute); advances. */
gboolean wk_reader_sub (WkReader *r, gsize n, WkReader *sub,
                        const char *what, GError **error);

gboolean wk_read_u8 (WkReader *r, guint8 *out, const char *what, GError **error);
gboolean wk_read_u16 (WkReader *r, guint16 *out, const char *what, GError **error);
gboolean wk_read_u32 (WkReader *r, guint32 *out, const char *what, GError **error);
gboolean wk_read_i32 (WkReader *r, gint32 *out, const char *what, GError **error);
gboolean wk_read_f32 (WkReader *r, gfloat *out, const char *what, GError **error);

/* Little-endian appends to a growable output buffer. */
void wk_put_u8 (GByteArray *out, guint8 v);
void wk_put_u16 (GByteArray *out, guint16 v);
void wk_put_u32 (GByteArray *out, guint32 v);
void wk_put_f32 (GByteArray *out, gfloat v);
void wk_put_bytes (GByteArray *out, const guint8 *data, gsize n);
/* Zeros until out->len is a multiple of align. */
void wk_put_pad (GByteArray *out, gsize align);

/* Little-endian stores over bytes already in out (at + size <= out->len). */
void wk_set_u16 (GByteArray *out, gsize at, guint16 v);
void wk_set_u32 (GByteArray *out, gsize at, guint32 v);
void wk_set_f32 (GByteArray *out, gsize at, gfloat v);

G_END_DECLS
