/* ENG coordinate spaces, and every conversion between them (eng_space.c):
 * the one place that knows which way z points, which corner order a space
 * uses and the 20.12 fixed point. docs/formats/eng.md "Coordinate spaces".
 *
 * Export space: as the TRAK/STPC vertices, normals, face planes and boxes
 * and MAP A are stored (y up, the grid at z <= 0). Game space: MAP B and the
 * collision records, (x, y, -z); B in 20.12 fixed point. File space is game
 * space in floats (the name the API uses). Export <-> file: negate z and
 * reverse the corner order after the first corner: (0,1,2) <-> (0,2,1),
 * (0,1,2,3) <-> (0,3,2,1). */
#pragma once
#include <glib.h>
#include <math.h>

#include "eng_map.h"
#include "eng_model.h"

G_BEGIN_DECLS

typedef enum {
  WK_ENG_SPACE_FILE = 0,   /* = game space */
  WK_ENG_SPACE_EXPORT = 1,
} WkEngSpace;

/* 20.12 fixed point: this many steps per unit (one grid cell). */
#define WK_ENG_FIXED_ONE 4096

/* A 20.12 value in units. */
static inline double
wk_eng_from_fixed (gint32 v)
{
  return v / (double) WK_ENG_FIXED_ONE;
}

/* Units to the nearest 20.12 step; FALSE when it leaves the i32 range. */
static inline gboolean
wk_eng_to_fixed (double units, gint32 *out)
{
  const double r = round (units * WK_ENG_FIXED_ONE);
  if (!(r >= G_MININT32 && r <= G_MAXINT32))
    return FALSE;
  *out = (gint32) r;
  return TRUE;
}

/* "file" (or "game") or "export"; FALSE for anything else. */
gboolean wk_eng_space_parse (const char *name, WkEngSpace *out);

/* The factor that takes a z stored in export space (vertices, planes,
 * boxes, MAP A) into `space`. */
static inline gfloat
wk_eng_z_from_export (WkEngSpace space)
{
  return space == WK_ENG_SPACE_FILE ? -1.0f : 1.0f;
}

/* The factor that takes a z stored in game space (MAP B, collision) into
 * `space`. */
static inline gfloat
wk_eng_z_from_game (WkEngSpace space)
{
  return space == WK_ENG_SPACE_EXPORT ? -1.0f : 1.0f;
}

/* Corner k of a stored (export-order) triangle in the space's order. */
static inline guint
wk_eng_corner (WkEngSpace space, guint k)
{
  static const guint file_order[3] = { 0, 2, 1 };
  return space == WK_ENG_SPACE_FILE ? file_order[k] : k;
}

/* Corner i of an n-corner polygon stored in game order (collision), in
 * the space's order. */
static inline guint
wk_eng_polygon_corner (WkEngSpace space, guint i, guint n)
{
  return (space == WK_ENG_SPACE_EXPORT && i > 0) ? n - i : i;
}

/* Model arrays in a space: positions and normals n_verts×3, triangles
 * n_faces×3 (vertex indices in that space's corner order), face planes
 * n_faces×4 (nx ny nz d), box 8×3 (the stored corner order) and centre 3. */
void wk_eng_model_positions (const WkEngModel *m, WkEngSpace space, gfloat *out);
void wk_eng_model_normals (const WkEngModel *m, WkEngSpace space, gfloat *out);
void wk_eng_model_triangles (const WkEngModel *m, WkEngSpace space, guint32 *out);
void wk_eng_model_planes (const WkEngModel *m, WkEngSpace space, gfloat *out);
void wk_eng_model_bounds (const WkEngModel *m, WkEngSpace space, gfloat box[24],
                          gfloat centre[3]);

/* Tile positions n×3 from MAP B (x, y, z)/4096, in a space. */
void wk_eng_tile_positions (const WkEngMap *map, WkEngSpace space, gfloat *out);

/* The tile transform of a model-local export-space point v by a tile's B
 * record {rx ry rz x y z}: a = ry/4096·2π, X = x + vx·cos a − vz·sin a,
 * Y = y + vy, Z = z + vx·sin a + vz·cos a with (x, y, z) = (Bx, By, −Bz)/4096,
 * then into `space`. WkEngTileXform holds it per tile (cos/sin once). */
typedef struct {
  double c, s, x, y, z, zsign;
} WkEngTileXform;

/* cos and sin of a tile rotation ry (4096 = a full turn). Exact 0/±1 at
 * the quarter turns, as the engine's integer sine table has them: cos(π/2)
 * in doubles is 6e-17, which put points on a cell line at -1e-16 and so
 * into the cell before it (docs/formats/eng.md "Writing new geometry"). */
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
  const double a = (double) ry / WK_ENG_FIXED_ONE * 2.0 * G_PI;
  *c = cos (a);
  *s = sin (a);
}

static inline void
wk_eng_tile_xform (const gint32 b[6], WkEngSpace space, WkEngTileXform *t)
{
  wk_eng_rot_cos_sin (b[1], &t->c, &t->s);
  t->x = b[3] / (double) WK_ENG_FIXED_ONE;
  t->y = b[4] / (double) WK_ENG_FIXED_ONE;
  /* not -b[5]: negating INT32_MIN as an int is undefined (fuzz_eng_map) */
  t->z = -(double) b[5] / WK_ENG_FIXED_ONE;
  t->zsign = wk_eng_z_from_export (space);
}

/* The same transform in game space: a tile-local game-space point l to
 * world game space by the tile's B record (z of export negated:
 * X = Bx/4096 + lx·cos a + lz·sin a, Y = By/4096 + ly,
 * Z = Bz/4096 − lx·sin a + lz·cos a). */
void wk_eng_tile_game_point (const gint32 b[6], const double l[3], double w[3]);

/* A tile's MAP records at pos (file = game space, units) turned by rot:
 * B's position becomes pos in 20.12 (rot in B's ry; B's rx and rz kept),
 * A's position is B's in export space (x, y, −z); A's model and anim
 * fields are kept. FALSE when a coordinate leaves the 20.12 range. */
gboolean wk_eng_tile_place (const double pos[3], guint32 rot, gint32 b[6],
                            WkEngTileA *a);

/* An unturned tile at the centre of cell (cx, cz) at height y (20.12) using
 * `model`: A (cx + ½, y, −(cz + ½)) and B (0, 0, 0, cx·4096 + 2048, y,
 * cz·4096 + 2048), as the write path places its tiles. */
void wk_eng_cell_tile (guint32 cx, guint32 cz, gint32 y, guint32 model,
                       WkEngTileA *a, gint32 b[6]);

/* n model vertices (the stored 6-float records) placed by the tile. */
static inline void
wk_eng_tile_points (const WkEngTileXform *t, const gfloat *restrict verts,
                    gsize n, gfloat *restrict out)
{
  for (gsize v = 0; v < n; v++, verts += 6, out += 3)
    {
      const double vx = verts[0], vz = verts[2];
      out[0] = (gfloat) (t->x + vx * t->c - vz * t->s);
      out[1] = (gfloat) (t->y + verts[1]);
      out[2] = (gfloat) (t->zsign * (t->z + vx * t->s + vz * t->c));
    }
}

G_END_DECLS
