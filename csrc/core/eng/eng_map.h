/* ENG MAP chunk, the tile part (docs/formats/eng.md "MAP tile part"), in file order:
 *   u32 N, W, H;  A: N × {f32 x y z, u32 rot, u32 model, u32 animFlag}
 *   (export space);  u32 n + n×u32;  u32 n + n×90;  u32 n + n×34;
 *   zone table 32 × {u32 mask, i32 height};  zone grid W·H × u32;
 *   B: N × {i32 rx ry rz x y z} (20.12 fixed point, game space);
 *   N × u32 model index;  if WFPC & 0x10000: u32 n + n × {u32 cellX, y,
 *   cellZ, modelA, modelB};  per tile the vertex colours: nVerts(model) ×
 *   4 bytes R,G,B,A — byte 3 of the first entry is the number of sets (0/1 =
 *   one) — and for a tile with a swap entry the same for modelB;
 *   the rest of MAP (strats, paths …) kept opaque.
 * Everything between the parts the geometry uses is kept as exact bytes. */
#pragma once
#include <glib.h>

#include "eng_model.h"

G_BEGIN_DECLS

#define WK_ENG_WFPC_SWAPS 0x10000u  /* MAP holds the tile-swap block */
#define WK_ENG_ZONES 32

typedef struct {
  gfloat x, y, z;       /* export space */
  guint32 rot, model, anim;
} WkEngTileA;

typedef struct {
  guint32 cell_x, y, cell_z, model_a, model_b;
} WkEngSwap;

typedef struct {
  guint32 n, w, h;
  gboolean has_swaps;        /* WFPC & 0x10000 when parsed */
  WkEngTileA *a;             /* n */
  GBytes *lists;             /* the three lists between A and the zones, exact */
  guint32 zone_table[WK_ENG_ZONES * 2]; /* mask, height pairs */
  guint32 *zone_grid;        /* w·h */
  gint32 (*b)[6];            /* n × rx ry rz x y z */
  guint32 *model;            /* n model indices */
  guint32 n_swaps;
  WkEngSwap *swaps;
  gint32 *swap_of_tile;      /* n: swap entry of the tile, or -1 */
  /* Colours: all entries, 4 bytes each, in file order. */
  guint32 n_colors;
  guint8 *colors;            /* read-only when backing is set */
  guint32 *col_start, *col_sets;   /* n: first entry, sets (modelA) */
  guint32 *colb_start, *colb_sets; /* n: the same for modelB (sets 0: none) */
  GBytes *rest;              /* everything after the colours, exact */
  gint32 *cell;              /* n: cell index x + z·W from A (computed) */
  GPtrArray *warnings;       /* A/B disagreement, zone numbers ≥ 32 … */
  GBytes *backing;           /* not NULL: colors is a view into it */
} WkEngMap;

/* Parse the tile part. models: the TRAK models (for the colour counts). */
WkEngMap *wk_eng_map_parse (const guint8 *data, gsize size, gint64 base,
                            guint32 wfpc, const GPtrArray *models,
                            GError **error);
/* The same over bytes that cannot change: the colours, the lists and the
 * rest are views into them (a reference is kept). */
WkEngMap *wk_eng_map_parse_bytes (GBytes *bytes, gint64 base, guint32 wfpc,
                                  const GPtrArray *models, GError **error);
/* backing: NULL to copy, or the GBytes that data lies in. */
WkEngMap *wk_eng_map_parse_in (const guint8 *data, gsize size, GBytes *backing,
                               gint64 base, guint32 wfpc,
                               const GPtrArray *models, GError **error);
void wk_eng_map_free (WkEngMap *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngMap, wk_eng_map_free)

/* Cell of a tile from its A position, as the loader sorts it:
 * ftol(x - 0.5) - ftol(z + 0.5)·W (ftol truncates). -1 when outside. */
gint64 wk_eng_tile_cell (const WkEngTileA *a, guint32 w, guint32 h);

/* Colour sets given byte 3 of the first entry. */
static inline guint32 wk_eng_color_sets (guint8 byte3) { return byte3 < 2 ? 1 : byte3; }

/* Build the MAP payload from the fields (the write path's "MAP tile part
 * from tiles"; the lists and the rest are written back as kept). The colour
 * blocks must match nVerts of the models. */
GBytes *wk_eng_map_build (const WkEngMap *m, const GPtrArray *models,
                          GError **error);

G_END_DECLS
