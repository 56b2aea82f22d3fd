#include "eng_tex_fit.h"

#include <math.h>

#include "../common/wk_error.h"
#include "eng_uv_fit.h"

#define UV_BITS (WK_ENG_FACE_QUAD | WK_ENG_FACE_SECOND | WK_ENG_FACE_MIRROR_U)

static guint64
entry_key (const WkEngTexEntry *e)
{
  guint8 raw[8];
  wk_eng_tex_entry_encode (e, raw);
  guint64 k;
  memcpy (&k, raw, 8);
  return k;
}

static void
index_add (WkEngTexFit *f, const WkEngTexEntry *e, guint i)
{
  guint64 key = entry_key (e);
  if (!g_hash_table_contains (f->index, &key))
    g_hash_table_insert (f->index, g_memdup2 (&key, sizeof key),
                         GUINT_TO_POINTER (i + 1));
}

void
wk_eng_tex_fit_init (WkEngTexFit *f, const WkEngTexEntry *entries,
                     guint n_entries, gboolean allow_new)
{
  memset (f, 0, sizeof *f);
  f->entries = entries;
  f->n_entries = entries ? n_entries : 0;
  f->allow_new = allow_new && entries != NULL;
  f->new_entries = g_array_new (FALSE, FALSE, sizeof (WkEngTexEntry));
  f->index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  for (guint i = 0; i < f->n_entries; i++)
    index_add (f, &entries[i], i);
}

void
wk_eng_tex_fit_clear (WkEngTexFit *f)
{
  g_clear_pointer (&f->new_entries, g_array_unref);
  g_clear_pointer (&f->index, g_hash_table_unref);
}

guint
wk_eng_tex_fit_size (const WkEngTexFit *f)
{
  return f->n_entries + f->new_entries->len;
}

const WkEngTexEntry *
wk_eng_tex_fit_entry (const WkEngTexFit *f, guint i)
{
  if (f->entries == NULL)
    return NULL;
  if (i < f->n_entries)
    return &f->entries[i];
  if (i - f->n_entries < f->new_entries->len)
    return &g_array_index (f->new_entries, WkEngTexEntry, i - f->n_entries);
  return NULL;
}

static void
note_error (WkEngTexFit *f, gfloat err)
{
  if (isfinite (err))
    f->max_error = MAX (f->max_error, err);
}

gboolean
wk_eng_tex_fit_face (WkEngTexFit *f, const gfloat uv[3][2], guint want,
                     guint16 given, gboolean has_given, guint16 *tex,
                     guint16 *uv_flags, GError **error)
{
  const WkEngTexEntry *base = wk_eng_tex_fit_entry (f, want);
  const gboolean flat = base != NULL && (base->flags & WK_ENG_TEX_FLAT);
  if (flat && has_given)
    {
      /* UVs mean nothing on a flat colour: keep the face's own corner bits */
      *tex = (guint16) want;
      *uv_flags = given & UV_BITS;
      return TRUE;
    }
  if (base != NULL && has_given)
    {
      gfloat err = wk_eng_uv_error (uv, base, given & UV_BITS);
      if (err <= 0.5f)
        {
          *tex = (guint16) want;
          *uv_flags = given & UV_BITS;
          note_error (f, err);
          return TRUE;
        }
    }
  WkEngUvFit fit;
  wk_eng_uv_fit (uv, &fit);
  *uv_flags = fit.flags;
  if (flat)
    {
      *tex = (guint16) want;  /* the corner bits of the fit, nothing counted */
      return TRUE;
    }
  if (fit.error > 0.5f)
    f->uv_inexact++;
  if (base == NULL)
    {
      *tex = (guint16) want;   /* no table: any index, the unit rectangle */
      note_error (f, fit.error);
      return TRUE;
    }
  f->fitted++;
  WkEngTexEntry e = *base;
  e.u0 = fit.u0;
  e.u1 = fit.u1;
  e.v0 = fit.v0;
  e.v1 = fit.v1;
  gpointer hit = g_hash_table_lookup (f->index, &(guint64){ entry_key (&e) });
  if (hit != NULL)
    {
      *tex = (guint16) (GPOINTER_TO_UINT (hit) - 1);
      note_error (f, fit.error);
      return TRUE;
    }
  if (!f->allow_new)
    {
      /* nearest existing entry on the same page with the same state */
      static const guint16 pats[6] = { 0x800, 0x810, 0x820, 0x830, 0, 0x20 };
      gfloat best = INFINITY;
      guint best_i = want;
      guint16 best_flags = fit.flags;
      for (guint i = 0; i < wk_eng_tex_fit_size (f); i++)
        {
          const WkEngTexEntry *c = wk_eng_tex_fit_entry (f, i);
          if (c->page != base->page || c->flags != base->flags)
            continue;
          for (guint p = 0; p < 6; p++)
            {
              gfloat err = wk_eng_uv_error (uv, c, pats[p]);
              if (err < best)
                {
                  best = err;
                  best_i = i;
                  best_flags = pats[p];
                }
            }
        }
      f->uv_nearest++;
      *tex = (guint16) best_i;
      *uv_flags = best_flags;
      note_error (f, best);
      return TRUE;
    }
  guint index = wk_eng_tex_fit_size (f);
  if (index > G_MAXUINT16)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "the texture table would need more than 65536 entries "
                    "(u16 face texture index)");
      return FALSE;
    }
  wk_eng_tex_fit_add (f, &e);
  *tex = (guint16) index;
  note_error (f, fit.error);
  return TRUE;
}

guint
wk_eng_tex_fit_add (WkEngTexFit *f, const WkEngTexEntry *e)
{
  guint index = wk_eng_tex_fit_size (f);
  g_array_append_val (f->new_entries, *e);
  index_add (f, e, index);
  return index;
}

void
wk_eng_tex_fit_mark (const WkEngTexFit *f, WkEngTexFitMark *mark)
{
  *mark = (WkEngTexFitMark) { wk_eng_tex_fit_size (f), f->uv_inexact,
                              f->uv_nearest, f->fitted, f->max_error };
}

static gboolean
added_after (gpointer key, gpointer value, gpointer size)
{
  return GPOINTER_TO_UINT (value) - 1 >= GPOINTER_TO_UINT (size);
}

void
wk_eng_tex_fit_rollback (WkEngTexFit *f, const WkEngTexFitMark *mark)
{
  if (wk_eng_tex_fit_size (f) > mark->size)
    {
      g_hash_table_foreach_remove (f->index, added_after,
                                   GUINT_TO_POINTER (mark->size));
      g_array_set_size (f->new_entries, mark->size - f->n_entries);
    }
  f->uv_inexact = mark->uv_inexact;
  f->uv_nearest = mark->uv_nearest;
  f->fitted = mark->fitted;
  f->max_error = mark->max_error;
}
