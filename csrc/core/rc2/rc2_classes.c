#include "rc2_classes.h"

#include "../common/wk_reader.h"
#include "rc2_level.h"

typedef WkRc2ClassTableDef TableDef;

/* In WkRc2Kind order: tie, shrub, moby. */
const WkRc2ClassTableDef wk_rc2_class_table_defs[WK_RC2_KINDS] = {
  { "tie", 0x20, 0x40, 0x20 },
  { "shrub", 0x28, 0x48, 0x30 },
  { "moby", 0x18, 0x38, 0x20 },
};

#define RATCHET_SEQS 0x78u
#define RATCHET_SEQ_COUNT 256u
#define MOBY_SOUND_REMAP 0xb4u

void
wk_rc2_classes_free (WkRc2Classes *c)
{
  if (c == NULL)
    return;
  for (int k = 0; k < WK_RC2_KINDS; k++)
    g_clear_pointer (&c->tables[k], g_array_unref);
  g_free (c);
}

static int
cmp_i64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

static gint32
word (const guint8 *index, guint at)
{
  return wk_les32 (index + at);
}

/* Read one table's entries and check them on their own. */
static gboolean
read_table (WkRc2Classes *c, int kind, const guint8 *index, gsize size,
            gint64 base, GError **error)
{
  const TableDef *d = &wk_rc2_class_table_defs[kind];
  gint32 count = word (index, d->table), offset = word (index, d->table + 4);
  gint32 tex_count = word (index, d->textures);
  gint32 dsize = word (index, WK_RC2_DECOMPRESSED_SIZE);
  c->tables[kind] = g_array_new (FALSE, TRUE, sizeof (WkRc2Class));
  if (count < 0 || offset < 0
      || (count > 0 && ((guint32) offset < WK_RC2_CORE_HEADER
                        || (guint64) offset + (guint64) count * d->entry > size)))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + d->table, "%d entries of 0x%x "
                    "bytes at 0x%x do not lie in the %" G_GSIZE_FORMAT "-byte "
                    "core_index after its 0xbc-byte header", count, d->entry,
                    (guint32) offset, size);
      return FALSE;
    }
  if (tex_count < 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + d->textures,
                    "negative texture count %d", tex_count);
      return FALSE;
    }
  g_array_set_size (c->tables[kind], (guint) count);
  gint32 last = 0;
  guint last_i = 0;
  for (guint i = 0; i < (guint) count; i++)
    {
      WkRc2Class *e = &g_array_index (c->tables[kind], WkRc2Class, i);
      e->entry = (gsize) offset + (gsize) i * d->entry;
      const guint8 *p = index + e->entry;
      gint64 at = base + (gint64) e->entry;
      e->offset = wk_les32 (p);
      e->id = wk_les32 (p + 4);
      e->word_8 = wk_les32 (p + 8);
      e->word_c = wk_les32 (p + 12);
      memcpy (e->textures, p + 16, 16);
      if (d->entry == 0x30)
        for (int b = 0; b < 8; b++)
          e->billboard[b] = wk_les16 (p + WK_RC2_CLASS_ENTRY_BILLBOARD + 2 * b);
      if (e->offset != 0 && (e->offset < 0 || e->offset >= dsize))
        {
          wk_set_error (error, WK_ERROR_FORMAT, at, "class %u (number %d): data "
                        "offset %d outside the %d bytes of core_data", i, e->id,
                        e->offset, dsize);
          return FALSE;
        }
      if (e->offset != 0 && last != 0 && e->offset <= last)
        {
          wk_set_error (error, WK_ERROR_FORMAT, at, "class %u (number %d): data "
                        "offset 0x%x is not after class %u's 0x%x", i, e->id,
                        e->offset, last_i, last);
          return FALSE;
        }
      if (e->offset != 0)
        {
          last = e->offset;
          last_i = i;
        }
      while (e->n_textures < 16 && e->textures[e->n_textures] != 0xff)
        {
          if (e->textures[e->n_textures] >= tex_count)
            {
              wk_set_error (error, WK_ERROR_FORMAT, at + 16 + e->n_textures,
                            "class %u (number %d): texture %u of the %d-entry "
                            "%s texture table", i, e->id,
                            e->textures[e->n_textures], tex_count, d->name);
              return FALSE;
            }
          e->n_textures++;
        }
    }
  return TRUE;
}

/* Block boundaries of core_data (where a class's data may end): the
 * region offsets, core_data's size, every class offset, the moby sound
 * remap and the ratchet sequences. */
static GArray *
boundaries (const WkRc2Classes *c, const guint8 *index, gsize size, gint64 base,
            GError **error)
{
  static const guint regions[] = { 0x08, 0x0c, 0x10, 0x14, 0x60,
                                   WK_RC2_DECOMPRESSED_SIZE, MOBY_SOUND_REMAP };
  g_autoptr (GArray) b = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < G_N_ELEMENTS (regions); i++)
    {
      gint64 v = word (index, regions[i]);
      g_array_append_val (b, v);
    }
  for (int k = 0; k < WK_RC2_KINDS; k++)
    for (guint i = 0; i < c->tables[k]->len; i++)
      {
        gint64 v = g_array_index (c->tables[k], WkRc2Class, i).offset;
        g_array_append_val (b, v);
      }
  gint32 seqs = word (index, RATCHET_SEQS);
  if (seqs != 0)
    {
      if (seqs < (gint32) WK_RC2_CORE_HEADER
          || (guint64) seqs + 4 * RATCHET_SEQ_COUNT > size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, base + RATCHET_SEQS, "the %u "
                        "ratchet sequence offsets at 0x%x do not lie in the %"
                        G_GSIZE_FORMAT "-byte core_index after its header",
                        RATCHET_SEQ_COUNT, (guint32) seqs, size);
          return NULL;
        }
      for (guint i = 0; i < RATCHET_SEQ_COUNT; i++)
        {
          gint64 v = word (index, (guint) seqs + 4 * i);
          if (v > 0)
            g_array_append_val (b, v);
        }
    }
  g_array_sort (b, cmp_i64);
  return g_steal_pointer (&b);
}

/* Smallest boundary above v (there is one: v < core_data's size, itself a
 * boundary; v when there is none, giving size 0). */
static gint64
next_bound (const GArray *b, gint64 v)
{
  guint lo = 0, hi = b->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (b, gint64, mid) <= v)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < b->len ? g_array_index (b, gint64, lo) : v;
}

WkRc2Classes *
wk_rc2_classes_parse (const guint8 *index, gsize size, gint64 base, GError **error)
{
  if (size < WK_RC2_CORE_HEADER)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "core_index of %" G_GSIZE_FORMAT
                    " bytes cannot hold the core header", size);
      wk_error_prefix (error, "RC2 core class tables");
      return NULL;
    }
  g_autoptr (WkRc2Classes) c = g_new0 (WkRc2Classes, 1);
  for (int k = 0; k < WK_RC2_KINDS; k++)
    if (!read_table (c, k, index, size, base, error))
      {
        wk_error_prefix (error, "RC2 core %s classes", wk_rc2_class_table_defs[k].name);
        return NULL;
      }
  g_autoptr (GArray) b = boundaries (c, index, size, base, error);
  if (b == NULL)
    {
      wk_error_prefix (error, "RC2 core class tables");
      return NULL;
    }
  for (int k = 0; k < WK_RC2_KINDS; k++)
    for (guint i = 0; i < c->tables[k]->len; i++)
      {
        WkRc2Class *e = &g_array_index (c->tables[k], WkRc2Class, i);
        if (e->offset != 0)
          e->size = (gsize) (next_bound (b, e->offset) - e->offset);
      }
  return g_steal_pointer (&c);
}
