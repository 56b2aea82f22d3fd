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

/* A tile's vertex colour bytes (n entries of R, G, B, byte 3) as the world
 * mesh shows them: byte/128 clamped to 1 (the game doubles and clamps),
 * alpha 1. */
void wk_eng_colors_to_display (const guint8 *bytes, gsize n, gfloat *rgba);

/* Vertex colours as the world mesh shows them (display values: byte/128
 * clamped to 1, alpha 1) back to a tile's bytes, n entries of 4: a channel
 * whose display value is still what its current byte shows (within half
 * a step, 1/256) keeps its byte, so values above 0x80 survive; others
 * become round(c·128) clamped to 0..255. Byte 3 (the set count in a
 * tile's first entry) is always kept from cur. */
void wk_eng_colors_from_display (const gfloat *rgba, const guint8 *cur, gsize n,
                                 guint8 *out);

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
