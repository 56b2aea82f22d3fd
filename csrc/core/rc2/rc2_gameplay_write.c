/* The RC2 gameplay writer: edited instances, class lists, ambient records,
 * groups and settings, every other block copied. docs/formats/rc2-writing.md
 * ("Gameplay"). */
#include "rc2_gameplay_write.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"

#define SLOT_SETTINGS 0x00u
#define SLOT_AMBIENT 0x94u
static const guint group_slot[WK_RC2_KINDS] = { 0x38, 0x44, 0x50 };

static void
put32 (guint8 *p, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  memcpy (p, &le, 4);
}

static void
putf (guint8 *p, gfloat f)
{
  guint32 u;
  memcpy (&u, &f, 4);
  put32 (p, u);
}

static void
app32 (GByteArray *o, guint32 v)
{
  guint8 b[4];
  put32 (b, v);
  g_byte_array_append (o, b, 4);
}

static void
app16 (GByteArray *o, guint16 v)
{
  guint16 le = GUINT16_TO_LE (v);
  g_byte_array_append (o, (const guint8 *) &le, 2);
}

static const WkRc2Field *
field (const WkRc2Field *f, const char *name)
{
  for (; f->name; f++)
    if (strcmp (f->name, name) == 0)
      return f;
  return NULL;
}

#define ARG(...)                                                        \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_ARGUMENT, -1, __VA_ARGS__);           \
    return FALSE;                                                       \
  } G_STMT_END
#define LIM(...)                                                        \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    return FALSE;                                                       \
  } G_STMT_END

/* A new record of zeros with the values Wrench writes [assumed: docs]. */
static void
default_record (WkRc2Kind kind, guint8 *rec)
{
  const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[kind];
  memset (rec, 0, L->record);
  if (kind == WK_RC2_MOBY)
    {
      put32 (rec + 0x00, L->record);
      put32 (rec + 0x04, (guint32) -1);   /* mission */
      putf (rec + 0x2c, 1.0f);            /* scale */
      put32 (rec + 0x38, 32);
      put32 (rec + 0x3c, 64);
      put32 (rec + 0x58, (guint32) -1);   /* group */
      put32 (rec + 0x68, (guint32) -1);   /* pvar_index */
    }
  else
    putf (rec + 0x4c, 0.01f);             /* matrix_w */
}

/* Moby: T(position) S(scale) Rz Ry Rx from a column-vector matrix. */
static gboolean
moby_from_matrix (const gfloat *m, guint8 *rec, guint i, GError **error)
{
  gdouble b[3][3], len[3];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      b[r][c] = m[4 * r + c];
  for (int c = 0; c < 3; c++)
    len[c] = sqrt (b[0][c] * b[0][c] + b[1][c] * b[1][c] + b[2][c] * b[2][c]);
  gdouble s = (len[0] + len[1] + len[2]) / 3;
  gdouble det = b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1])
                - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
                + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]);
  gdouble dot = 0;
  for (int c = 0; c < 3 && s > 0; c++)
    {
      int d = (c + 1) % 3;
      dot = MAX (dot, fabs (b[0][c] * b[0][d] + b[1][c] * b[1][d] + b[2][c] * b[2][d])
                          / (s * s));
    }
  if (!(s > 1e-12) || det <= 0 || fabs (len[0] - s) > 1e-4 * s
      || fabs (len[1] - s) > 1e-4 * s || fabs (len[2] - s) > 1e-4 * s || dot > 1e-4)
    LIM ("moby %u: the matrix is not a rotation times one positive scale "
         "(column lengths %g, %g, %g, determinant %g); a moby stores position, "
         "rotation and a single scale", i, len[0], len[1], len[2], det);
  gdouble r20 = CLAMP (b[2][0] / s, -1.0, 1.0), rx, ry = -asin (r20), rz;
  if (fabs (r20) < 1 - 1e-9)
    {
      rx = atan2 (b[2][1], b[2][2]);
      rz = atan2 (b[1][0], b[0][0]);
    }
  else
    { /* gimbal lock: all of the turn about z */
      rx = 0;
      rz = atan2 (-b[0][1], b[1][1]);
    }
  for (int a = 0; a < 3; a++)
    putf (rec + 0x40 + 4 * a, m[4 * a + 3]);
  putf (rec + 0x4c, (gfloat) rx);
  putf (rec + 0x50, (gfloat) ry);
  putf (rec + 0x54, (gfloat) rz);
  putf (rec + 0x2c, (gfloat) s);
  return TRUE;
}

/* The records of one kind after the edit. map[old] = new index of an old
 * instance's first copy or -1. */
static gboolean
build_records (const WkRc2Gameplay *gp, WkRc2Kind kind, const WkRc2InstanceEdit *ed,
               const WkRc2GameplayEdit *all, GByteArray *out, gint32 *map,
               WkRc2GameplayReport *rep, GError **error)
{
  const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[kind];
  guint old_n = gp->inst[kind].count;
  const guint8 *old = gp->inst[kind].records;
  const WkRc2Field *uid = field (L->fields, "uid");
  const WkRc2Field *mat = field (L->fields, "matrix");
  gint32 max_uid = 0;
  for (guint i = 0; uid && i < old_n; i++)
    max_uid = MAX (max_uid, wk_les32 (old + (gsize) i * L->record + uid->offset));
  for (guint i = 0; i < old_n; i++)
    map[i] = -1;
  g_autoptr (GHashTable) ids = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (gsize k = 0; k < all->n_core_ids[kind]; k++)
    g_hash_table_add (ids, GINT_TO_POINTER (all->core_ids[kind][k]));
  g_byte_array_set_size (out, (guint) ((gsize) ed->n * L->record));
  for (guint i = 0; i < ed->n; i++)
    {
      guint8 *rec = out->data + (gsize) i * L->record;
      gint32 src = ed->source[i], cls = ed->class_id[i];
      const gfloat *m = ed->matrix + 16 * (gsize) i;
      if (src < -1 || (src >= 0 && (guint) src >= old_n))
        ARG ("%ss: source[%u] = %d, the level has %u %s instances", L->name, i,
             src, old_n, L->name);
      if (!g_hash_table_contains (ids, GINT_TO_POINTER (cls)))
        ARG ("%ss: class_id[%u] = %d is not in the core's %s class table", L->name,
             i, cls, L->name);
      for (int k = 0; k < 16; k++)
        if (!isfinite (m[k]))
          ARG ("%ss: matrix[%u] is not finite", L->name, i);
      gboolean fresh = src < 0 || map[src] >= 0;
      if (src >= 0)
        memcpy (rec, old + (gsize) src * L->record, L->record);
      else
        default_record (kind, rec);
      if (src >= 0 && map[src] < 0)
        map[src] = (gint32) i;
      put32 (rec + L->class_field, (guint32) cls);
      if (uid && fresh)
        {
          if (max_uid == G_MAXINT32)
            LIM ("%ss: no uid left for instance %u", L->name, i);
          put32 (rec + uid->offset, (guint32) ++max_uid);
          rep->new_uids[kind]++;
        }
      if (kind == WK_RC2_MOBY)
        {
          gfloat now[16];
          wk_rc2_field_fill (field (L->fields, "matrix"), rec, 1, L->record, now);
          if (memcmp (now, m, 15 * sizeof (gfloat)) != 0
              && !moby_from_matrix (m, rec, i, error))
            return FALSE;
        }
      else /* stored column by column; element 15 is matrix_w, kept */
        for (int row = 0; row < 4; row++)
          for (int col = 0; col < 4; col++)
            if (row != 3 || col != 3)
              putf (rec + mat->offset + 4 * (4 * col + row), m[4 * row + col]);
    }
  return TRUE;
}

/* {count, ids}: the tie / shrub list is the distinct classes in order of
 * first appearance; the moby list keeps its own and gains new classes. */
static void
class_list (const WkRc2Gameplay *gp, WkRc2Kind kind, const WkRc2InstanceEdit *ed,
            GByteArray *out, WkRc2GameplayReport *rep)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint32));
  if (kind == WK_RC2_MOBY)
    for (guint k = 0; k < gp->classes[kind].count; k++)
      {
        gint32 c = wk_les32 (gp->classes[kind].ids + 4 * (gsize) k);
        g_array_append_val (ids, c);
        g_hash_table_add (seen, GINT_TO_POINTER (c));
      }
  for (guint i = 0; i < ed->n; i++)
    if (!g_hash_table_contains (seen, GINT_TO_POINTER (ed->class_id[i])))
      {
        g_hash_table_add (seen, GINT_TO_POINTER (ed->class_id[i]));
        g_array_append_val (ids, ed->class_id[i]);
        if (kind == WK_RC2_MOBY)
          rep->moby_classes_added++;
      }
  app32 (out, ids->len);
  for (guint k = 0; k < ids->len; k++)
    app32 (out, (guint32) g_array_index (ids, gint32, k));
}

/* Tie ambient records: the stored ones in stored order, renumbered, those
 * of deleted ties or of ties whose class changed dropped; copies of a tie
 * get its record (same class) appended. */
static gboolean
ambient (const WkRc2Gameplay *gp, const WkRc2InstanceEdit *ed, const gint32 *map,
         GByteArray *out, WkRc2GameplayReport *rep, GError **error)
{
  const guint8 *old = gp->inst[WK_RC2_TIE].records;
  guint rec = wk_rc2_instance_layouts[WK_RC2_TIE].record;
  if (ed->n > 0x7fff)
    LIM ("%u tie instances: the ambient records index ties by s16", ed->n);
  for (guint r = 0; r < gp->ambient->len; r++)
    {
      const WkRc2Ambient *a = &g_array_index (gp->ambient, WkRc2Ambient, r);
      gint32 to = map[a->instance];
      if (to < 0 || ed->class_id[to] != wk_les32 (old + (gsize) a->instance * rec))
        {
          rep->ambient_dropped++;
          continue;
        }
      app16 (out, (guint16) to);
      app16 (out, (guint16) a->count);
      g_byte_array_append (out, gp->data + a->offset, 2 * (guint) a->count);
    }
  for (guint i = 0; i < ed->n; i++)
    {
      gint32 s = ed->source[i];
      if (s < 0 || map[s] == (gint32) i || gp->tie_ambient[s] < 0
          || ed->class_id[i] != wk_les32 (old + (gsize) s * rec))
        continue;
      const WkRc2Ambient *a = &g_array_index (gp->ambient, WkRc2Ambient,
                                              gp->tie_ambient[s]);
      app16 (out, (guint16) i);
      app16 (out, (guint16) a->count);
      g_byte_array_append (out, gp->data + a->offset, 2 * (guint) a->count);
      rep->ambient_copied++;
    }
  app16 (out, 0xffff);
  return TRUE;
}

/* An instance group block (Wrench's layout: {count, data size, 2 pad},
 * count s32 byte offsets into the member data (-1 = empty) at 0x10, the
 * data 16-aligned: u16 instance indices, the last of a group with bit 15)
 * with its members renumbered by map. *decoded: bytes of the old block it
 * spans. FALSE without error when the block does not read that way. */
static gboolean
remap_groups (const guint8 *b, gsize size, const gint32 *map, guint old_n,
              GByteArray *out, gsize *decoded)
{
  if (size < 16)
    return FALSE;
  gint32 count = wk_les32 (b), dsize = wk_les32 (b + 4);
  gsize data = ((gsize) 0x10 + 4 * (gsize) MAX (count, 0) + 15) & ~(gsize) 15;
  if (count < 0 || dsize < 0 || (gsize) count > size / 4 || data + (gsize) dsize > size)
    return FALSE;
  *decoded = data + (gsize) dsize;
  g_autoptr (GByteArray) members = g_byte_array_new ();
  g_autofree gint32 *ptr = g_new (gint32, MAX (count, 1));
  for (gint32 g = 0; g < count; g++)
    {
      gint32 p = wk_les32 (b + 0x10 + 4 * (gsize) g);
      ptr[g] = -1;
      if (p < 0)
        continue;
      g_autoptr (GArray) list = g_array_new (FALSE, FALSE, sizeof (guint16));
      for (gsize at = (gsize) p;; at += 2)
        {
          if (at + 2 > (gsize) dsize)
            return FALSE;
          guint16 v = wk_le16 (b + data + at);
          guint idx = v & 0x7fff;
          if (idx >= old_n)
            return FALSE;
          if (map[idx] >= 0)
            {
              if (map[idx] > 0x7fff)
                return FALSE;
              guint16 nv = (guint16) map[idx];
              g_array_append_val (list, nv);
            }
          if (v & 0x8000)
            break;
        }
      if (list->len == 0)
        continue;
      ptr[g] = (gint32) members->len;
      for (guint k = 0; k < list->len; k++)
        app16 (members, g_array_index (list, guint16, k) | (k + 1 == list->len ? 0x8000 : 0));
    }
  while (members->len % 16)
    g_byte_array_append (members, (const guint8 *) "\0", 1);
  app32 (out, (guint32) count);
  app32 (out, members->len);
  app32 (out, 0);
  app32 (out, 0);
  for (gint32 g = 0; g < count; g++)
    app32 (out, (guint32) ptr[g]);
  while (out->len % 16)
    g_byte_array_append (out, (const guint8 *) "\0", 1);
  g_byte_array_append (out, members->data, members->len);
  return TRUE;
}

static gboolean
set_settings (const WkRc2Gameplay *gp, const WkRc2GameplayEdit *e, GByteArray *out,
              GError **error)
{
  const WkRc2Block *b = &gp->blocks[SLOT_SETTINGS / 4];
  if (gp->settings == NULL)
    LIM ("the level has no settings block to set %s in", e->settings[0].name);
  g_byte_array_append (out, gp->settings, (guint) b->decoded);
  for (guint k = 0; k < e->n_settings; k++)
    {
      const WkRc2SettingValue *v = &e->settings[k];
      const WkRc2Field *f = field (wk_rc2_settings_fields, v->name);
      if (f == NULL || f->n != v->n)
        ARG ("settings: %s is not a settings field of %u values", v->name, v->n);
      for (guint c = 0; c < f->n; c++)
        {
          guint8 *p = out->data + f->offset + 4 * c;
          gdouble x = v->value[c];
          if (f->type == WK_RC2_I32)
            {
              if (!(x >= G_MININT32 && x <= G_MAXINT32) || x != floor (x))
                ARG ("settings: %s[%u] = %g is not an s32", v->name, c, x);
              put32 (p, (guint32) (gint32) x);
            }
          else
            {
              if (!isfinite (x) || fabs (x) > G_MAXFLOAT)
                ARG ("settings: %s[%u] = %g is not a finite f32", v->name, c, x);
              putf (p, (gfloat) x);
            }
        }
    }
  return TRUE;
}

static int
cmp_block (gconstpointer a, gconstpointer b)
{
  const WkRc2Block *x = *(WkRc2Block *const *) a, *y = *(WkRc2Block *const *) b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The decoded part of the block at slot s after the edit, or NULL when
 * the block keeps its bytes. */
static GByteArray *
new_part (const WkRc2Gameplay *gp, const WkRc2GameplayEdit *e, guint slot,
          GByteArray *const rec[WK_RC2_KINDS], gint32 *const map[WK_RC2_KINDS],
          gsize *decoded, WkRc2GameplayReport *rep, GError **error)
{
  const WkRc2Block *b = &gp->blocks[slot / 4];
  *decoded = b->decoded;
  g_autoptr (GByteArray) out = g_byte_array_new ();
  if (slot == SLOT_SETTINGS && e->n_settings)
    return set_settings (gp, e, out, error) ? g_steal_pointer (&out) : NULL;
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[k];
      const WkRc2InstanceEdit *ed = e->inst[k];
      if (ed == NULL)
        continue;
      if (slot == L->instance_slot)
        {
          gint32 h[4];
          memcpy (h, gp->inst[k].header, sizeof h);
          if (k == WK_RC2_MOBY) /* [assumed] the spawnable count follows */
            h[1] += (gint32) ed->n - (gint32) gp->inst[k].count;
          h[0] = (gint32) ed->n;
          for (int w = 0; w < 4; w++)
            app32 (out, (guint32) h[w]);
          g_byte_array_append (out, rec[k]->data, rec[k]->len);
          return g_steal_pointer (&out);
        }
      if (slot == L->class_slot)
        {
          class_list (gp, k, ed, out, rep);
          return g_steal_pointer (&out);
        }
      if (slot == SLOT_AMBIENT && k == WK_RC2_TIE && gp->ambient)
        return ambient (gp, ed, map[k], out, rep, error) ? g_steal_pointer (&out) : NULL;
      if (slot == group_slot[k])
        {
          guint old_n = gp->inst[k].count;
          gboolean same = ed->n >= old_n;
          for (guint i = 0; same && i < old_n; i++)
            same = map[k][i] == (gint32) i;
          if (same || (b->size >= 4 && wk_les32 (gp->data + b->offset) == 0))
            return NULL; /* indices unchanged, or no groups */
          if (!remap_groups (gp->data + b->offset, b->size, map[k], old_n, out, decoded))
            {
              wk_set_error (error, WK_ERROR_LIMIT, (gint64) b->offset,
                            "%s instances were deleted or reordered, and the %s "
                            "block does not read as instance groups (so its "
                            "indices cannot be renumbered)", L->name, b->name);
              return NULL;
            }
          rep->groups_remapped[k] = TRUE;
          return g_steal_pointer (&out);
        }
    }
  return NULL;
}

/* The new decoded part of block b (new_part), NULL when its bytes stay:
 * a part equal to the stored bytes is dropped. FALSE on error, prefixed
 * with the block's name. */
static gboolean
slot_part (const WkRc2Gameplay *gp, const WkRc2GameplayEdit *e, const WkRc2Block *b,
           GByteArray *const rec[WK_RC2_KINDS], gint32 *const map[WK_RC2_KINDS],
           GByteArray **part, gsize *decoded, WkRc2GameplayReport *rep, GError **error)
{
  GError *err = NULL;
  *part = new_part (gp, e, b->slot, rec, map, decoded, rep, &err);
  if (err)
    {
      wk_error_prefix (&err, "%s", b->name);
      g_propagate_error (error, err);
      return FALSE;
    }
  if (*part && (*part)->len == *decoded
      && memcmp ((*part)->data, gp->data + b->offset, *decoded) == 0)
    g_clear_pointer (part, g_byte_array_unref);
  return TRUE;
}

/* Blocks sorted[first..last) share one offset (two header slots, one
 * block): the block keeps its bytes, or the edit is refused — rewriting it
 * for one slot would rewrite what the other slot reads. docs/formats/rc2-writing.md
 * ("Writing a level back", "Gameplay"). */
static gboolean
shared_block (const WkRc2Gameplay *gp, const WkRc2GameplayEdit *e,
              const WkRc2Block *const *sorted, guint first, guint last,
              GByteArray *const rec[WK_RC2_KINDS], gint32 *const map[WK_RC2_KINDS],
              WkRc2GameplayReport *rep, GError **error)
{
  for (guint k = first; k < last; k++)
    {
      g_autoptr (GByteArray) part = NULL;
      gsize decoded;
      if (!slot_part (gp, e, sorted[k], rec, map, &part, &decoded, rep, error))
        return FALSE;
      if (part)
        {
          const WkRc2Block *other = sorted[k == first ? first + 1 : first];
          wk_set_error (error, WK_ERROR_LIMIT, (gint64) sorted[k]->offset,
                        "%s: the level stores it as one block with %s, which the "
                        "edit would change too", sorted[k]->name, other->name);
          return FALSE;
        }
    }
  return TRUE;
}

static GBytes *
layout (const WkRc2Gameplay *gp, const WkRc2GameplayEdit *e,
        GByteArray *const rec[WK_RC2_KINDS], gint32 *const map[WK_RC2_KINDS],
        WkRc2GameplayReport *rep, GError **error)
{
  const WkRc2Block *sorted[WK_RC2_GAMEPLAY_SLOTS];
  guint n = 0;
  for (guint i = 0; i < WK_RC2_GAMEPLAY_SLOTS; i++)
    if (gp->blocks[i].offset)
      sorted[n++] = &gp->blocks[i];
  qsort (sorted, n, sizeof sorted[0], cmp_block);
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_byte_array_append (out, gp->data, n ? (guint) sorted[0]->offset : (guint) gp->size);
  gint32 offset_of[WK_RC2_GAMEPLAY_SLOTS] = { 0 };
  gboolean moved = FALSE;
  for (guint k = 0, last; k < n; k = last)
    {
      const WkRc2Block *b = sorted[k];
      for (last = k + 1; last < n && sorted[last]->offset == b->offset; last++)
        ;
      g_autoptr (GByteArray) part = NULL;
      gsize decoded = b->decoded;
      if (last - k > 1 ? !shared_block (gp, e, sorted, k, last, rec, map, rep, error)
                       : !slot_part (gp, e, b, rec, map, &part, &decoded, rep, error))
        return NULL;
      if (moved)
        { /* keep the block's stored alignment (up to 0x40) */
          gsize align = MIN ((gsize) 0x40, b->offset & -b->offset);
          while (out->len % align)
            g_byte_array_append (out, (const guint8 *) "\0", 1);
        }
      if (out->len > G_MAXINT32)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1, "the gameplay outgrows s32 offsets");
          return NULL;
        }
      for (guint j = k; j < last; j++)
        offset_of[sorted[j]->slot / 4] = (gint32) out->len;
      if (part)
        {
          g_byte_array_append (out, part->data, part->len);
          g_byte_array_append (out, gp->data + b->offset + decoded,
                               (guint) (b->size - decoded));
        }
      else
        g_byte_array_append (out, gp->data + b->offset, (guint) b->size);
      moved = moved || part || out->len != b->offset + b->size;
    }
  for (guint i = 0; i < WK_RC2_GAMEPLAY_SLOTS; i++)
    put32 (out->data + 4 * i, (guint32) offset_of[i]);
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

GBytes *
wk_rc2_gameplay_write (const WkRc2Gameplay *gp, const WkRc2GameplayEdit *e,
                       WkRc2GameplayReport *rep, GError **error)
{
  memset (rep, 0, sizeof *rep);
  GByteArray *rec[WK_RC2_KINDS] = { NULL };
  gint32 *map[WK_RC2_KINDS] = { NULL };
  GBytes *result = NULL;
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      const WkRc2InstanceEdit *ed = e->inst[k];
      if (ed == NULL)
        continue;
      const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[k];
      if (gp->blocks[L->instance_slot / 4].offset == 0 && ed->n > 0)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1, "the level has no %s instance "
                        "block to put %u instances in", L->name, ed->n);
          goto done;
        }
      rec[k] = g_byte_array_new ();
      map[k] = g_new (gint32, MAX (gp->inst[k].count, 1));
      if (!build_records (gp, k, ed, e, rec[k], map[k], rep, error))
        goto done;
    }
  result = layout (gp, e, rec, map, rep, error);
  if (result)
    {
      gsize size;
      const guint8 *p = g_bytes_get_data (result, &size);
      g_autoptr (WkRc2Gameplay) check = wk_rc2_gameplay_parse (p, size, error);
      if (check == NULL)
        {
          wk_error_prefix (error, "the rewritten gameplay does not read back");
          g_clear_pointer (&result, g_bytes_unref);
        }
    }
done:
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      if (rec[k])
        g_byte_array_unref (rec[k]);
      g_free (map[k]);
    }
  return result;
}

GBytes *
wk_rc2_gameplay_empty (const guint8 *tail, gsize size)
{
  guint8 *out = g_malloc0 (WK_RC2_GAMEPLAY_HEADER + size);
  if (size)
    memcpy (out + WK_RC2_GAMEPLAY_HEADER, tail, size);
  return g_bytes_new_take (out, WK_RC2_GAMEPLAY_HEADER + size);
}

GBytes *
wk_rc2_gameplay_skeleton (const guint8 *tail, gsize size)
{
  /* {slot, bytes of the empty block}: the decoded settings (fields, one
   * chunk-plane record, core sound count), then per kind in Wrench's
   * order (moby, tie, shrub) a class list (its count) and an instance
   * block (its 16-byte header) */
  guint slot[7], bytes[7], n = 0;
  slot[n] = SLOT_SETTINGS;
  bytes[n++] = WK_RC2_SETTINGS_FIRST + WK_RC2_CHUNK_PLANE + 4;
  static const WkRc2Kind order[] = { WK_RC2_MOBY, WK_RC2_TIE, WK_RC2_SHRUB };
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      slot[n] = wk_rc2_instance_layouts[order[k]].class_slot;
      bytes[n++] = 4;
      slot[n] = wk_rc2_instance_layouts[order[k]].instance_slot;
      bytes[n++] = 16;
    }
  GByteArray *out = g_byte_array_new ();
  g_byte_array_set_size (out, WK_RC2_GAMEPLAY_HEADER);
  memset (out->data, 0, out->len);
  g_byte_array_append (out, tail, (guint) size);
  for (guint i = 0; i < n; i++)
    {
      while (out->len % 16)
        g_byte_array_append (out, (const guint8 *) "\0", 1);
      put32 (out->data + slot[i], out->len);
      guint at = out->len;
      g_byte_array_set_size (out, at + bytes[i]);
      memset (out->data + at, 0, bytes[i]);
    }
  while (out->len % 16)
    g_byte_array_append (out, (const guint8 *) "\0", 1);
  return g_byte_array_free_to_bytes (out);
}
