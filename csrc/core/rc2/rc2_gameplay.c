#include "rc2_gameplay.h"

#include <math.h>

#include "../common/wk_reader.h"

/* The 39 header slots, named as Wrench names the R&C2 ("GC") blocks. */
static const char *const slot_names[WK_RC2_GAMEPLAY_SLOTS] = {
  "settings", "directional_lights", "cameras", "sound_instances",
  "help_us_english", "help_uk_english", "help_french", "help_german",
  "help_spanish", "help_italian", "help_japanese", "help_korean",
  "tie_classes", "tie_instances", "tie_groups", "shrub_classes",
  "shrub_instances", "shrub_groups", "moby_classes", "moby_instances",
  "moby_groups", "shared_data", "pvar_moby_links", "pvar_table",
  "pvar_data", "pvar_relative_pointers", "cuboids", "spheres", "cylinders",
  "pills", "paths", "grind_paths", "point_lights", "env_transitions",
  "cam_coll_grid", "env_sample_points", "occlusion", "tie_ambient_rgbas",
  "areas",
};

#define SLOT_SETTINGS 0x00u
#define SLOT_AMBIENT 0x94u
#define MOBY_RECORD 0x88u

#define I(name, at) { name, at, WK_RC2_I32, 1 }
#define F(name, at) { name, at, WK_RC2_F32, 1 }
#define I3(name, at) { name, at, WK_RC2_I32, 3 }
#define F3(name, at) { name, at, WK_RC2_F32, 3 }
#define END { NULL, 0, 0, 0 }

static const WkRc2Field tie_fields[] = {
  I ("class_id", 0x00), I ("draw_distance", 0x04), I ("pad_8", 0x08),
  I ("occlusion_index", 0x0c), { "matrix", 0x10, WK_RC2_MAT4, 16 },
  F ("matrix_w", 0x4c), I ("directional_lights", 0x50), I ("uid", 0x54),
  I ("pad_58", 0x58), I ("pad_5c", 0x5c), END,
};

static const WkRc2Field shrub_fields[] = {
  I ("class_id", 0x00), F ("draw_distance", 0x04), I ("unused_8", 0x08),
  I ("unused_c", 0x0c), { "matrix", 0x10, WK_RC2_MAT4, 16 },
  F ("matrix_w", 0x4c), I3 ("colour", 0x50), I ("unused_5c", 0x5c),
  I ("directional_lights", 0x60), I ("unused_64", 0x64),
  I ("unused_68", 0x68), I ("unused_6c", 0x6c), END,
};

static const WkRc2Field moby_fields[] = {
  I ("size", 0x00), I ("mission", 0x04), I ("unknown_8", 0x08),
  I ("unknown_c", 0x0c), I ("uid", 0x10), I ("bolts", 0x14),
  I ("unknown_18", 0x18), I ("unknown_1c", 0x1c), I ("unknown_20", 0x20),
  I ("unknown_24", 0x24), I ("class_id", 0x28), F ("scale", 0x2c),
  I ("draw_distance", 0x30), I ("update_distance", 0x34),
  I ("unused_38", 0x38), I ("unused_3c", 0x3c), F3 ("position", 0x40),
  F3 ("rotation", 0x4c), I ("group", 0x58), I ("is_rooted", 0x5c),
  F ("rooted_distance", 0x60), I ("unknown_64", 0x64),
  I ("pvar_index", 0x68), I ("occlusion", 0x6c), I ("mode_bits", 0x70),
  I3 ("light_colour", 0x74), I ("light", 0x80), I ("unknown_84", 0x84),
  { "matrix", 0, WK_RC2_MOBY_MAT4, 16 }, END,
};

const WkRc2Field wk_rc2_settings_fields[] = {
  I3 ("background_colour", 0x00), I3 ("fog_colour", 0x0c),
  F ("fog_near_distance", 0x18), F ("fog_far_distance", 0x1c),
  F ("fog_near_intensity", 0x20), F ("fog_far_intensity", 0x24),
  F ("death_height", 0x28), I ("is_spherical_world", 0x2c),
  F3 ("sphere_centre", 0x30), F3 ("ship_position", 0x3c),
  F ("ship_rotation_z", 0x48), I ("ship_path", 0x4c),
  I ("ship_camera_cuboid_start", 0x50), I ("ship_camera_cuboid_end", 0x54),
  I ("pad_58", 0x58), END,
};

const WkRc2Field wk_rc2_chunk_plane_fields[] = {
  F3 ("point", 0x00), I ("count", 0x0c), F3 ("normal", 0x10), I ("pad", 0x1c),
  END,
};

const WkRc2InstanceLayout wk_rc2_instance_layouts[WK_RC2_KINDS] = {
  { "tie", 0x34, 0x30, 0x60, 0x00, tie_fields },
  { "shrub", 0x40, 0x3c, 0x70, 0x00, shrub_fields },
  { "moby", 0x4c, 0x48, MOBY_RECORD, 0x28, moby_fields },
};

void
wk_rc2_gameplay_free (WkRc2Gameplay *gp)
{
  if (gp == NULL)
    return;
  g_clear_pointer (&gp->ambient, g_array_unref);
  g_free (gp->tie_ambient);
  g_free (gp);
}

static int
cmp_gsize (gconstpointer a, gconstpointer b)
{
  gsize x = *(const gsize *) a, y = *(const gsize *) b;
  return x < y ? -1 : x > y;
}

/* Header: every offset 0 or inside [header, size); each block runs to the
 * next larger offset. */
static gboolean
parse_header (WkRc2Gameplay *gp, GError **error)
{
  if (gp->size < WK_RC2_GAMEPLAY_HEADER)
    {
      wk_set_error (error, WK_ERROR_FORMAT, 0, "%" G_GSIZE_FORMAT " bytes cannot "
                    "hold the 0x9c-byte header", gp->size);
      return FALSE;
    }
  gsize sorted[WK_RC2_GAMEPLAY_SLOTS];
  guint n = 0;
  for (guint i = 0; i < WK_RC2_GAMEPLAY_SLOTS; i++)
    {
      WkRc2Block *b = &gp->blocks[i];
      b->name = slot_names[i];
      b->slot = 4 * i;
      gint32 off = wk_les32 (gp->data + b->slot);
      if (off == 0)
        continue;
      if (off < (gint32) WK_RC2_GAMEPLAY_HEADER || (gsize) off >= gp->size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, b->slot, "block %s at %d lies "
                        "outside 0x9c..%" G_GSIZE_FORMAT " (after the header, "
                        "inside the gameplay)", b->name, off, gp->size);
          return FALSE;
        }
      b->offset = (gsize) off;
      sorted[n++] = b->offset;
    }
  qsort (sorted, n, sizeof sorted[0], cmp_gsize);
  for (guint i = 0; i < WK_RC2_GAMEPLAY_SLOTS; i++)
    {
      WkRc2Block *b = &gp->blocks[i];
      if (b->offset == 0)
        continue;
      gsize end = gp->size;
      for (guint k = 0; k < n; k++)
        if (sorted[k] > b->offset)
          {
            end = sorted[k];
            break;
          }
      b->size = end - b->offset;
    }
  return TRUE;
}

static WkRc2Block *
block_at (WkRc2Gameplay *gp, guint slot)
{
  return &gp->blocks[slot / 4];
}

/* A reader over a present block; FALSE (no error) when absent. */
static gboolean
block_reader (WkRc2Gameplay *gp, guint slot, WkReader *r)
{
  const WkRc2Block *b = block_at (gp, slot);
  if (b->offset == 0)
    return FALSE;
  wk_reader_init (r, gp->data + b->offset, b->size, (gint64) b->offset);
  return TRUE;
}

static gboolean
parse_settings (WkRc2Gameplay *gp, GError **error)
{
  WkReader r;
  if (!block_reader (gp, SLOT_SETTINGS, &r))
    return TRUE;
  if (!wk_reader_check (&r, WK_RC2_SETTINGS_FIRST + WK_RC2_CHUNK_PLANE + 4,
                        "level settings, one chunk-plane record and the core "
                        "sound count", error))
    return FALSE;
  gp->settings = r.data;
  /* The first chunk-plane record's count word says how many there are;
   * a count <= 0 means a lone terminator record (docs/formats/rc2-gameplay.md). */
  gint32 planes = wk_les32 (r.data + WK_RC2_SETTINGS_FIRST + 0x0c);
  gp->chunk_planes = planes > 0 ? (guint) planes : 0;
  gp->chunk_records = planes > 0 ? (guint) planes : 1;
  wk_reader_skip (&r, WK_RC2_SETTINGS_FIRST, "level settings", NULL);
  if (!wk_reader_need (&r, gp->chunk_records, WK_RC2_CHUNK_PLANE, "chunk planes",
                       NULL)
      || !wk_reader_skip (&r, (gsize) gp->chunk_records * WK_RC2_CHUNK_PLANE,
                          "chunk planes", NULL)
      || !wk_read_i32 (&r, &gp->core_sounds_count, "core sound count", NULL))
    {
      wk_set_error (error, WK_ERROR_FORMAT, r.base + 0x68, "%d chunk planes "
                    "(0x20 bytes each) and the core sound count do not fit in "
                    "the %" G_GSIZE_FORMAT "-byte block", planes, r.size);
      return FALSE;
    }
  block_at (gp, SLOT_SETTINGS)->decoded = r.pos;
  return TRUE;
}

static gboolean
parse_class_list (WkRc2Gameplay *gp, WkRc2Kind kind, GError **error)
{
  WkReader r;
  if (!block_reader (gp, wk_rc2_instance_layouts[kind].class_slot, &r))
    return TRUE;
  gint32 count;
  if (!wk_read_i32 (&r, &count, "class count", error))
    return FALSE;
  if (count < 0 || !wk_reader_need (&r, (guint64) count, 4, "class numbers", NULL))
    {
      wk_set_error (error, WK_ERROR_FORMAT, r.base, "%d class numbers do not fit "
                    "in the %" G_GSIZE_FORMAT "-byte block", count, r.size);
      return FALSE;
    }
  gp->classes[kind].ids = wk_reader_ptr (&r);
  gp->classes[kind].count = (guint) count;
  block_at (gp, wk_rc2_instance_layouts[kind].class_slot)->decoded = 4 + 4 * (gsize) count;
  return TRUE;
}

static gboolean
parse_instances (WkRc2Gameplay *gp, WkRc2Kind kind, GError **error)
{
  const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[kind];
  WkReader r;
  if (!block_reader (gp, L->instance_slot, &r))
    return TRUE;
  if (!wk_reader_check (&r, 16, "block header", error))
    return FALSE;
  for (guint i = 0; i < 4; i++)
    gp->inst[kind].header[i] = wk_les32 (r.data + 4 * i);
  gint32 count = gp->inst[kind].header[0];
  wk_reader_skip (&r, 16, "block header", NULL);
  if (count < 0 || !wk_reader_need (&r, (guint64) count, L->record, "records", NULL))
    {
      wk_set_error (error, WK_ERROR_FORMAT, r.base, "%d records of 0x%x bytes do "
                    "not fit in the %" G_GSIZE_FORMAT "-byte block", count,
                    L->record, r.size);
      return FALSE;
    }
  const guint8 *rec = wk_reader_ptr (&r);
  if (kind == WK_RC2_MOBY)
    for (gint32 i = 0; i < count; i++)
      {
        gint32 size = wk_les32 (rec + (gsize) i * MOBY_RECORD);
        if (size != (gint32) MOBY_RECORD)
          {
            wk_set_error (error, WK_ERROR_FORMAT, r.base + 16 + (gint64) i * MOBY_RECORD,
                          "moby %d: record size field %d, not 0x88", i, size);
            return FALSE;
          }
      }
  gp->inst[kind].records = rec;
  gp->inst[kind].count = (guint) count;
  block_at (gp, L->instance_slot)->decoded = 16 + (gsize) count * L->record;
  return TRUE;
}

/* Class lists of ties and shrubs: the instances' distinct classes in order
 * of first appearance (the moby list is data of its own; not derived). */
static gboolean
check_class_list (const WkRc2Gameplay *gp, WkRc2Kind kind, GError **error)
{
  const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[kind];
  if (gp->classes[kind].ids == NULL)
    return TRUE;
  guint n = gp->inst[kind].count, listed = gp->classes[kind].count;
  gint64 list_at = (gint64) gp->blocks[L->class_slot / 4].offset + 4;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint k = 0;
  for (guint i = 0; i < n; i++)
    {
      const guint8 *rec = gp->inst[kind].records + (gsize) i * L->record;
      gint32 c = wk_les32 (rec + L->class_field);
      if (g_hash_table_contains (seen, GINT_TO_POINTER (c)))
        continue;
      g_hash_table_add (seen, GINT_TO_POINTER (c));
      if (k >= listed || wk_les32 (gp->classes[kind].ids + 4 * (gsize) k) != c)
        {
          wk_set_error (error, WK_ERROR_FORMAT, list_at + 4 * (gint64) k,
                        "%s class list entry %u is %s, but the instances' "
                        "classes in order of first appearance have %d there "
                        "(first used by instance %u)", L->name, k,
                        k >= listed ? "missing" : "another class", c, i);
          return FALSE;
        }
      k++;
    }
  if (k != listed)
    {
      wk_set_error (error, WK_ERROR_FORMAT, list_at + 4 * (gint64) k,
                    "%s class list has %u classes, its instances use %u", L->name,
                    listed, k);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_ambient (WkRc2Gameplay *gp, GError **error)
{
  WkReader r;
  if (!block_reader (gp, SLOT_AMBIENT, &r))
    return TRUE;
  guint ties = gp->inst[WK_RC2_TIE].count;
  gp->ambient = g_array_new (FALSE, FALSE, sizeof (WkRc2Ambient));
  gp->tie_ambient = g_new (gint32, MAX (ties, 1));
  for (guint i = 0; i < ties; i++)
    gp->tie_ambient[i] = -1;
  for (;;)
    {
      gint64 at = wk_reader_abs (&r);
      guint16 index, words;
      if (!wk_read_u16 (&r, &index, "record index (the list ends with -1)", error))
        return FALSE;
      if ((gint16) index == -1)
        break;
      if (index >= ties)
        {
          wk_set_error (error, WK_ERROR_FORMAT, at, "record %u names tie instance "
                        "%d of %u", gp->ambient->len, (gint16) index, ties);
          return FALSE;
        }
      if (!wk_read_u16 (&r, &words, "record size", error))
        return FALSE;
      if ((gint16) words < 0)
        {
          wk_set_error (error, WK_ERROR_FORMAT, at + 2, "tie %u: negative size %d",
                        index, (gint16) words);
          return FALSE;
        }
      WkRc2Ambient a = { index, words, (gsize) wk_reader_abs (&r) };
      if (!wk_reader_skip (&r, 2 * (gsize) words, "colour data", error))
        {
          wk_error_prefix (error, "tie %u", index);
          return FALSE;
        }
      /* Wrench keeps the last record of a tie; so do we (docs). */
      gp->tie_ambient[index] = (gint32) gp->ambient->len;
      g_array_append_val (gp->ambient, a);
    }
  block_at (gp, SLOT_AMBIENT)->decoded = r.pos;
  return TRUE;
}

WkRc2Gameplay *
wk_rc2_gameplay_parse (const guint8 *data, gsize size, GError **error)
{
  g_autoptr (WkRc2Gameplay) gp = g_new0 (WkRc2Gameplay, 1);
  gp->data = data;
  gp->size = size;
  if (!parse_header (gp, error))
    {
      wk_error_prefix (error, "header");
      return NULL;
    }
  if (!parse_settings (gp, error))
    {
      wk_error_prefix (error, "level settings");
      return NULL;
    }
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      const char *name = wk_rc2_instance_layouts[k].name;
      if (!parse_class_list (gp, k, error))
        {
          wk_error_prefix (error, "%s classes", name);
          return NULL;
        }
      if (!parse_instances (gp, k, error))
        {
          wk_error_prefix (error, "%s instances", name);
          return NULL;
        }
      if (k != WK_RC2_MOBY && !check_class_list (gp, k, error))
        {
          wk_error_prefix (error, "%s classes", name);
          return NULL;
        }
    }
  if (!parse_ambient (gp, error))
    {
      wk_error_prefix (error, "tie ambient RGBAs");
      return NULL;
    }
  return g_steal_pointer (&gp);
}

static int
cmp_i32 (gconstpointer a, gconstpointer b)
{
  gint32 x = *(const gint32 *) a, y = *(const gint32 *) b;
  return x < y ? -1 : x > y;
}

gboolean
wk_rc2_gameplay_check_classes (const WkRc2Gameplay *gp, WkRc2Kind kind,
                               const gint32 *ids, gsize n, GError **error)
{
  const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[kind];
  g_autofree gint32 *sorted = g_new (gint32, MAX (n, 1));
  if (n > 0)
    memcpy (sorted, ids, n * sizeof *ids);
  qsort (sorted, n, sizeof *sorted, cmp_i32);
  const WkRc2Block *b = &gp->blocks[L->instance_slot / 4];
  for (guint i = 0; i < gp->inst[kind].count; i++)
    {
      gint32 c = wk_les32 (gp->inst[kind].records + (gsize) i * L->record + L->class_field);
      if (n == 0 || bsearch (&c, sorted, n, sizeof *sorted, cmp_i32) == NULL)
        {
          wk_set_error (error, WK_ERROR_FORMAT,
                        (gint64) (b->offset + 16 + (gsize) i * L->record + L->class_field),
                        "%s instance %u: class %d is not in the core's %s class "
                        "table (%" G_GSIZE_FORMAT " classes)", L->name, i, c, L->name, n);
          wk_error_prefix (error, "%s instances", L->name);
          return FALSE;
        }
    }
  return TRUE;
}

gsize
wk_rc2_field_bytes (const WkRc2Field *f)
{
  return 4 * (gsize) f->n;
}

/* T(position) S(scale) Rz Ry Rx, for column vectors, row-major out. */
static void
moby_matrix (const guint8 *rec, gfloat *m)
{
  double s = wk_lef32 (rec + 0x2c);
  double p[3], a[3], c[3], n[3];
  for (int i = 0; i < 3; i++)
    {
      p[i] = wk_lef32 (rec + 0x40 + 4 * i);
      a[i] = wk_lef32 (rec + 0x4c + 4 * i);
      c[i] = cos (a[i]);
      n[i] = sin (a[i]);
    }
  const double r[3][3] = {
    { c[2] * c[1], c[2] * n[1] * n[0] - n[2] * c[0], c[2] * n[1] * c[0] + n[2] * n[0] },
    { n[2] * c[1], n[2] * n[1] * n[0] + c[2] * c[0], n[2] * n[1] * c[0] - c[2] * n[0] },
    { -n[1], c[1] * n[0], c[1] * c[0] },
  };
  for (int i = 0; i < 3; i++)
    {
      for (int j = 0; j < 3; j++)
        m[4 * i + j] = (gfloat) (s * r[i][j]);
      m[4 * i + 3] = (gfloat) p[i];
    }
  m[12] = m[13] = m[14] = 0.0f;
  m[15] = 1.0f;
}

void
wk_rc2_field_fill (const WkRc2Field *f, const guint8 *records, guint count,
                   gsize stride, void *out)
{
  guint32 *o = out;
  for (guint i = 0; i < count; i++)
    {
      const guint8 *rec = records + (gsize) i * stride;
      guint32 *dst = o + (gsize) i * f->n;
      switch (f->type)
        {
        case WK_RC2_MAT4:
          /* stored column by column: element (row, col) at col * 4 + row */
          for (int row = 0; row < 4; row++)
            for (int col = 0; col < 4; col++)
              dst[4 * row + col] = wk_le32 (rec + f->offset + 4 * (4 * col + row));
          {
            gfloat one = 1.0f;
            memcpy (&dst[15], &one, 4);
          }
          break;
        case WK_RC2_MOBY_MAT4:
          moby_matrix (rec, (gfloat *) dst);
          break;
        default: /* I32 and F32: the stored bits */
          for (guint k = 0; k < f->n; k++)
            dst[k] = wk_le32 (rec + f->offset + 4 * k);
          break;
        }
    }
}

gsize
wk_rc2_ambient_words (const WkRc2Gameplay *gp, guint16 *out)
{
  gsize n = 0;
  for (guint i = 0; gp->ambient && i < gp->ambient->len; i++)
    {
      const WkRc2Ambient *a = &g_array_index (gp->ambient, WkRc2Ambient, i);
      for (gint32 k = 0; k < a->count; k++, n++)
        if (out)
          out[n] = wk_le16 (gp->data + a->offset + 2 * (gsize) k);
    }
  return n;
}
