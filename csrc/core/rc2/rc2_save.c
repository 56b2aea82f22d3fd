/* Saving an edited RC2 level (see the header and docs/formats/rc2-writing.md,
 * "Saving a level"). */
#include "rc2_save.h"

#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_file.h"
#include "../common/wk_reader.h"
#include "../lz/wk_lz.h"

#define MAX_PLAIN ((gsize) 1 << 30)  /* [assumed] bound on a decoded stream */

static void
put32 (guint8 *p, gint32 v)
{
  guint32 le = GUINT32_TO_LE ((guint32) v);
  memcpy (p, &le, 4);
}

void
wk_rc2_core_region (const WkRc2Level *lvl, const char *name, gsize *start, gsize *end)
{
  static const guint at[] = { 0x08, 0x0c, 0x10, 0x14, 0x60, WK_RC2_DECOMPRESSED_SIZE };
  guint self = strcmp (name, "tfrags") == 0 ? 0x08 : 0x14;
  gint64 s = WK_RC2_CORE (lvl, self), e = WK_RC2_CORE (lvl, WK_RC2_DECOMPRESSED_SIZE);
  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    {
      gint64 v = WK_RC2_CORE (lvl, at[i]);
      if (v > s && v < e)
        e = v;
    }
  *start = (gsize) s;
  *end = (gsize) e;
}

/* ---- laying out pieces (sections of the data extent, extents of the
 * file) again in their stored order ------------------------------------ */

typedef struct {
  const char *name;
  gsize off, size;        /* as stored (size 0: absent) */
  GBytes *repl;           /* new content or NULL */
  gsize new_off, new_size;
} Piece;

static int
cmp_piece (gconstpointer a, gconstpointer b)
{
  const Piece *x = *(Piece *const *) a, *y = *(Piece *const *) b;
  return x->off < y->off ? -1 : x->off > y->off ? 1 : x->size < y->size ? -1
                                                   : x->size > y->size;
}

static void
zeros (GByteArray *o, gsize n)
{
  gsize at = o->len;
  g_byte_array_set_size (o, (guint) (at + n));
  memset (o->data + at, 0, n);
}

/* unit: 1 for sections (alignment = the stored offset's, up to 2048),
 * 2048 for extents (sector-aligned, sizes in whole sectors). */
static GByteArray *
relayout (const guint8 *src, gsize src_size, Piece *pieces, guint n, gsize unit,
          const char *what, GError **error)
{
  Piece *p[WK_RC2_MAX_EXTENTS + WK_RC2_SECTIONS];
  guint m = 0;
  for (guint i = 0; i < n; i++)
    if (pieces[i].size)
      p[m++] = &pieces[i];
  qsort (p, m, sizeof p[0], cmp_piece);
  GByteArray *o = g_byte_array_new ();
  gsize prev_end = m ? p[0]->off : src_size;
  g_byte_array_append (o, src, (guint) prev_end);
  gboolean moved = FALSE;
  for (guint k = 0; k < m; k++)
    {
      Piece *x = p[k];
      if (k > 0 && x->off == p[k - 1]->off && x->size == p[k - 1]->size)
        { /* two names, one piece (e.g. gameplay_pal = gameplay) */
          x->new_off = p[k - 1]->new_off;
          x->new_size = p[k - 1]->new_size;
          continue;
        }
      if (x->off < prev_end)
        {
          if (!moved && !x->repl)
            { /* overlapping but untouched: keep the stored pair */
              x->new_off = x->off;
              x->new_size = x->size;
              continue;
            }
          wk_set_error (error, WK_ERROR_LIMIT, -1, "%s %s overlaps the one "
                        "before it; wadkit cannot move overlapping %ss", what,
                        x->name, what);
          g_byte_array_unref (o);
          return NULL;
        }
      if (!moved)
        g_byte_array_append (o, src + prev_end, (guint) (x->off - prev_end));
      else
        {
          gsize align = unit > 1 ? unit : MIN ((gsize) 2048, x->off & -x->off);
          zeros (o, (align - o->len % align) % align);
        }
      x->new_off = o->len;
      if (x->repl)
        {
          gsize len;
          const guint8 *d = g_bytes_get_data (x->repl, &len);
          g_byte_array_append (o, d, (guint) len);
          x->new_size = unit > 1 ? (len + unit - 1) / unit * unit : len;
          zeros (o, x->new_size - len);
        }
      else
        {
          g_byte_array_append (o, src + x->off, (guint) x->size);
          x->new_size = x->size;
        }
      moved = moved || x->repl || x->new_off != x->off;
      prev_end = x->off + x->size;
    }
  if (!moved && prev_end < src_size)
    g_byte_array_append (o, src + prev_end, (guint) (src_size - prev_end));
  if (unit > 1 && moved)
    zeros (o, (unit - o->len % unit) % unit);
  return o;
}

/* ---- the level -------------------------------------------------------- */

/* The new stream is the old one (whose container may pad it). */
static gboolean
same_stream (GBytes *stream, const guint8 *old, gsize old_size)
{
  gsize n;
  const guint8 *p = g_bytes_get_data (stream, &n);
  return n <= old_size && memcmp (p, old, n) == 0;
}

static gboolean
put_block (guint8 *core, gsize core_size, const WkRc2Level *lvl, const char *name,
           const guint8 *block, gsize size, GError **error)
{
  gsize start, end;
  wk_rc2_core_region (lvl, name, &start, &end);
  if (end > core_size || start > end || size > end - start)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "the new %s block has %"
                    G_GSIZE_FORMAT " bytes, its region of core_data holds %"
                    G_GSIZE_FORMAT " (core_data 0x%" G_GSIZE_MODIFIER "x..0x%"
                    G_GSIZE_MODIFIER "x; regions never move: docs)", name, size,
                    end > start ? end - start : 0, start, end);
      return FALSE;
    }
  memcpy (core + start, block, size);
  memset (core + start + size, 0, end - start - size);
  return TRUE;
}

/* The map of the level's stream in slot (0 core_data, 1 gameplay, 2
 * gameplay_pal), made once: a level's bytes never change, and the
 * rewrite decodes what it writes back anyway (verify). */
static const WkRestreamMap *
level_map (const WkRc2Level *lvl, guint slot, gsize off, gsize size, gint64 expected,
           GError **error)
{
  gpointer *at = &((WkRc2Level *) lvl)->restream_maps[slot]; /* the cache only */
  WkRestreamMap *m = g_atomic_pointer_get (at);
  if (m)
    return m;
  m = wk_rc2_restream_map (wk_rc2_data (lvl) + off, size, (gint64) off, expected,
                           MAX_PLAIN, error);
  if (m && !g_atomic_pointer_compare_and_exchange (at, NULL, m))
    { /* another thread made it first */
      wk_rc2_restream_map_free (m);
      m = g_atomic_pointer_get (at);
    }
  return m;
}

GBytes *
wk_rc2_level_tfrags_edit (const WkRc2Level *lvl, const WkTfragEdit *edit, guint8 **status,
                          guint *n_patches, GError **error)
{
  *status = NULL;
  *n_patches = 0;
  const WkRc2Section *cd = wk_rc2_section (lvl, "core_data");
  const WkRestreamMap *map = level_map (lvl, 0, cd->offset, cd->size,
                                        WK_RC2_CORE (lvl, WK_RC2_DECOMPRESSED_SIZE), error);
  if (map == NULL)
    return NULL;
  gsize n, start, end;
  guint count;
  const guint8 *plain = g_bytes_get_data (map->plain, &n);
  if (!wk_rc2_tfrag_block (lvl, n, &start, &end, &count, error))
    return NULL;
  gpointer *at = &((WkRc2Level *) lvl)->tfrags_base; /* the cache only */
  WkTfragsBase *b = g_atomic_pointer_get (at);
  if (b == NULL)
    {
      /* the count is a core header word: at most G_MAXINT32 */
      b = wk_tfrags_base_new (plain + start, end - start, (gint64) start, (gint) count,
                              error);
      if (b == NULL)
        return NULL;
      if (!g_atomic_pointer_compare_and_exchange (at, NULL, b))
        { /* another thread made it first */
          wk_tfrags_base_free (b);
          b = g_atomic_pointer_get (at);
        }
    }
  WkTfragEdit e = *edit;
  e.texture_count = (gint) count;
  guint8 *st = g_new0 (guint8, MAX (wk_tfrags_base_count (b), 1));
  GBytes *out = wk_tfrags_base_edit (b, &e, st, error);
  if (out == NULL)
    {
      g_free (st);
      return NULL;
    }
  *status = st;
  *n_patches = wk_tfrags_base_count (b);
  return out;
}

/* The new core_data stream, core_index and plain core_data, or FALSE. */
static gboolean
new_core (const WkRc2Level *lvl, const WkRc2Rewrite *rw, gboolean splice,
          GBytes **stream, GBytes **index, GBytes **core_plain, WkRestreamInfo *info,
          GError **error)
{
  const guint8 *file = wk_rc2_data (lvl);
  const WkRc2Section *cd = wk_rc2_section (lvl, "core_data");
  const WkRc2Section *ci = wk_rc2_section (lvl, "core_index");
  const WkRestreamMap *map = level_map (lvl, 0, cd->offset, cd->size,
                                        WK_RC2_CORE (lvl, WK_RC2_DECOMPRESSED_SIZE), error);
  if (map == NULL)
    return FALSE;
  gsize n;
  const guint8 *plain = g_bytes_get_data (map->plain, &n);
  guint8 *core = g_memdup2 (plain, n);
  *core_plain = g_bytes_new_take (core, n);
  if ((rw->tfrags && !put_block (core, n, lvl, "tfrags", rw->tfrags, rw->tfrags_size, error))
      || (rw->collision && !put_block (core, n, lvl, "collision", rw->collision,
                                       rw->collision_size, error)))
    return FALSE;
  *stream = wk_rc2_restream (map, core, n, splice, info, error);
  if (*stream == NULL)
    return FALSE;
  guint8 *idx = g_memdup2 (file + ci->offset, ci->size);
  put32 (idx + WK_RC2_COMPRESSED_SIZE, (gint32) g_bytes_get_size (*stream));
  *index = g_bytes_new_take (idx, ci->size);
  return TRUE;
}

static GBytes *
new_gameplay (const WkRc2Level *lvl, const char *name, const guint8 *plain, gsize n,
              gboolean splice, WkRestreamInfo *info, GError **error)
{
  gsize off, size;
  gint64 expected;
  if (!wk_rc2_stream (lvl, name, &off, &size, &expected, error))
    return NULL;
  const WkRestreamMap *map = level_map (lvl, strcmp (name, "gameplay") ? 2 : 1, off, size,
                                        -1, error);
  if (map == NULL)
    return NULL;
  return wk_rc2_restream (map, plain, n, splice, info, error);
}

static GBytes *
build (const WkRc2Level *lvl, const WkRc2Rewrite *rw, gboolean splice,
       WkRc2RewriteInfo *info, GBytes **core_plain, GError **error)
{
  const guint8 *file = wk_rc2_data (lvl);
  gsize file_size = g_bytes_get_size (lvl->bytes);
  const WkRc2Extent *dx = wk_rc2_extent (lvl, "data");
  Piece ext[WK_RC2_MAX_EXTENTS] = { { 0 } };
  for (guint i = 0; i < lvl->n_extents; i++)
    ext[i] = (Piece) { lvl->extents[i].name, lvl->extents[i].offset,
                       lvl->extents[i].size, NULL, 0, 0 };
  GBytes *owned[5] = { NULL };
  GByteArray *data = NULL;
  GBytes *result = NULL;
  if (rw->tfrags || rw->collision)
    {
      GBytes *stream = NULL, *index = NULL;
      if (!new_core (lvl, rw, splice, &stream, &index, core_plain, &info->core_data,
                     error))
        goto done;
      owned[0] = stream, owned[1] = index;
      const WkRc2Section *cd = wk_rc2_section (lvl, "core_data");
      if (same_stream (stream, file + cd->offset, cd->size))
        goto gameplay;       /* the same core_data: its section stays as it is */
      Piece sec[WK_RC2_SECTIONS];
      for (guint i = 0; i < WK_RC2_SECTIONS; i++)
        {
          const WkRc2Section *s = &lvl->sections[i];
          sec[i] = (Piece) { s->name, s->size ? s->offset - dx->offset : 0, s->size,
                             NULL, 0, 0 };
          if (strcmp (s->name, "core_data") == 0)
            sec[i].repl = stream;
          else if (strcmp (s->name, "core_index") == 0)
            sec[i].repl = index;
        }
      data = relayout (file + dx->offset, dx->size, sec, WK_RC2_SECTIONS, 1,
                       "section", error);
      if (data == NULL)
        goto done;
      for (guint i = 0; i < WK_RC2_SECTIONS; i++)
        if (sec[i].size)
          {
            put32 (data->data + 8 * i, (gint32) sec[i].new_off);
            put32 (data->data + 8 * i + 4, (gint32) sec[i].new_size);
          }
      owned[2] = g_bytes_new (data->data, data->len);
      for (guint i = 0; i < lvl->n_extents; i++)
        if (ext[i].off == dx->offset && ext[i].size == dx->size)
          ext[i].repl = owned[2];
    }
gameplay:;
  static const char *const gp_names[2] = { "gameplay", "gameplay_pal" };
  const guint8 *gp_plain[2] = { rw->gameplay, rw->gameplay_pal };
  const gsize gp_size[2] = { rw->gameplay_size, rw->gameplay_pal_size };
  WkRestreamInfo *gp_info[2] = { &info->gameplay, &info->gameplay_pal };
  for (int g = 0; g < 2; g++)
    {
      if (gp_plain[g] == NULL)
        continue;
      const WkRc2Extent *x = wk_rc2_extent (lvl, gp_names[g]);
      owned[3 + g] = new_gameplay (lvl, gp_names[g], gp_plain[g], gp_size[g], splice,
                                   gp_info[g], error);
      if (owned[3 + g] == NULL)
        goto done;
      if (same_stream (owned[3 + g], file + x->offset, x->size))
        continue;            /* unchanged: the extent stays as it is */
      for (guint i = 0; i < lvl->n_extents; i++)
        if (ext[i].size && ext[i].off == x->offset && ext[i].size == x->size)
          {
            if (ext[i].repl)
              { /* PAL shares the NTSC extent: one stream for both */
                wk_set_error (error, WK_ERROR_ARGUMENT, -1, "gameplay_pal is the "
                              "gameplay extent itself; give one new gameplay");
                goto done;
              }
            ext[i].repl = owned[3 + g];
          }
    }
  {
    GByteArray *file_out = relayout (file, file_size, ext, lvl->n_extents,
                                     WK_RC2_SECTOR, "extent", error);
    if (file_out == NULL)
      goto done;
    guint8 *head = file_out->data;
    for (guint i = 0; i < lvl->n_extents; i++)
      if (ext[i].size)
        {
          put32 (head + lvl->extents[i].slot, (gint32) (ext[i].new_off / WK_RC2_SECTOR));
          put32 (head + lvl->extents[i].slot + 4, (gint32) (ext[i].new_size / WK_RC2_SECTOR));
        }
    result = g_byte_array_free_to_bytes (file_out);
  }
done:
  for (guint i = 0; i < G_N_ELEMENTS (owned); i++)
    if (owned[i])
      g_bytes_unref (owned[i]);
  if (data)
    g_byte_array_unref (data);
  return result;
}

/* Parse the file again and decode every stream it names to its declared
 * size; each stream given in `want` must decode to exactly those bytes
 * and pass the validator. */
static gboolean
verify (GBytes *bytes, const char *const names[3], const guint8 *const want[3],
        const gsize want_n[3], GError **error)
{
  g_autoptr (WkRc2Level) lvl = wk_rc2_level_parse (bytes, error);
  if (lvl == NULL)
    return FALSE;
  const guint8 *file = wk_rc2_data (lvl);
  for (int s = 0; s < 3; s++)
    {
      gsize off, size;
      gint64 expected;
      if (strcmp (names[s], "gameplay_pal") == 0 && lvl->header_size != 0x68)
        continue;
      GError *skip = NULL;
      if (!wk_rc2_stream (lvl, names[s], &off, &size, &expected, &skip))
        {
          g_clear_error (&skip); /* a level without that stream */
          continue;
        }
      /* decoded through a small buffer and compared on the way: no
       * output-sized allocation (fresh pages cost more than the decode) */
      if (expected > (gint64) MAX_PLAIN)
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) off, "%s: declared size %"
                        G_GINT64_FORMAT " beyond %" G_GSIZE_FORMAT, names[s], expected,
                        MAX_PLAIN);
          return FALSE;
        }
      GError *bad = NULL;
      if (!wk_lz_decodes_to (file + off, size, (gint64) off, expected, want[s],
                             want_n[s], &bad))
        {
          if (want[s] == NULL)
            {
              g_propagate_error (error, bad);
              wk_error_prefix (error, "%s", names[s]);
              return FALSE;
            }
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) off, "%s does not decode "
                        "to what was written: %s", names[s], bad->message);
          g_error_free (bad);
          return FALSE;
        }
      if (want[s] == NULL)
        continue;
      g_autoptr (GPtrArray) v = wk_lz_validate (file + off, size, 1);
      if (v->len)
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) off, "%s does not decode "
                        "to what was written: %s", names[s], (const char *) v->pdata[0]);
          return FALSE;
        }
    }
  return TRUE;
}

GBytes *
wk_rc2_level_rewrite (const WkRc2Level *lvl, const WkRc2Rewrite *rw,
                      WkRc2RewriteInfo *info, GError **error)
{
  static const char *const names[3] = { "core_data", "gameplay", "gameplay_pal" };
  /* spliced streams first; should one not read back (a bug), everything
   * compressed whole */
  for (int splice = 1; splice >= 0; splice--)
    {
      memset (info, 0, sizeof *info);
      g_autoptr (GBytes) core = NULL;
      GBytes *out = build (lvl, rw, splice, info, &core, error);
      if (out == NULL)
        {
          wk_error_prefix (error, "RC2 save");
          return NULL;
        }
      gsize core_n = 0;
      const guint8 *want[3] = { core ? g_bytes_get_data (core, &core_n) : NULL,
                                rw->gameplay, rw->gameplay_pal };
      const gsize want_n[3] = { core_n, rw->gameplay_size, rw->gameplay_pal_size };
      GError *err = NULL;
      if (verify (out, names, want, want_n, &err))
        return out;
      g_bytes_unref (out);
      if (!splice)
        {
          g_propagate_error (error, err);
          wk_error_prefix (error, "the saved RC2 level does not read back");
          return NULL;
        }
      g_clear_error (&err);
    }
  g_assert_not_reached ();
}

gboolean
wk_rc2_level_save (GBytes *bytes, const char *path, gboolean checked, GError **error)
{
  static const char *const names[3] = { "core_data", "gameplay", "gameplay_pal" };
  const guint8 *want[3] = { NULL, NULL, NULL };
  const gsize want_n[3] = { 0, 0, 0 };
  if (!checked && !verify (bytes, names, want, want_n, error))
    {
      wk_error_prefix (error, "RC2 level not written");
      return FALSE;
    }
  gsize size;
  const guint8 *p = g_bytes_get_data (bytes, &size);
  return wk_file_save_atomic (path, p, size, error);
}
