/* ENG (Croc-2 engine, PC) level WAD container.
 *
 * u32 total length (including the field itself), then chunks
 * {u32 tag, u32 payload size, payload} back to back, ending with "END ".
 * See docs/formats/eng.md. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  gchar name[5];       /* "INFO" (the file spells it backwards) */
  guint32 tag;         /* tag as the little-endian u32 stored in the file */
  gsize offset;        /* offset of the 8-byte chunk header */
  gsize size;          /* true payload size */
  guint32 size_field;  /* the stored size (size + 4 for the MAP quirk) */
} WkEngChunk;

typedef struct {
  GBytes *bytes;           /* the whole file (mapped or owned) */
  guint32 declared_length; /* the leading u32 as stored */
  GArray *chunks;          /* WkEngChunk in file order, END included */
  gsize end;               /* offset just past the END chunk */
  GPtrArray *warnings;     /* gchar*: length mismatch, MAP quirk, trailing bytes */
} WkEngWad;

/* Bytes an ENG WAD starts with: enough of them to decide (8). */
#define WK_ENG_SNIFF_SIZE 8
/* TRUE when head (the file's first n bytes) looks like an ENG WAD: after
 * the u32 length, one of the chunks a level starts with (INFO, VERS, WFPC,
 * TEXT). */
gboolean wk_eng_wad_sniff (const guint8 *head, gsize n);

/* Parse the chunk table. Takes a reference on bytes. */
WkEngWad *wk_eng_wad_parse (GBytes *bytes, GError **error);
void wk_eng_wad_free (WkEngWad *wad);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngWad, wk_eng_wad_free)

/* Index of the chunk named name ("TRAK"), or -1. */
gint wk_eng_wad_find (const WkEngWad *wad, const char *name);

/* Payload of chunk i (pointer into wad->bytes, valid while wad lives). */
const guint8 *wk_eng_wad_payload (const WkEngWad *wad, guint i, gsize *size);

/* Rebuild the file. replacements has one entry per chunk (or is NULL):
 * NULL keeps that chunk's payload. With no replacement the result is the
 * input, byte for byte (declared length, MAP quirk and trailing bytes kept):
 * a new reference to wad->bytes itself, not a copy; otherwise the total
 * length is recomputed. */
GBytes *wk_eng_wad_build (const WkEngWad *wad, GBytes *const *replacements,
                          GError **error);

/* wk_eng_wad_build, then parse the result again: what is written must read
 * back as the same chunks with the same payloads, else WK_ERROR_LIMIT (not
 * parsed again when nothing was replaced: the result is wad's own bytes,
 * which read as wad). Use this for anything that goes to disk. */
GBytes *wk_eng_wad_build_checked (const WkEngWad *wad,
                                  GBytes *const *replacements, GError **error);

G_END_DECLS
