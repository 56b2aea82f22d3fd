/* The state of an ENG edit, shared by eng_edit.c (tiles, colours, meshes),
 * eng_edit_model.c (models) and eng_edit_build.c (the written chunks).
 * Not a public header. */
#pragma once
#include "eng_edit.h"

G_BEGIN_DECLS

/* A collision polygon new in this edit, kept in its model's local game
 * space so the build can enter it into the other cells it covers. */
typedef struct {
  guint n;
  double c[4][3];
  guint8 material;
  guint8 raw[32];             /* its record in the model */
} WkEngSpillPoly;

typedef struct {
  WkEngModel *m;
  gboolean owned;             /* made by this edit, freed with it */
  GArray *spill;              /* WkEngSpillPoly, or NULL */
  gchar *name;                /* the object its collision came from */
} WkEngEditModel;

typedef struct {
  WkEngTileA a;
  gint32 b[6];
  guint32 model;
  gint32 swap;                /* its tile-swap entry, or -1 */
  gboolean deleted;
  guint32 base;               /* source tile, or G_MAXUINT32 for added tiles */
  GBytes *colors;             /* NULL: the source tile's block */
  guint32 sets;
  guint32 nv;                 /* vertices the colour block is for */
} WkEngEditTile;

struct _WkEngEdit {
  GBytes *trak_src, *map_src; /* the source payloads */
  GPtrArray *base_models;     /* WkEngModel, owning (views into trak) */
  WkEngMap *map;              /* the source MAP (views into map) */
  GArray *models;             /* WkEngEditModel, index = model index */
  GArray *tiles;              /* WkEngEditTile */
  WkEngSwap *swaps;           /* map->n_swaps, editable copy */
  WkEngTexEntry *entries;     /* copy of the table (the fitter views it) */
  WkEngTexFit fit;
  gboolean zones_flat;
  GPtrArray *warnings;
};

void wk_eng_edit_model_clear (WkEngEditModel *m);

/* The tile, or NULL with an ARGUMENT error naming it (deleted / unknown). */
WkEngEditTile *wk_eng_edit_live_tile (const WkEngEdit *e, guint tile,
                                      const char *what, GError **error);
/* Give tile t model index m (frees nothing). */
void wk_eng_edit_retarget (WkEngEdit *e, WkEngEditTile *t, guint32 m);
/* ARGUMENT error unless c (NULL or data NULL: none) holds 1..255 sets of
 * nv vertices. */
gboolean wk_eng_edit_check_colors (const WkEngColors *c, guint nv, const char *name,
                                   guint tile, GError **error);
/* Make a colour block for nv vertices (c NULL or c->data NULL: grey). */
GBytes *wk_eng_edit_color_block (const WkEngColors *c, guint nv, guint *sets);
/* Swap model_a/model_b references to model m, by live tiles. */
gboolean wk_eng_edit_model_in_swaps (const WkEngEdit *e, guint32 m,
                                     const guint32 *tiles, guint n_tiles);

/* [assumed] The group (0, 1, 2 = A, B, C) of a record this edit encodes,
 * by its quantised surface ny (×127, byte 3): floors, ceilings, walls — the
 * names the public Croc 2 project gives the three counts. */
#define WK_ENG_EDIT_FLOOR_NY 64
static inline guint
wk_eng_edit_group_of (const guint8 *raw)
{
  gint8 ny = (gint8) raw[3];
  return ny >= WK_ENG_EDIT_FLOOR_NY ? 0 : ny <= -WK_ENG_EDIT_FLOOR_NY ? 1 : 2;
}

/* Error decorations: the object name, tile and model. */
void wk_eng_edit_error (GError **error, const char *name, gint64 tile,
                        gint64 model);

G_END_DECLS
