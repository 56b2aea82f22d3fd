/* The whole ENG level as one mesh: every tile's model placed by its MAP B
 * record (eng_space.h) with UVs and vertex colours.
 * docs/formats/eng.md "World mesh", "Coordinate spaces". */
#pragma once
#include <glib.h>

#include "eng_map.h"
#include "eng_model.h"
#include "eng_space.h"
#include "eng_uv.h"

G_BEGIN_DECLS

typedef struct {
  gfloat *positions;   /* V×3 */
  guint32 *triangles;  /* T×3 */
  gfloat *uv;          /* T×3×2 */
  gfloat *color;       /* T×3×4 */
  gint32 *texture;     /* T: the face's texture-table entry */
  gint32 *page;        /* T: the entry's page; -1 flat colour or no table */
  guint16 *face_flags; /* T */
  gint32 *tile;        /* T */
} WkEngMeshOut;

/* Upper bound on the world mesh's vertices and triangles [assumed: ~140×
 * the largest original level; keeps the arrays under ~0.5 GB]. */
#define WK_ENG_WORLD_MAX (4u << 20)

/* Sizes of the world mesh: the vertices and faces of every tile whose model
 * has faces. FormatError when they pass WK_ENG_WORLD_MAX. */
gboolean wk_eng_world_mesh_size (const GPtrArray *models, const WkEngMap *map,
                                 gsize *n_verts, gsize *n_tris, GError **error);

/* Fill caller-allocated arrays. entries: the texture table (NULL: every face
 * gets the unit rectangle). color_set: which vertex-colour set (falls back to
 * set 0 where a tile has fewer). Colours: byte/128 clamped to 1, alpha 1;
 * faces with 0x4000 are white. Flat-colour entries get page -1 (their RGB is
 * in the table: a material colour, not mixed into the vertex colours). */
gboolean wk_eng_world_mesh_fill (const GPtrArray *models, const WkEngMap *map,
                                 const WkEngTexEntry *entries, guint n_entries,
                                 WkEngSpace space, guint color_set,
                                 const WkEngMeshOut *out, GError **error);

G_END_DECLS
