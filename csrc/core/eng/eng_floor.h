/* The ENG engine's map floor test (groove.exe FUN_004036d0 and the part of
 * FUN_00403020 that uses its result), re-implemented bit for bit in 32-bit
 * integer arithmetic, and the "exposed needle" scan built on it.
 * docs/formats/eng-collision.md "The floor test".
 *
 * Inputs are plain arrays so this needs no chunk parser: per tile the MAP
 * floats A (x, y, z; only for the cell lists), the fixed-point B (rx, ry, rz,
 * x, y, z, 20.12, game space), the model index; per model its raw collision
 * records. Positions in and out are game space, 20.12 fixed point. */
#pragma once
#include <glib.h>

#include "eng_collision.h"

G_BEGIN_DECLS

/* Strat flag bits (strat+0xe8) the test looks at. */
#define WK_ENG_FLOOR_FLAG_MAT12   0x08000000u /* skip material 0x12, not 0x11 */
#define WK_ENG_FLOOR_FLAG_DOWN    0x00200000u /* keep planes with ny < 0 */
#define WK_ENG_FLOOR_FLAG_NOCEIL  0x00040200u /* never use the surface above */

#define WK_ENG_FLOOR_PROBE_OFFSET 0x400  /* DAT_0057dd98: feet + 0.25 */
#define WK_ENG_FLOOR_NO_FLOOR ((gint32) 0xffff0000u) /* height of "no floor" */
#define WK_ENG_MATERIAL_WATER 0x1e

typedef struct _WkEngFloorWorld WkEngFloorWorld;

/* Build a world. a_xyz: n_tiles×3 floats; b: n_tiles×6 i32; model: n_tiles;
 * coll[m], coll_size[m]: the collision records of model m. Everything is
 * copied. FORMAT errors (context "MAP tile i" / "model m collision"): a cell
 * outside W×H, a model index ≥ n_models, a non-finite A position, collision
 * data that is not whole records; ARGUMENT: W or H of 0 or W·H > 2^24. */
WkEngFloorWorld *wk_eng_floor_world_new (guint32 width, guint32 height,
                                         guint n_tiles, const gfloat *a_xyz,
                                         const gint32 *b, const guint32 *model,
                                         guint n_models,
                                         const guint8 *const *coll,
                                         const gsize *coll_size,
                                         GError **error);
void wk_eng_floor_world_free (WkEngFloorWorld *world);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngFloorWorld, wk_eng_floor_world_free)

guint32 wk_eng_floor_world_width (const WkEngFloorWorld *world);
guint32 wk_eng_floor_world_height (const WkEngFloorWorld *world);
guint wk_eng_floor_world_tiles (const WkEngFloorWorld *world);
/* Tiles in the list of cell (cx, cz), in test order; NULL/0 outside the grid. */
const guint32 *wk_eng_floor_cell (const WkEngFloorWorld *world, guint32 cx,
                                  guint32 cz, guint *n);

/* The engine's sine table entry i & 0xfff: round(4096·sin(2πi/4096)) [assumed]. */
gint32 wk_eng_sine (guint32 i);

typedef struct {
  gint32 x, y, z;        /* the strat's position, game space 20.12 */
  guint32 flags;         /* strat+0xe8 */
  gint32 probe_offset;   /* WK_ENG_FLOOR_PROBE_OFFSET normally */
  gint64 exclude_tile;   /* -1, or leave out this tile's ... */
  gint64 exclude_polygon;/* ... polygon (the needle scan's "next floor") */
} WkEngFloorProbe;

void wk_eng_floor_probe_init (WkEngFloorProbe *probe, gint32 x, gint32 y,
                              gint32 z);

typedef enum {
  WK_ENG_FLOOR_NONE,    /* nothing found */
  WK_ENG_FLOOR_FLOOR,   /* the highest passing surface at most 0.28 above the feet */
  WK_ENG_FLOOR_CEILING, /* none below: the lowest passing surface above */
  WK_ENG_FLOOR_WATER,   /* the winner has material 0x1e: "no floor" */
} WkEngFloorSource;

typedef struct {
  WkEngFloorSource source;
  gint32 height;         /* game y, 20.12; WK_ENG_FLOOR_NO_FLOOR for WATER */
  guint tile, polygon;   /* polygon counted over groups A+B+C */
  guint8 material;
  gint32 dist;           /* probe (feet + offset) above the surface, 20.12 */
} WkEngFloorHit;

typedef enum {
  WK_ENG_CAND_SKIP_MATERIAL = 1, /* material 0x11 (or 0x12 with the flag) */
  WK_ENG_CAND_SKIP_NY,           /* ny = 0, or ny < 0 without the flag */
} WkEngCandSkip;

typedef enum {
  WK_ENG_CAND_UNUSED,   /* not skipped, but neither branch looked at it */
  WK_ENG_CAND_FLOOR,    /* edge-tested as a floor */
  WK_ENG_CAND_CEILING,  /* plane > 1/32 above the probe: ceiling branch */
} WkEngCandBranch;

/* One polygon of one tile of the probe's cell, as the test saw it. */
typedef struct {
  guint tile, polygon;
  guint8 material, type;
  guint8 skip;          /* 0 or WkEngCandSkip: then nothing below is set */
  guint8 branch;        /* WkEngCandBranch */
  gboolean passed;      /* every edge value ≥ tol */
  gboolean chosen;      /* this is the returned hit */
  gint32 lx, ly, lz;    /* probe in tile-local game space (ly includes offset) */
  gint32 dist, plane_y; /* dist = -i6; plane_y = ly + i6 (local) */
  gint32 height;        /* tile y + plane_y */
  gint32 tol;
  guint n_edges;
  gint32 edge[4];       /* edge values in 1/4064 units (tested even when the
                           engine would not have, for debugging) */
} WkEngFloorCandidate;

/* Run the test. candidates (of WkEngFloorCandidate) may be NULL. */
void wk_eng_floor_test (const WkEngFloorWorld *world,
                        const WkEngFloorProbe *probe, WkEngFloorHit *hit,
                        GArray *candidates);

typedef struct {
  guint tile, polygon, corner;
  double fraction;       /* 0.3, 0.6 or 0.9 of the way to the tolerance tip */
  double point[3];       /* the sample point, world game space, units */
  double height;         /* the floor the engine gives there (this polygon) */
  double below;          /* how far below the next floor is (inf if none) */
} WkEngNeedle;

/* Exposed-needle scan over every floor polygon of every tile: an array of
 * WkEngNeedle, one per polygon instance, first qualifying sample. */
GArray *wk_eng_floor_needles (const WkEngFloorWorld *world);

G_END_DECLS
