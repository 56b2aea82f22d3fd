#include "eng_text.h"

#include "../common/wk_reader.h"

static void
effect_clear (gpointer p)
{
  WkEngTexEffect *e = p;
  g_clear_pointer (&e->frames, g_array_unref);
}

static void
page_clear (gpointer p)
{
  WkEngPage *pg = p;
  g_clear_pointer (&pg->record, g_bytes_unref);
}

void
wk_eng_text_free (WkEngText *t)
{
  if (t == NULL)
    return;
  g_clear_pointer (&t->payload, g_bytes_unref);
  g_clear_pointer (&t->palettes, g_array_unref);
  g_clear_pointer (&t->pages, g_array_unref);
  g_clear_pointer (&t->entries, g_array_unref);
  g_clear_pointer (&t->effects, g_array_unref);
  g_clear_pointer (&t->effects_note, g_free);
  g_clear_pointer (&t->added, g_array_unref);
  g_free (t);
}

static const guint8 *
payload_data (const WkEngText *t)
{
  return g_bytes_get_data (t->payload, NULL);
}

static gboolean
parse_palettes (WkEngText *t, WkReader *r, GError **error)
{
  guint32 n;
  if (!wk_read_u32 (r, &n, "palette count", error)
      || !wk_reader_need (r, n, 8, "palette", error))
    return FALSE;
  for (guint32 i = 0; i < n; i++)
    {
      WkEngPalette p = { .offset = r->pos };
      if (!wk_read_u32 (r, &p.index, "palette index", error)
          || !wk_read_u32 (r, &p.count, "palette size", error)
          || !wk_reader_need (r, p.count, 3, "palette colour", error)
          || !wk_reader_bytes (r, (gsize) p.count * 2, &p.colors, "palette colours", error)
          || !wk_reader_bytes (r, p.count, &p.extra, "palette extra bytes", error))
        {
          wk_error_prefix (error, "palette %u", i);
          return FALSE;
        }
      g_array_append_val (t->palettes, p);
    }
  return TRUE;
}

static gboolean
parse_page (WkEngText *t, WkReader *r, WkEngPage *pg, GError **error)
{
  gsize start = r->pos;
  pg->offset = wk_reader_abs (r);
  pg->palette = -1;
  if (!wk_read_u32 (r, &pg->flags, "page flags", error)
      || !wk_read_u32 (r, &pg->width, "page width", error)
      || !wk_read_u32 (r, &pg->height, "page height", error))
    return FALSE;
  if (pg->width > WK_ENG_PAGE_MAX_SIDE || pg->height > WK_ENG_PAGE_MAX_SIDE)
    {
      wk_set_error (error, WK_ERROR_FORMAT, pg->offset + 4,
                    "page size %u × %u is beyond %u × %u", pg->width,
                    pg->height, WK_ENG_PAGE_MAX_SIDE, WK_ENG_PAGE_MAX_SIDE);
      return FALSE;
    }
  guint64 npx = (guint64) pg->width * pg->height;
  pg->kind = (pg->flags & WK_ENG_PAGE_FLAG_RLE) ? WK_ENG_PAGE_RLE16
             : pg->flags ? WK_ENG_PAGE_RGB16 : WK_ENG_PAGE_PAL8;
  if (pg->kind == WK_ENG_PAGE_PAL8)
    {
      if (!wk_reader_need (r, npx, 1, "8-bit page pixel", error))
        return FALSE;
      r->pos += (gsize) npx;
    }
  else if (pg->kind == WK_ENG_PAGE_RGB16)
    {
      if (!wk_reader_need (r, npx, 2, "16-bit page pixel", error))
        return FALSE;
      r->pos += (gsize) npx * 2;
    }
  else
    {
      guint32 len;
      const guint8 *words;
      if (!wk_read_u32 (r, &len, "RLE16 byte length", error))
        return FALSE;
      if (len % 2)
        {
          wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (r) - 4,
                        "RLE16 byte length %u is odd", len);
          return FALSE;
        }
      gint64 at = wk_reader_abs (r);
      if (!wk_reader_bytes (r, len, &words, "RLE16 stream", error)
          || !wk_eng_rle16_decode (words, len / 2, at, NULL, npx, error))
        return FALSE;
    }
  pg->record = g_bytes_new_from_bytes (t->payload, start, r->pos - start);
  return TRUE;
}

/* Bytes of an effect's parameters by type, -1 for a type we cannot size.
 * Types and layouts from ArgonautReverse (Croc 2 PC). */
static gint
effect_params (guint8 type)
{
  switch (type)
    {
    case 1: case 2: return 3;      /* move down / up */
    case 7: case 9: return 6;      /* range cycle */
    case 8: return 3;              /* anim: then params[1] frame words */
    case 10: case 11: return 4;    /* multi move: then params[3] words */
    default: return -1;
    }
}

/* Decode the tail after the table as {u32 n, n effects}. Not fatal: on
 * anything unexpected the tail stays opaque (it is written back as is). */
static void
parse_effects (WkEngText *t, WkReader *r)
{
  if (wk_reader_left (r) == 0)
    {
      t->effects = g_array_new (FALSE, FALSE, sizeof (WkEngTexEffect));
      return;
    }
  g_autoptr (GArray) fx = g_array_new (FALSE, FALSE, sizeof (WkEngTexEffect));
  g_array_set_clear_func (fx, effect_clear);
  guint32 n;
  if (!wk_read_u32 (r, &n, "effect count", NULL)
      || !wk_reader_need (r, n, 6, "effect", NULL))
    {
      t->effects_note = g_strdup_printf ("the %" G_GSIZE_FORMAT " bytes after "
                                         "the texture table are no effect list",
                                         r->size - t->tail_offset);
      return;
    }
  for (guint32 i = 0; i < n; i++)
    {
      WkEngTexEffect e = { 0 };
      gint64 at = wk_reader_abs (r);
      const guint8 *p;
      gint np;
      if (!wk_reader_check (r, 3, "effect", NULL))
        goto short_;
      e.texture = wk_le16 (wk_reader_ptr (r));
      e.type = wk_reader_ptr (r)[2];
      r->pos += 3;
      np = effect_params (e.type);
      if (np < 0)
        {
          t->effects_note = g_strdup_printf ("effect %u has type %u, whose "
                                             "layout is unknown (offset 0x%"
                                             G_GINT64_MODIFIER "x)", i, e.type, at);
          return;
        }
      if (!wk_reader_bytes (r, (gsize) np, &p, "effect", NULL))
        goto short_;
      e.n_params = (guint8) np;
      memcpy (e.params, p, (gsize) np);
      guint nf = e.type == 8 ? p[1] : (e.type == 10 || e.type == 11) ? p[3] : 0;
      if (!wk_reader_need (r, nf, 2, "effect frame", NULL))
        goto short_;
      e.frames = g_array_sized_new (FALSE, FALSE, sizeof (guint16), nf);
      for (guint k = 0; k < nf; k++)
        {
          guint16 w = wk_le16 (wk_reader_ptr (r));
          g_array_append_val (e.frames, w);
          r->pos += 2;
        }
      g_array_append_val (fx, e);
    }
  if (wk_reader_left (r) != 0)
    {
      t->effects_note = g_strdup_printf ("%" G_GSIZE_FORMAT " bytes follow the "
                                         "%u effects", wk_reader_left (r), n);
      return;
    }
  t->effects = g_steal_pointer (&fx);
  return;
short_:
  t->effects_note = g_strdup ("the effect list is cut short");
}

/* Which palette each 8-bit page uses: byte 3 of the texture entries that
 * draw it ("paletteIndex" in ArgonautReverse); palette 0 when no entry names
 * one [assumed]. Then every pixel index is checked against that palette. */
static gboolean
resolve_palettes (WkEngText *t, GError **error)
{
  const guint npal = t->palettes->len, npages = t->pages->len;
  for (guint j = 0; j < t->entries->len; j++)
    {
      const WkEngTexEntry *e = &g_array_index (t->entries, WkEngTexEntry, j);
      if (e->page < 0 || (guint) e->page >= npages || e->page2 < 0)
        continue;
      WkEngPage *pg = &g_array_index (t->pages, WkEngPage, e->page);
      if (pg->kind != WK_ENG_PAGE_PAL8)
        continue;
      if ((guint) e->page2 >= npal)
        {
          wk_set_error (error, WK_ERROR_FORMAT,
                        t->base + (gint64) (t->table_offset + 8 * (gsize) j + 3),
                        "palette index %d out of range (the TEXT has %u palettes)",
                        e->page2, npal);
          wk_error_prefix (error, "texture entry %u", j);
          return FALSE;
        }
      if (pg->palette < 0)
        pg->palette = e->page2;
      else if (pg->palette != e->page2)
        pg->palette_shared = TRUE;
    }
  const guint8 *data = payload_data (t);
  for (guint i = 0; i < npages; i++)
    {
      WkEngPage *pg = &g_array_index (t->pages, WkEngPage, i);
      if (pg->kind != WK_ENG_PAGE_PAL8)
        continue;
      if (pg->palette < 0)
        {
          if (npal == 0 && (guint64) pg->width * pg->height > 0)
            {
              wk_set_error (error, WK_ERROR_FORMAT, pg->offset,
                            "8-bit page but the TEXT has no palette");
              wk_error_prefix (error, "page %u", i);
              return FALSE;
            }
          pg->palette = npal ? 0 : -1;
        }
      if (pg->palette < 0)
        continue;
      const WkEngPalette *pal = &g_array_index (t->palettes, WkEngPalette, pg->palette);
      gsize rec = (gsize) (pg->offset - t->base);
      gsize npx = (gsize) pg->width * pg->height;
      for (gsize k = 0; k < npx; k++)
        if (data[rec + 12 + k] >= pal->count)
          {
            wk_set_error (error, WK_ERROR_FORMAT, pg->offset + 12 + (gint64) k,
                          "pixel %" G_GSIZE_FORMAT " has palette index %u, "
                          "palette %d has %u colours", k, data[rec + 12 + k],
                          pg->palette, pal->count);
            wk_error_prefix (error, "page %u", i);
            return FALSE;
          }
    }
  return TRUE;
}

WkEngText *
wk_eng_text_parse (const guint8 *payload, gsize size, gint64 base_offset,
                   GError **error)
{
  g_autoptr (GBytes) bytes = g_bytes_new (payload, size);
  return wk_eng_text_parse_bytes (bytes, base_offset, error);
}

WkEngText *
wk_eng_text_parse_bytes (GBytes *payload, gint64 base_offset, GError **error)
{
  g_autoptr (WkEngText) t = g_new0 (WkEngText, 1);
  gsize size;
  g_bytes_get_data (payload, &size);
  t->payload = g_bytes_ref (payload);
  t->base = base_offset;
  t->palettes = g_array_new (FALSE, FALSE, sizeof (WkEngPalette));
  t->pages = g_array_new (FALSE, FALSE, sizeof (WkEngPage));
  g_array_set_clear_func (t->pages, page_clear);
  t->entries = g_array_new (FALSE, FALSE, sizeof (WkEngTexEntry));
  t->added = g_array_new (FALSE, FALSE, sizeof (WkEngTexEntry));
  WkReader r;
  wk_reader_init (&r, payload_data (t), size, base_offset);

  guint32 npages, ntex;
  if (!parse_palettes (t, &r, error)
      || !wk_read_u32 (&r, &npages, "page count", error)
      || !wk_reader_need (&r, npages, 12, "page", error))
    goto fail;
  t->pages_start = r.pos;
  for (guint32 i = 0; i < npages; i++)
    {
      WkEngPage pg = { 0 };
      if (!parse_page (t, &r, &pg, error))
        {
          wk_error_prefix (error, "page %u", i);
          goto fail;
        }
      g_array_append_val (t->pages, pg);
    }
  t->pages_end = r.pos;
  if (!wk_read_u32 (&r, &ntex, "texture count", error)
      || !wk_reader_need (&r, ntex, WK_ENG_TEX_ENTRY_SIZE, "texture entry", error))
    goto fail;
  t->table_offset = r.pos;
  g_array_set_size (t->entries, ntex);
  for (guint32 j = 0; j < ntex; j++)
    {
      wk_eng_tex_entry_decode (wk_reader_ptr (&r),
                               &g_array_index (t->entries, WkEngTexEntry, j));
      r.pos += WK_ENG_TEX_ENTRY_SIZE;
    }
  t->tail_offset = r.pos;
  if (!resolve_palettes (t, error))
    goto fail;
  parse_effects (t, &r);
  return g_steal_pointer (&t);
fail:
  wk_error_prefix (error, "TEXT");
  return NULL;
}

/* The payload with the pages as they are now and n raw entries appended
 * to the texture table (the count before it raised by n). */
static GBytes *
build (const WkEngText *t, const guint8 *extra, guint n)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (t->payload, &size);
  GByteArray *out = g_byte_array_sized_new ((guint) MIN (size, G_MAXUINT));
  /* the page and entry counts are written from the arrays: pages and
   * entries may have been appended */
  wk_put_bytes (out, data, t->pages_start - 4);
  wk_put_u32 (out, t->pages->len);
  for (guint i = 0; i < t->pages->len; i++)
    {
      gsize len;
      const guint8 *rec = g_bytes_get_data (g_array_index (t->pages, WkEngPage, i).record, &len);
      wk_put_bytes (out, rec, len);
    }
  /* pages_end..table: what lies between (the count is written again) */
  wk_put_bytes (out, data + t->pages_end, t->table_offset - 4 - t->pages_end);
  wk_put_u32 (out, t->entries->len + n);
  wk_put_bytes (out, data + t->table_offset, t->tail_offset - t->table_offset);
  for (guint k = 0; k < t->added->len; k++)
    {
      guint8 raw[WK_ENG_TEX_ENTRY_SIZE];
      wk_eng_tex_entry_encode (&g_array_index (t->added, WkEngTexEntry, k), raw);
      wk_put_bytes (out, raw, sizeof raw);
    }
  if (n)
    wk_put_bytes (out, extra, (gsize) n * WK_ENG_TEX_ENTRY_SIZE);
  wk_put_bytes (out, data + t->tail_offset, size - t->tail_offset);
  return g_byte_array_free_to_bytes (out);
}

GBytes *
wk_eng_text_build (const WkEngText *t)
{
  return build (t, NULL, 0);
}

GBytes *
wk_eng_text_with_entries (const WkEngText *t, const guint8 *entries, gsize size,
                          GError **error)
{
  if (size % WK_ENG_TEX_ENTRY_SIZE != 0
      || size / WK_ENG_TEX_ENTRY_SIZE > WK_ENG_TEX_MAX_ENTRIES - t->entries->len)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "%" G_GSIZE_FORMAT " bytes of new "
                    "texture entries: not whole %d-byte entries, or more than "
                    "the %u a face can name with the %u the table has",
                    size, WK_ENG_TEX_ENTRY_SIZE, WK_ENG_TEX_MAX_ENTRIES,
                    t->entries->len);
      wk_error_prefix (error, "TEXT");
      return NULL;
    }
  return build (t, entries, (guint) (size / WK_ENG_TEX_ENTRY_SIZE));
}

static void
palette_rgba (const WkEngPalette *pal, guint8 *rgba)
{
  for (guint32 k = 0; k < pal->count; k++)
    wk_eng_abgr1555_to_rgba (wk_le16 (pal->colors + 2 * k), rgba + 4 * k);
}

void
wk_eng_text_palette_rgba (const WkEngText *t, guint i, guint8 *rgba)
{
  palette_rgba (&g_array_index (t->palettes, WkEngPalette, i), rgba);
}

static gboolean
check_page (const WkEngText *t, guint i, GError **error)
{
  if (i < t->pages->len)
    return TRUE;
  wk_set_error (error, WK_ERROR_ARGUMENT, -1, "no page %u (the TEXT has %u)",
                i, t->pages->len);
  return FALSE;
}

/* The 16-bit pixel words of an rgb16 / rle16 page (validated by the parse). */
static gboolean
page_words (const WkEngPage *pg, guint16 *px, GError **error)
{
  gsize len;
  const guint8 *rec = g_bytes_get_data (pg->record, &len);
  const gsize npx = (gsize) pg->width * pg->height;
  if (pg->kind == WK_ENG_PAGE_RGB16)
    {
      for (gsize k = 0; k < npx; k++)
        px[k] = wk_le16 (rec + 12 + 2 * k);
      return TRUE;
    }
  return wk_eng_rle16_decode (rec + 16, (len - 16) / 2, pg->offset + 16, px,
                              npx, error);
}

gboolean
wk_eng_text_page_rgba (const WkEngText *t, guint i, guint8 *rgba,
                       GError **error)
{
  if (!check_page (t, i, error))
    return FALSE;
  const WkEngPage *pg = &g_array_index (t->pages, WkEngPage, i);
  const guint8 *rec = g_bytes_get_data (pg->record, NULL);
  const gsize npx = (gsize) pg->width * pg->height;
  if (pg->kind == WK_ENG_PAGE_PAL8)
    {
      if (npx == 0)
        return TRUE;
      const WkEngPalette *pal = &g_array_index (t->palettes, WkEngPalette, pg->palette);
      g_autofree guint8 *colors = g_new (guint8, (gsize) pal->count * 4);
      palette_rgba (pal, colors);
      for (gsize k = 0; k < npx; k++)
        memcpy (rgba + 4 * k, colors + 4 * (gsize) rec[12 + k], 4);
      return TRUE;
    }
  g_autofree guint16 *px = g_new (guint16, MAX (npx, 1));
  if (!page_words (pg, px, error))
    {
      wk_error_prefix (error, "TEXT page %u", i);
      return FALSE;
    }
  for (gsize k = 0; k < npx; k++)
    wk_eng_abgr1555_to_rgba (px[k], rgba + 4 * k);
  return TRUE;
}

/* Each pixel's palette index: the source index where the pixel shows that
 * index's colour, else the nearest palette entry (squared RGBA distance;
 * alpha < 128 counts as 0,0,0,0, other alpha as 255: the decoded alphas). */
static void
quantise_to_palette (const guint8 *rgba, gsize n, const guint8 *colors,
                     guint ncolors, const guint8 *src, guint8 *out)
{
  for (gsize k = 0; k < n; k++)
    {
      guint8 p[4];
      memcpy (p, rgba + 4 * k, 4);
      if (p[3] < 128)
        memset (p, 0, 4);
      else
        p[3] = 255;
      if (src[k] < ncolors && memcmp (p, colors + 4 * (gsize) src[k], 4) == 0)
        {
          out[k] = src[k];
          continue;
        }
      guint best = 0, best_d = G_MAXUINT;
      for (guint c = 0; c < ncolors && best_d; c++)
        {
          guint d = 0;
          for (int ch = 0; ch < 4; ch++)
            {
              gint e = (gint) p[ch] - colors[4 * c + ch];
              d += (guint) (e * e);
            }
          if (d < best_d)
            best = c, best_d = d;
        }
      out[k] = (guint8) best;
    }
}

static void
put_header (GByteArray *out, guint32 flags, const WkEngPage *pg)
{
  wk_put_u32 (out, flags);
  wk_put_u32 (out, pg->width);
  wk_put_u32 (out, pg->height);
}

/* The record of a 16-bit page of pg's size holding px: RLE16 when *flags
 * has 0x80, unless the stream would be larger than the raw pixels — then
 * raw, flag 0x80 cleared (and 0x01 when that leaves 0: the loaders test
 * only "!= 0" and 0x80 [assumed]). */
static GBytes *
record_16 (const WkEngPage *pg, guint32 *flags, const guint16 *px, gsize npx)
{
  g_autoptr (GByteArray) stream = NULL;
  if (*flags & WK_ENG_PAGE_FLAG_RLE)
    {
      stream = g_byte_array_new ();
      wk_eng_rle16_encode (px, npx, stream);
      if (stream->len > npx * 2)
        {
          g_clear_pointer (&stream, g_byte_array_unref);
          *flags &= ~WK_ENG_PAGE_FLAG_RLE;
          if (*flags == 0)
            *flags = 0x01;
        }
    }
  GByteArray *out = g_byte_array_new ();
  put_header (out, *flags, pg);
  if (stream)
    {
      wk_put_u32 (out, stream->len);
      wk_put_bytes (out, stream->data, stream->len);
    }
  else
    for (gsize k = 0; k < npx; k++)
      wk_put_u16 (out, px[k]);
  return g_byte_array_free_to_bytes (out);
}

/* The new record of page i from rgba, or NULL when the pixels encode to the
 * words (indices) the page holds: the page then stays as it is. */
static GBytes *
encode_page (const WkEngText *t, guint i, const guint8 *rgba, guint32 *flags,
             GError **error)
{
  const WkEngPage *pg = &g_array_index (t->pages, WkEngPage, i);
  const guint8 *rec = g_bytes_get_data (pg->record, NULL);
  const gsize npx = (gsize) pg->width * pg->height;
  *flags = pg->flags;
  if (pg->kind == WK_ENG_PAGE_PAL8)
    {
      if (pg->palette < 0)
        {
          if (npx == 0)
            return NULL;
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "8-bit page %u has no palette to re-quantise to", i);
          return NULL;
        }
      const WkEngPalette *pal = &g_array_index (t->palettes, WkEngPalette, pg->palette);
      guint ncolors = MIN (pal->count, 256u); /* an index is one byte */
      g_autofree guint8 *colors = g_new (guint8, (gsize) MAX (pal->count, 1) * 4);
      palette_rgba (pal, colors);
      g_autofree guint8 *idx = g_new (guint8, MAX (npx, 1));
      quantise_to_palette (rgba, npx, colors, ncolors, rec + 12, idx);
      if (memcmp (idx, rec + 12, npx) == 0)
        return NULL;
      if (pg->palette_shared)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "8-bit page %u is drawn with more than one palette "
                        "(byte 3 of its texture entries differs); "
                        "re-quantising to one would change the others", i);
          return NULL;
        }
      GByteArray *out = g_byte_array_new ();
      put_header (out, *flags, pg);
      wk_put_bytes (out, idx, npx);
      return g_byte_array_free_to_bytes (out);
    }
  g_autofree guint16 *src = g_new (guint16, MAX (npx, 1));
  g_autofree guint16 *px = g_new (guint16, MAX (npx, 1));
  if (!page_words (pg, src, error))
    return NULL; /* cannot happen: the parse walked the stream */
  wk_eng_rgba_to_abgr1555_over (rgba, npx, src, px);
  if (memcmp (px, src, npx * sizeof *px) == 0)
    return NULL;
  return record_16 (pg, flags, px, npx);
}

gboolean
wk_eng_text_set_page_rgba (WkEngText *t, guint i, const guint8 *rgba,
                           GError **error)
{
  if (!check_page (t, i, error))
    return FALSE;
  guint32 flags;
  GError *err = NULL;
  GBytes *rec = encode_page (t, i, rgba, &flags, &err);
  if (err)
    {
      g_propagate_error (error, err);
      return FALSE;
    }
  if (rec == NULL)
    return TRUE; /* the same pixels: the record stays byte for byte */
  WkEngPage *pg = &g_array_index (t->pages, WkEngPage, i);
  g_bytes_unref (pg->record);
  pg->record = rec;
  pg->flags = flags;
  pg->kind = (flags & WK_ENG_PAGE_FLAG_RLE) ? WK_ENG_PAGE_RLE16
             : flags ? WK_ENG_PAGE_RGB16 : WK_ENG_PAGE_PAL8;
  pg->replaced = TRUE;
  pg->offset = -1;
  return TRUE;
}

gint
wk_eng_text_add_page (WkEngText *t, const guint8 *rgba, guint32 width,
                      guint32 height, WkEngPageKind kind, GError **error)
{
  if (t->pages->len >= WK_ENG_TEXT_MAX_PAGES)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "the TEXT is full: it has %u pages, the most a texture "
                    "entry can name (its page is an i8)", t->pages->len);
      return -1;
    }
  if (kind == WK_ENG_PAGE_PAL8)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "a new page is 16-bit (rgb16 or rle16): it has no palette");
      return -1;
    }
  if (width == 0 || height == 0 || width > WK_ENG_PAGE_MAX_SIDE
      || height > WK_ENG_PAGE_MAX_SIDE)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "a new page needs sides 1..%u, not %u × %u",
                    WK_ENG_PAGE_MAX_SIDE, width, height);
      return -1;
    }
  const gsize npx = (gsize) width * height;
  g_autofree guint16 *px = g_new (guint16, npx);
  wk_eng_rgba_to_abgr1555 (rgba, npx, px);
  guint32 flags = kind == WK_ENG_PAGE_RLE16 ? WK_ENG_PAGE_FLAG_RLE : 0x01;
  WkEngPage pg = { .width = width, .height = height, .palette = -1,
                   .replaced = TRUE, .offset = -1 };
  pg.record = record_16 (&pg, &flags, px, npx);
  pg.flags = flags;
  pg.kind = (flags & WK_ENG_PAGE_FLAG_RLE) ? WK_ENG_PAGE_RLE16 : WK_ENG_PAGE_RGB16;
  g_array_append_val (t->pages, pg);
  return (gint) t->pages->len - 1;
}

gint
wk_eng_text_add_entry (WkEngText *t, const WkEngTexEntry *e, GError **error)
{
  if (t->entries->len >= WK_ENG_TEX_MAX_ENTRIES)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "the texture table is full: %u entries, the most a face "
                    "can name (its entry is a u16)", t->entries->len);
      return -1;
    }
  if (!(e->flags & WK_ENG_TEX_FLAT) && (e->page < 0 || (guint) e->page >= t->pages->len))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "texture entry names page %d, the TEXT has %u", e->page,
                    t->pages->len);
      return -1;
    }
  g_array_append_val (t->added, *e);
  g_array_append_val (t->entries, *e);
  return (gint) t->entries->len - 1;
}
