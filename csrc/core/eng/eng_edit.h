/* ENG level edits, applied as the engine stores a level (the patch path of
 * issue 14): a level's tiles and models are edited one by one and written
 * back so that every untouched model and MAP record keeps its bytes.
 * docs/formats/eng.md "Editing a level in place".
 *
 * Tiles are numbered as in the source level, added tiles after them (the
 * edit's numbering; deleted tiles keep their number until the build). Model
 * indices never change: a rewritten model keeps its index, new models are
 * appended. All coordinates are file space (= game space: y up). Every
 * operation checks everything before it changes anything: on error the
 * edit is as it was. LIMIT errors carry the tile, model, vertex and the
 * caller's object name (wk_error_locate / wk_error_set_object). */
#pragma once
#include <glib.h>

#include "eng_import.h"
#include "eng_map.h"
#include "eng_model.h"
#include "eng_tex_fit.h"

G_BEGIN_DECLS

#define WK_ENG_EDIT_MAX_COORD 4096.0 /* |position| of a placed tile [assumed]:
                                        k/4096 stays exact in MAP A's f32 */

typedef struct _WkEngEdit WkEngEdit;

/* Parse TRAK and MAP (views into the bytes) and start an empty edit.
 * entries: the level's texture table (NULL: none; then faces keep any
 * index and show the unit rectangle); allow_new_entries: a UV rectangle
 * the table lacks becomes a new entry (else the nearest one is used). */
WkEngEdit *wk_eng_edit_new (GBytes *trak, gint64 trak_base, GBytes *map,
                            gint64 map_base, guint32 wfpc,
                            const WkEngTexEntry *entries, guint n_entries,
                            gboolean allow_new_entries, GError **error);
void wk_eng_edit_free (WkEngEdit *e);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngEdit, wk_eng_edit_free)

guint wk_eng_edit_n_tiles (const WkEngEdit *e);   /* incl. deleted ones */
guint wk_eng_edit_n_models (const WkEngEdit *e);
guint wk_eng_edit_n_base_tiles (const WkEngEdit *e);
/* The tile's model now; -1 when the tile is deleted or out of range. */
gint64 wk_eng_edit_tile_model (const WkEngEdit *e, guint tile);
guint wk_eng_edit_model_verts (const WkEngEdit *e, guint model);
/* The tile's vertex colours now: sets × nVerts × 4 bytes (a view valid
 * until the next edit). NULL for a deleted or unknown tile. */
const guint8 *wk_eng_edit_tile_colors (const WkEngEdit *e, guint tile,
                                       guint *sets, guint *n_verts);

/* A tile's vertex colours: sets × n_verts × {R, G, B, byte 3}, sets 1..255
 * given by the size. Byte 3 of the first entry is written as the set count
 * (0 for one set). */
typedef struct {
  const guint8 *data;  /* NULL: keep the tile's colours (same vertex
                          count), else grey 0x80, one set, and a warning */
  gsize size;          /* bytes */
} WkEngColors;

typedef struct {
  const char *name;           /* the caller's object, for errors/warnings */
  guint n_tiles;
  const guint32 *tiles;       /* tiles that share the new geometry */
  gsize n_verts;
  const gfloat *positions;    /* V×3 tile-local, unrotated */
  gsize n_tris;
  const guint32 *triangles;   /* T×3 file corner order */
  const gfloat *uv;           /* T×3×2 per corner */
  const gint32 *texture;      /* T texture-table entries */
  const guint16 *face_flags;  /* T, or NULL (0) */
  const WkEngColors *colors;  /* n_tiles, or NULL (keep/grey) */
} WkEngGeomEdit;

typedef struct {
  guint model;                /* the tiles' model now */
  gboolean in_place;          /* that model index was rewritten */
  guint uv_fitted;            /* faces whose entry/corner flags the fit chose */
  gfloat uv_max_error;        /* texels */
  guint uv_inexact, uv_nearest;
  guint grey_tiles;           /* tiles given grey colours */
} WkEngEditResult;

gboolean wk_eng_edit_set_geometry (WkEngEdit *e, const WkEngGeomEdit *in,
                                   WkEngEditResult *out, GError **error);

typedef struct {
  const char *name;
  guint n_tiles;
  const guint32 *tiles;
  gsize n_verts;
  const gfloat *positions;    /* V×3 tile-local (game = file space) */
  gsize n_polys;
  const gint32 *polygons;     /* P×4 corner indices, [3] = -1: triangle */
  const guint8 *material;     /* P, or NULL (0) */
} WkEngCollEdit;

typedef struct {
  guint model;
  gboolean in_place;
  guint kept;                 /* records kept byte for byte (unchanged) */
  guint encoded;              /* records encoded from the polygons */
  guint split;                /* quads written as two triangles */
  guint dropped;              /* degenerate polygons left out */
  guint groups[3];            /* records in groups A, B, C */
} WkEngEditCollResult;

gboolean wk_eng_edit_set_collision (WkEngEdit *e, const WkEngCollEdit *in,
                                    WkEngEditCollResult *out, GError **error);

gboolean wk_eng_edit_set_colors (WkEngEdit *e, guint tile, const WkEngColors *c,
                                 const char *name, GError **error);
/* Position (file space) and rotation 0..4095 of a tile; its model stays. */
gboolean wk_eng_edit_place_tile (WkEngEdit *e, guint tile, const double pos[3],
                                 guint32 rot, const char *name, GError **error);
gboolean wk_eng_edit_delete_tile (WkEngEdit *e, guint tile, const char *name,
                                  GError **error);
gboolean wk_eng_edit_add_tile (WkEngEdit *e, guint model, const double pos[3],
                               guint32 rot, const WkEngColors *c,
                               const char *name, guint *tile, GError **error);

typedef struct {
  guint first_tile, n_tiles;  /* the new tiles (edit numbering) */
  guint first_model, n_models;
  guint dropped_degenerate, dropped_collision, collision_split;
  guint uv_inexact, uv_nearest;
  guint uv_fitted;            /* faces whose entry/corner flags the fit chose */
  gfloat uv_max_error;        /* texels: the largest distance of a fitted UV */
} WkEngEditMeshResult;

/* A world-space mesh through the write path's cell split (wk_eng_import_mesh;
 * in->entries/fit are set here) into new tiles and models. The cells must
 * lie in the level's grid. zones_flat: at the build, every cell zone 0 and
 * zone 0 sees all zones. */
gboolean wk_eng_edit_add_mesh (WkEngEdit *e, WkEngMeshIn *in, gboolean zones_flat,
                               const char *name, WkEngEditMeshResult *out,
                               GError **error);

/* A flat-colour entry (an existing one with this colour, else appended);
 * LIMIT error when the table cannot grow. */
gboolean wk_eng_edit_flat_entry (WkEngEdit *e, const guint8 rgb[3], guint *index,
                                 GError **error);

typedef struct {
  GBytes *trak, *map;
  gboolean trak_same, map_same; /* byte-identical to the source payloads */
  GArray *new_entries;        /* WkEngTexEntry to append to the table */
  GArray *tile_index;         /* gint32 per edit tile: its new index, -1 deleted */
  GArray *rewritten;          /* guint32 source model indices rewritten */
  guint n_tiles, n_models, n_base_models;
  guint spill_tiles;          /* collision-only tiles made for changed records */
  guint spill_records;
  GPtrArray *warnings;        /* notes of the edit and the build */
} WkEngEditOut;

void wk_eng_edit_out_free (WkEngEditOut *o);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngEditOut, wk_eng_edit_out_free)

/* TRAK and MAP payloads of the edited level. Does not change the edit. */
WkEngEditOut *wk_eng_edit_build (const WkEngEdit *e, GError **error);

G_END_DECLS
