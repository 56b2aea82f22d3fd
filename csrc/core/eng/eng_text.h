/* ENG TEXT chunk: palettes, texture pages (8-bit paletted, 16-bit ABGR1555,
 * RLE16), the texture table and the animated-texture ("effect") records.
 *
 *   u32 nPal; nPal × {u32 index, u32 n, n × u16 ABGR1555, n × u8}
 *   u32 nPages; nPages × {u32 flags, u32 w, u32 h, data}
 *       flags & 0x80: u32 byte length + RLE16 stream
 *       flags != 0:   w·h × u16 ABGR1555
 *       flags == 0:   w·h × u8 palette indices
 *   u32 nTex; nTex × 8-byte entries (eng_uv.h)
 *   rest: u32 nEffects + effect records (kept byte for byte)
 *
 * docs/formats/eng.md "TEXT". Pure C11 +
 * GLib. Rebuilding an unchanged WkEngText gives the input byte for byte. */
#pragma once
#include <glib.h>

#include "eng_uv.h"

G_BEGIN_DECLS

#define WK_ENG_PAGE_FLAG_RLE 0x80u
/* Largest page side accepted [assumed: the engine's pages are 256×256;
 * this bounds what an RLE stream may ask us to allocate]. */
#define WK_ENG_PAGE_MAX_SIDE 4096u
/* Longest RLE16 run either way. */
#define WK_ENG_RLE_MAX_RUN 32767u

typedef enum {
  WK_ENG_PAGE_PAL8,  /* flags == 0: w·h bytes of palette indices */
  WK_ENG_PAGE_RGB16, /* flags != 0 without 0x80: w·h × u16 */
  WK_ENG_PAGE_RLE16, /* flags & 0x80: u32 byte length + RLE16 words */
} WkEngPageKind;

typedef struct {
  guint32 index;        /* the first u32 as stored (meaning unknown) */
  guint32 count;        /* number of colours */
  gsize offset;         /* of the record, within the payload */
  const guint8 *colors; /* count × u16 ABGR1555, into WkEngText.payload */
  const guint8 *extra;  /* count × u8 (meaning unknown) */
} WkEngPalette;

typedef struct {
  guint32 flags, width, height;
  WkEngPageKind kind;
  gint palette;        /* PAL8: list position of the palette used; else -1 */
  gboolean palette_shared; /* PAL8: the texture table names >1 palette */
  gboolean replaced;   /* re-encoded by wk_eng_text_set_page_rgba */
  gint64 offset;       /* absolute offset of the source record; -1 if replaced */
  GBytes *record;      /* the whole page record as it will be written */
} WkEngPage;

typedef struct {
  guint16 texture;   /* texture-table index the effect animates */
  guint8 type;       /* 1/2 move, 7/9 range cycle, 8 anim, 10/11 multi move */
  guint8 n_params;
  guint8 params[6];  /* the type's byte parameters, as stored */
  GArray *frames;    /* guint16 words after the parameters (types 8, 10, 11) */
} WkEngTexEffect;

typedef struct {
  GBytes *payload;   /* own copy of the TEXT payload as parsed */
  gint64 base;       /* absolute file offset of the payload */
  GArray *palettes;  /* WkEngPalette */
  GArray *pages;     /* WkEngPage */
  GArray *entries;   /* WkEngTexEntry, the texture table */
  gsize pages_start; /* payload offset of the first page record */
  gsize pages_end;   /* payload offset just past the last page record */
  gsize table_offset;/* payload offset of the first texture entry */
  gsize tail_offset; /* payload offset just past the table */
  GArray *effects;   /* WkEngTexEffect; NULL when the tail does not decode */
  gchar *effects_note; /* why effects is NULL */
  GArray *added;     /* WkEngTexEntry appended by wk_eng_text_add_entry */
} WkEngText;

/* Most pages: a texture entry names its page in an i8. */
#define WK_ENG_TEXT_MAX_PAGES 128u
/* Most texture entries: WK_ENG_TEX_MAX_ENTRIES (eng_uv.h; a face names its
 * entry in a u16). */

/* Parse a TEXT payload (copied). base_offset is the payload's absolute file
 * offset, used in error messages. Validates every page (RLE streams walked,
 * palette indices checked) so the decoders below cannot fail on it. */
WkEngText *wk_eng_text_parse (const guint8 *payload, gsize size,
                              gint64 base_offset, GError **error);
/* The same without the copy: takes a reference on payload (which must not
 * change while the WkEngText lives). */
WkEngText *wk_eng_text_parse_bytes (GBytes *payload, gint64 base_offset,
                                    GError **error);
void wk_eng_text_free (WkEngText *text);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngText, wk_eng_text_free)

/* The TEXT payload: unchanged pages and everything around them as parsed,
 * replaced pages re-encoded. Byte-identical to the input when unchanged. */
GBytes *wk_eng_text_build (const WkEngText *text);

/* The same with `size` bytes of raw 8-byte entries appended to the texture
 * table (its count raised, the effect list after it unchanged), so every
 * existing index (faces, effects) keeps its meaning. WK_ERROR_LIMIT when
 * size is not whole entries or the table would pass WK_ENG_TEX_MAX_ENTRIES. */
GBytes *wk_eng_text_with_entries (const WkEngText *text, const guint8 *entries,
                                  gsize size, GError **error);

/* Decode page i into rgba (height × width × 4 bytes, rows top to bottom). */
gboolean wk_eng_text_page_rgba (const WkEngText *text, guint i, guint8 *rgba,
                                GError **error);

/* Re-encode page i from rgba (height × width × 4) in the page's own kind.
 * Pixels that show what the page holds keep their stored value (16-bit:
 * bit 15 included; 8-bit: the index), so decode -> set gives the record
 * back byte for byte, and a page whose pixels all encode to what it holds
 * is left as it is (not marked replaced). PAL8: other pixels become the
 * nearest colour of the page's palette; a changed page the texture table
 * draws with more than one palette is refused (WK_ERROR_LIMIT). RLE16: a
 * stream that would be larger than the raw 16-bit pixels is written raw
 * instead (flag 0x80 cleared). */
gboolean wk_eng_text_set_page_rgba (WkEngText *t, guint i,
                                    const guint8 *rgba, GError **error);

/* Append a page of width × height pixels from rgba in kind RGB16 (flags
 * 0x01) or RLE16 (flags 0x80; written raw as RGB16 when RLE would be
 * larger). Returns its index, or -1: WK_ERROR_LIMIT when the TEXT already
 * has WK_ENG_TEXT_MAX_PAGES pages, WK_ERROR_ARGUMENT for PAL8 (a new page
 * has no palette of its own) or a side outside 1..WK_ENG_PAGE_MAX_SIDE. */
gint wk_eng_text_add_page (WkEngText *t, const guint8 *rgba, guint32 width,
                           guint32 height, WkEngPageKind kind, GError **error);

/* Append entry e to the texture table (after every existing entry, so
 * existing indices and the effect records keep their meaning). Returns its
 * index, or -1 with WK_ERROR_LIMIT past WK_ENG_TEX_MAX_ENTRIES entries or
 * WK_ERROR_ARGUMENT when e names a page the TEXT does not have. */
gint wk_eng_text_add_entry (WkEngText *t, const WkEngTexEntry *e,
                            GError **error);

/* Palette i as RGBA (count × 4). */
void wk_eng_text_palette_rgba (const WkEngText *text, guint i, guint8 *rgba);

/* ABGR1555 <-> RGBA. R = bits 0-4, G 5-9, B 10-14; 5 -> 8 bits as
 * (v << 3) | (v >> 2). The value 0 -> alpha 0, every other value -> 255
 * (bit 15 does not make a texel transparent; docs/formats/eng.md "TEXT").
 * Back: alpha < 128 -> 0; else the colour, with bit 15 of src[i] (the
 * pixel it replaces; src NULL or src[i] 0: the bit most non-zero src
 * pixels carry, clear without src); an opaque black that would give 0
 * gets 0x8000. */
void wk_eng_abgr1555_to_rgba (guint16 v, guint8 rgba[4]);
void wk_eng_rgba_to_abgr1555_over (const guint8 *rgba, gsize n,
                                   const guint16 *src, guint16 *out);
void wk_eng_rgba_to_abgr1555 (const guint8 *rgba, gsize n, guint16 *out);

/* RLE16: decode n_words words at src into out (n_pixels words; out may be
 * NULL to only validate). abs is the absolute offset of src for errors. A
 * stream that stops one pixel short leaves the last pixel 0. */
gboolean wk_eng_rle16_decode (const guint8 *src, gsize n_words, gint64 abs,
                              guint16 *out, guint64 n_pixels, GError **error);
/* Encode n pixels; appends little-endian words to out (no length field).
 * The stream never ends with a run that starts at the last pixel (see
 * docs/formats/eng.md). */
void wk_eng_rle16_encode (const guint16 *px, gsize n, GByteArray *out);

G_END_DECLS
