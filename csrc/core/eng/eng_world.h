/* ENG coordinate spaces and the whole level as one mesh.
 * Spec: eng-level-geometry.md §2, §3 "UVs", §5.
 *
 * Export space: as TRAK/STPC vertices and MAP A are stored (y up, grid at
 * z ≤ 0). Game space: MAP B and collision, (x, y, -z), 20.12 fixed point.
 * File space = game space in floats. Export ↔ file: negate z and reverse
 * the corner order, first corner kept: (0,1,2) ↔ (0,2,1). */
#pragma once
#include <glib.h>
#include <math.h>

#include "eng_map.h"
#include "eng_model.h"
#include "eng_uv.h"

G_BEGIN_DECLS

typedef enum {
  WK_ENG_SPACE_FILE = 0,
  WK_ENG_SPACE_EXPORT = 1,
} WkEngSpace;

/* Corner k of a stored triangle in the given space's order. */
static inline guint
wk_eng_corner (WkEngSpace space, guint k)
{
  static const guint file_order[3] = { 0, 2, 1 };
  return space == WK_ENG_SPACE_FILE ? file_order[k] : k;
}

/* Model arrays in a space: positions and normals n_verts×3, triangles
 * n_faces×3 (vertex indices in that space's corner order). */
void wk_eng_model_positions (const WkEngModel *m, WkEngSpace space, gfloat *out);
void wk_eng_model_normals (const WkEngModel *m, WkEngSpace space, gfloat *out);
void wk_eng_model_triangles (const WkEngModel *m, WkEngSpace space, guint32 *out);

/* cos and sin of a tile rotation ry (4096 = a full turn). Exact 0/±1 at
 * the quarter turns, as the engine's integer sine table has them: cos(π/2)
 * in doubles is 6e-17, which put points on a cell line at -1e-16 and so
 * into the cell before it (issue 14). */
static inline void
wk_eng_rot_cos_sin (gint32 ry, double *c, double *s)
{
  static const double q[4][2] = { { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
  if ((ry & 1023) == 0)
    {
      *c = q[(ry >> 10) & 3][0];
      *s = q[(ry >> 10) & 3][1];
      return;
    }
  const double a = (double) ry / 4096.0 * 2.0 * G_PI;
  *c = cos (a);
  *s = sin (a);
}

/* Tile transform of a model-local export-space point v by a tile's B record
 * {rx ry rz x y z}: a = ry/4096·2π, X = x + vx·cos a − vz·sin a,
 * Y = y + vy, Z = z + vx·sin a + vz·cos a with (x, y, z) = (Bx, By, −Bz)/4096.
 * The result is in the given space. */
void wk_eng_tile_point (const gint32 b[6], const gfloat v[3], WkEngSpace space,
                        gfloat out[3]);

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
