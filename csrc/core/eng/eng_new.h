/* A new, minimal ENG level WAD from parts: INFO, WFPC, TEXT (palettes,
 * pages of the three kinds, texture table), TRAK (no models), STPC (object
 * models, no animations), MAP (no tiles, zones, empty strat tail), END.
 * The terrain then goes in with the write path (eng_import.c). See
 * docs/samples.md and docs/formats/eng.md. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint32 index;          /* the record's first u32 (meaning unknown) */
  guint32 count;          /* colours, 1..65536 */
  const guint8 *rgba;     /* count × 4; alpha 0 -> transparent 0 */
} WkEngNewPalette;

typedef struct {
  guint32 flags;          /* 0: pal8; & 0x80: rle16; else rgb16 */
  guint32 width, height;  /* 1..WK_ENG_PAGE_MAX_SIDE */
  const guint8 *pixels;   /* pal8: w·h indices; else w·h × RGBA */
} WkEngNewPage;

typedef struct {
  guint n_verts;
  const gfloat *positions; /* V×3, file space */
  guint n_faces;
  const guint32 *triangles; /* F×3, file order */
  const guint16 *texture;   /* F texture-table entries */
  const gfloat *uv;         /* F×3×2 per corner (file order): the corner
                             * flags that show them with the entry are
                             * chosen here, as is the batch bit 0x8 */
} WkEngNewObject;

typedef struct {
  guint32 wfpc;             /* feature flags; 0x10000 / 0x100 refused */
  guint32 width, height;    /* grid */
  guint n_palettes;
  const WkEngNewPalette *palettes;
  guint n_pages;
  const WkEngNewPage *pages;
  guint n_entries;
  const guint8 *entries;    /* n_entries × 8 bytes, as stored */
  const guint32 *zone_table; /* 32 × {mask, height}, or NULL: zone 0 sees all */
  const guint32 *zone_grid;  /* width·height zone numbers < 32, or NULL: 0 */
  guint n_objects;
  const WkEngNewObject *objects;
} WkEngNewLevel;

/* The whole WAD, parsed again (container, TEXT, STPC, MAP) before it is
 * returned. WK_ERROR_ARGUMENT for inputs that make no level, WK_ERROR_LIMIT
 * for ones the file's fields cannot hold. */
GBytes *wk_eng_new_level (const WkEngNewLevel *in, GError **error);

G_END_DECLS
