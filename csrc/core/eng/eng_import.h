/* ENG write path: any triangle mesh (+ optional collision mesh) in file
 * space → tile models, one per grid cell, and the MAP tile part.
 * docs/formats/eng.md "Writing new geometry" (what must be consistent),
 * "MAP tile part", "Model format (TRAK and STPC)". */
#pragma once
#include <glib.h>

#include "eng_map.h"
#include "eng_model.h"
#include "eng_tex_fit.h"
#include "eng_uv.h"

G_BEGIN_DECLS

#define WK_ENG_MAX_MODEL_VERTS 8000   /* transform buffer (eng.md "Limits") */
#define WK_ENG_MAX_BATCH_FACES 256    /* bit 0x8 at the latest every 256 */
#define WK_ENG_MAX_BATCH_VERTS 4800   /* batch output buffer (eng.md "Limits") */
#define WK_ENG_MAX_GRID 1024          /* [assumed] sanity bound on W, H */
#define WK_ENG_MAX_COORD 500000       /* |y|·4096 must fit the i32 of MAP B */

typedef struct {
  gsize n_verts;
  const gfloat *positions;      /* V×3, file space */
  gsize n_tris;
  const guint32 *triangles;     /* T×3 */
  const gfloat *uv;             /* T×3×2 per corner (U right, V down) */
  const gint32 *texture;        /* T: texture-table entry (material) */
  const gfloat *color;          /* T×3×4 or NULL (grey 0x80) */
  const guint16 *face_flags;    /* T or NULL: bits other than UV/batch kept */
  gsize n_cverts;               /* collision mesh, or 0 polygons: from render */
  const gfloat *c_positions;    /* CV×3, file space */
  gsize n_cpolys;
  const gint32 *c_polygons;     /* P×4 corner indices, [3] = -1 for triangles */
  const guint8 *c_material;     /* P or NULL (material 0) */
  const WkEngTexEntry *entries; /* the texture table, or NULL */
  guint n_entries;
  gboolean allow_new_entries;   /* else: nearest entry on the same page */
  /* Not NULL: fit against this (a table that grows over several calls,
   * the edit API); its new entries stay there, imp->new_entries is empty.
   * entries must then be the fitter's table too. */
  WkEngTexFit *fit;
} WkEngMeshIn;

typedef struct {
  GPtrArray *models;            /* WkEngModel (owning), one per used cell */
  GArray *cell_x, *cell_z;      /* guint32 per model */
  GArray *y;                    /* gfloat tile height per model (k/16) */
  GByteArray *colors;           /* per model nVerts × 4 bytes, in order */
  GArray *new_entries;          /* WkEngTexEntry appended to the table */
  guint dropped_degenerate;     /* render triangles dropped */
  guint dropped_coll;           /* degenerate collision polygons dropped */
  guint uv_inexact;             /* UVs that are not half a rectangle */
  guint uv_nearest;             /* no matching entry: nearest one used */
  guint n_coll_records;         /* records written (a polygon per cell) */
  guint coll_split;             /* quads the encoder refused, written as 2 triangles */
} WkEngImport;

void wk_eng_import_free (WkEngImport *imp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngImport, wk_eng_import_free)

/* Split, convert, fit UVs, encode collision, check every limit
 * (WK_ERROR_LIMIT naming the cell/triangle and the limit). */
WkEngImport *wk_eng_import_mesh (const WkEngMeshIn *in, GError **error);

/* The new MAP payload and TRAK model list from a base level and an import.
 * keep_tiles: old tiles and models stay, the new ones are appended;
 * otherwise they replace all tiles (anim flags 0, tile-swap block empty).
 * zones_flat: grid all zone 0, zone 0 sees everything; else kept (cells a
 * grown grid adds get zone 0). *trak_models: non-owning list for
 * wk_eng_trak_build. Notes (grid grown …) go to warnings. */
GBytes *wk_eng_import_map (const WkEngMap *base, const GPtrArray *base_models,
                           const WkEngImport *imp, gboolean keep_tiles,
                           gboolean zones_flat, GPtrArray **trak_models,
                           GPtrArray *warnings, GError **error);

G_END_DECLS
