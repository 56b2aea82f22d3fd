/* Texture entry and UV corner flags for a face's UVs, against a texture
 * table that may grow: the ONE fitter of the write path (with_geometry) and
 * the edit API. Uses the UV rules of eng_uv.h and the rectangle fit of
 * eng_uv_fit.h. docs/formats/eng.md "Writing new geometry", "Editing". */
#pragma once
#include <glib.h>

#include "eng_uv.h"

G_BEGIN_DECLS

typedef struct {
  const WkEngTexEntry *entries; /* the level's table (NULL: no table) */
  guint n_entries;
  gboolean allow_new;           /* append entries, else nearest existing */
  GArray *new_entries;          /* WkEngTexEntry appended, index n_entries + k */
  GHashTable *index;            /* entry bytes -> index + 1 */
  guint uv_inexact;             /* UVs that are not half a rectangle */
  guint uv_nearest;             /* no matching entry: nearest one used */
  guint fitted;                 /* faces whose entry/flags the fit chose */
  gfloat max_error;             /* largest UV distance, texels (256 a unit) */
} WkEngTexFit;

void wk_eng_tex_fit_init (WkEngTexFit *f, const WkEngTexEntry *entries,
                          guint n_entries, gboolean allow_new);
void wk_eng_tex_fit_clear (WkEngTexFit *f);

/* Entry i of the table or of the new entries; NULL when out of range. */
const WkEngTexEntry *wk_eng_tex_fit_entry (const WkEngTexFit *f, guint i);
/* Table size including the new entries. */
guint wk_eng_tex_fit_size (const WkEngTexFit *f);

/* Append entry e (no check); returns its index. */
guint wk_eng_tex_fit_add (WkEngTexFit *f, const WkEngTexEntry *e);

/* The fitter's state, to undo what a failed operation added. */
typedef struct {
  guint size, uv_inexact, uv_nearest, fitted;
  gfloat max_error;
} WkEngTexFitMark;
void wk_eng_tex_fit_mark (const WkEngTexFit *f, WkEngTexFitMark *mark);
void wk_eng_tex_fit_rollback (WkEngTexFit *f, const WkEngTexFitMark *mark);

/* Entry and corner flags for a face: uv per corner in STORED order, want =
 * the caller's entry (< wk_eng_tex_fit_size), given = the face's own flags
 * (has_given: they are known). When the wanted entry with the given corner
 * flags already shows these UVs (within half a texel) both are kept;
 * otherwise the fit chooses (counted in ->fitted). Flat-colour entries keep
 * the given corner bits. LIMIT error past 65536 entries. */
gboolean wk_eng_tex_fit_face (WkEngTexFit *f, const gfloat uv[3][2], guint want,
                              guint16 given, gboolean has_given, guint16 *tex,
                              guint16 *uv_flags, GError **error);

G_END_DECLS
