#include "eng_wad.h"

#include <string.h>

#include "../common/wk_reader.h"

/* Tags the Croc-2 PC engine and The Emperor's New Groove are known to use. */
static const char *const known_tags[] = {
  "INFO", "VERS", "WFPC", "TEXT", "TRAK", "STPC", "MAP ", "LGHT", "LNFO",
  "LGPC", "SMPC", "AMPC", "SRPC", "NAME", "FONT", "LANG", "SPRT", "RIMG",
  "END ", NULL
};

/* The chunks a level file starts with (after the length field). */
static const char *const first_tags[] = { "INFO", "VERS", "WFPC", "TEXT", NULL };

/* Unknown chunks named one by one in the warnings; the rest are counted. */
#define MAX_UNKNOWN_WARNINGS 16

static void
tag_name (guint32 tag, gchar out[5])
{
  /* The stored little-endian u32 read big-endian gives the name. */
  out[0] = (gchar) (tag >> 24);
  out[1] = (gchar) (tag >> 16);
  out[2] = (gchar) (tag >> 8);
  out[3] = (gchar) tag;
  out[4] = '\0';
}

gboolean
wk_eng_wad_sniff (const guint8 *head, gsize n)
{
  if (n < WK_ENG_SNIFF_SIZE)
    return FALSE;
  gchar name[5];
  tag_name (wk_le32 (head + 4), name);
  for (const char *const *t = first_tags; *t; t++)
    if (memcmp (name, *t, 4) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
tag_printable (const gchar name[5])
{
  for (int i = 0; i < 4; i++)
    if (name[i] < 0x20 || name[i] > 0x7e)
      return FALSE;
  return TRUE;
}

static gboolean
tag_known (guint32 tag)
{
  gchar name[5];
  tag_name (tag, name);
  for (int i = 0; known_tags[i]; i++)
    if (memcmp (name, known_tags[i], 4) == 0)
      return TRUE;
  return FALSE;
}

void
wk_eng_wad_free (WkEngWad *wad)
{
  if (wad == NULL)
    return;
  g_clear_pointer (&wad->bytes, g_bytes_unref);
  g_clear_pointer (&wad->chunks, g_array_unref);
  g_clear_pointer (&wad->warnings, g_ptr_array_unref);
  g_free (wad);
}

/* A MAP whose size field is 4 too large: the declared next tag is not a
 * known tag but the one 4 bytes earlier is. */
static gboolean
map_size_quirk (const WkReader *r, const WkEngChunk *c)
{
  if (memcmp (c->name, "MAP ", 4) != 0 || c->size < 4)
    return FALSE;
  gsize next = c->offset + 8 + c->size;
  if (next + 4 <= r->size && tag_known (wk_le32 (r->data + next)))
    return FALSE;
  return tag_known (wk_le32 (r->data + next - 4));
}

/* The duplicate check's hash of a tag: GLib's g_direct_hash is the tag
 * itself, and tags counting up letter by letter ("aaaa", "aaab", …) then
 * fill runs of neighbouring buckets, so probing grows with the table.
 * A full-avalanche mix (MurmurHash3's finaliser) spreads them. */
static guint
tag_hash (gconstpointer key)
{
  guint32 h = GPOINTER_TO_UINT (key);
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

WkEngWad *
wk_eng_wad_parse (GBytes *bytes, GError **error)
{
  gsize size = 0;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autoptr (WkEngWad) wad = g_new0 (WkEngWad, 1);
  wad->bytes = g_bytes_ref (bytes);
  wad->chunks = g_array_new (FALSE, FALSE, sizeof (WkEngChunk));
  wad->warnings = g_ptr_array_new_with_free_func (g_free);

  WkReader r;
  wk_reader_init (&r, data, size, 0);
  if (!wk_read_u32 (&r, &wad->declared_length, "length field", error))
    {
      wk_error_prefix (error, "ENG WAD");
      return NULL;
    }

  g_autoptr (GHashTable) seen = g_hash_table_new (tag_hash, NULL);
  guint unknown = 0;
  gboolean seen_end = FALSE;
  while (!seen_end)
    {
      WkEngChunk c = { .offset = r.pos };
      if (wk_reader_left (&r) == 0)
        {
          wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (&r),
                        "chunk list ends without an END chunk");
          wk_error_prefix (error, "ENG WAD");
          return NULL;
        }
      if (!wk_read_u32 (&r, &c.tag, "chunk tag", error)
          || !wk_read_u32 (&r, &c.size_field, "chunk size", error))
        {
          wk_error_prefix (error, "ENG WAD chunk #%u", wad->chunks->len);
          return NULL;
        }
      tag_name (c.tag, c.name);
      if (!tag_printable (c.name))
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) c.offset,
                        "tag 0x%08x is not a chunk name "
                        "(corrupt or not an ENG WAD)", c.tag);
          wk_error_prefix (error, "ENG WAD chunk #%u", wad->chunks->len);
          return NULL;
        }
      c.size = c.size_field;
      if (c.size > wk_reader_left (&r))
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) c.offset,
                        "size %u runs past the end of the file "
                        "(%" G_GSIZE_FORMAT " bytes left)",
                        c.size_field, wk_reader_left (&r));
          wk_error_prefix (error, "ENG WAD chunk %s", c.name);
          return NULL;
        }
      if (map_size_quirk (&r, &c))
        {
          c.size -= 4;
          g_ptr_array_add (wad->warnings,
                           g_strdup_printf ("chunk MAP at offset 0x%" G_GSIZE_MODIFIER
                                            "x: size field is 4 bytes too large "
                                            "(known quirk; kept on write)", c.offset));
        }
      /* tag -> index + 1: a linear check, so a file of a million tiny
       * chunks cannot make the parse quadratic */
      guint first = GPOINTER_TO_UINT (g_hash_table_lookup (seen, GUINT_TO_POINTER (c.tag)));
      if (first != 0)
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) c.offset,
                        "appears twice (first at offset 0x%"
                        G_GSIZE_MODIFIER "x)",
                        g_array_index (wad->chunks, WkEngChunk, first - 1).offset);
          wk_error_prefix (error, "ENG WAD chunk %s", c.name);
          return NULL;
        }
      g_hash_table_insert (seen, GUINT_TO_POINTER (c.tag),
                           GUINT_TO_POINTER (wad->chunks->len + 1));
      if (!tag_known (c.tag) && ++unknown <= MAX_UNKNOWN_WARNINGS)
        g_ptr_array_add (wad->warnings,
                         g_strdup_printf ("unknown chunk '%s' at offset 0x%"
                                          G_GSIZE_MODIFIER "x kept as it is",
                                          c.name, c.offset));
      r.pos += c.size;
      g_array_append_val (wad->chunks, c);
      seen_end = memcmp (c.name, "END ", 4) == 0;
    }
  wad->end = r.pos;
  if (unknown > MAX_UNKNOWN_WARNINGS)
    g_ptr_array_add (wad->warnings,
                     g_strdup_printf ("%u more unknown chunks kept as they are",
                                      unknown - MAX_UNKNOWN_WARNINGS));

  if (wad->declared_length != size)
    g_ptr_array_add (wad->warnings,
                     g_strdup_printf ("length field says %u bytes, the file has %"
                                      G_GSIZE_FORMAT " (kept on write when "
                                      "nothing changes)", wad->declared_length, size));
  if (wad->end < size)
    g_ptr_array_add (wad->warnings,
                     g_strdup_printf ("%" G_GSIZE_FORMAT " bytes after the END "
                                      "chunk at offset 0x%" G_GSIZE_MODIFIER
                                      "x kept as they are", size - wad->end, wad->end));
  return g_steal_pointer (&wad);
}

gint
wk_eng_wad_find (const WkEngWad *wad, const char *name)
{
  for (guint i = 0; i < wad->chunks->len; i++)
    if (strncmp (g_array_index (wad->chunks, WkEngChunk, i).name, name, 4) == 0)
      return (gint) i;
  return -1;
}

const guint8 *
wk_eng_wad_payload (const WkEngWad *wad, guint i, gsize *size)
{
  const WkEngChunk *c = &g_array_index (wad->chunks, WkEngChunk, i);
  *size = c->size;
  return (const guint8 *) g_bytes_get_data (wad->bytes, NULL) + c->offset + 8;
}

/* The parse lays the chunks back to back from offset 4, each header's tag
 * and size field as stored; checked here all the same, since the shortcut
 * below hands out the input as the build's result. */
static gboolean
laid_back_to_back (const WkEngWad *wad)
{
  gsize pos = 4;
  for (guint i = 0; i < wad->chunks->len; i++)
    {
      const WkEngChunk *c = &g_array_index (wad->chunks, WkEngChunk, i);
      if (c->offset != pos)
        return FALSE;
      pos = c->offset + 8 + c->size;
    }
  return pos == wad->end;
}

static gboolean
any_replacement (const WkEngWad *wad, GBytes *const *replacements)
{
  for (guint i = 0; replacements && i < wad->chunks->len; i++)
    if (replacements[i])
      return TRUE;
  return FALSE;
}

GBytes *
wk_eng_wad_build (const WkEngWad *wad, GBytes *const *replacements,
                  GError **error)
{
  gsize in_size = 0;
  const guint8 *in = g_bytes_get_data (wad->bytes, &in_size);
  gboolean changed = FALSE;
  /* Nothing replaced: the file rebuilt is the input itself (no copy). */
  if (!any_replacement (wad, replacements) && laid_back_to_back (wad))
    return g_bytes_ref (wad->bytes);
  GByteArray *out = g_byte_array_sized_new ((guint) MIN (in_size, G_MAXUINT));

  wk_put_u32 (out, wad->declared_length);
  for (guint i = 0; i < wad->chunks->len; i++)
    {
      const WkEngChunk *c = &g_array_index (wad->chunks, WkEngChunk, i);
      gsize n = c->size;
      const guint8 *p = in + c->offset + 8;
      if (replacements && replacements[i])
        {
          p = g_bytes_get_data (replacements[i], &n);
          changed = TRUE;
        }
      guint64 field = (guint64) n + (c->size_field - c->size);
      if (field > G_MAXUINT32 || out->len + (guint64) n + 8 > G_MAXUINT32)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "chunk %s: %" G_GSIZE_FORMAT " bytes do not fit the "
                        "32-bit size fields of the WAD", c->name, n);
          g_byte_array_unref (out);
          return NULL;
        }
      wk_put_u32 (out, c->tag);
      wk_put_u32 (out, (guint32) field);
      wk_put_bytes (out, p, n);
    }
  wk_put_bytes (out, in + wad->end, in_size - wad->end);
  if (changed)
    {
      guint32 total = GUINT32_TO_LE (out->len);
      memcpy (out->data, &total, 4);
    }
  return g_byte_array_free_to_bytes (out);
}

/* Does check (the rebuilt file, parsed) hold the chunks wad + replacements
 * were meant to give? On a mismatch, describes the first one in *why. */
static gboolean
reads_back_as_built (const WkEngWad *wad, GBytes *const *replacements,
                     const WkEngWad *check, gchar **why)
{
  if (check->chunks->len != wad->chunks->len)
    {
      *why = g_strdup_printf ("%u chunks read back as %u", wad->chunks->len,
                              check->chunks->len);
      return FALSE;
    }
  for (guint i = 0; i < wad->chunks->len; i++)
    {
      const WkEngChunk *c = &g_array_index (wad->chunks, WkEngChunk, i);
      gsize want_n, got_n;
      const guint8 *want = replacements && replacements[i]
                             ? g_bytes_get_data (replacements[i], &want_n)
                             : wk_eng_wad_payload (wad, i, &want_n);
      const guint8 *got = wk_eng_wad_payload (check, i, &got_n);
      if (g_array_index (check->chunks, WkEngChunk, i).tag != c->tag
          || want_n != got_n || (want_n > 0 && memcmp (want, got, want_n) != 0))
        {
          *why = g_strdup_printf ("chunk %s does not read back as written", c->name);
          return FALSE;
        }
    }
  return TRUE;
}

GBytes *
wk_eng_wad_build_checked (const WkEngWad *wad, GBytes *const *replacements,
                          GError **error)
{
  GBytes *out = wk_eng_wad_build (wad, replacements, error);
  if (out == NULL || out == wad->bytes)
    return out;     /* the input as it is: it was parsed into wad already */
  g_autoptr (GError) parse_error = NULL;
  g_autofree gchar *why = NULL;
  WkEngWad *check = wk_eng_wad_parse (out, &parse_error);
  if (check == NULL)
    why = g_strdup (parse_error->message);
  else
    reads_back_as_built (wad, replacements, check, &why);
  wk_eng_wad_free (check);
  if (why != NULL)
    {
      /* The input was fine; the container cannot say this unambiguously
       * (e.g. a MAP payload ending in a chunk tag, read as the MAP quirk). */
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "the rebuilt WAD would not read back as written: %s", why);
      g_bytes_unref (out);
      return NULL;
    }
  return out;
}
