/* A new RC2 LEVEL<n>.WAD from parts: a 0x60 level header, the data extent
 * (pair table, core_index with the core header, the gs_ram palette table,
 * the class tables and the four texture tables, gs_ram with the palettes
 * in CLUT order, core_data = tfrags block + occlusion/sky/collision
 * regions + texels + class data, compressed with WAD-LZ) and a WAD-LZ
 * gameplay extent. See docs/formats/rc2-tfrag.md ("Writing a level file"),
 * docs/formats/rc2-writers.md and docs/samples.md. */
#pragma once
#include <glib.h>

#include "rc2_gameplay.h" /* WkRc2Kind */
#include "rc2_texture.h"

G_BEGIN_DECLS

typedef struct {
  guint width, height;   /* 1..1024 [assumed bound] */
  guint palette;         /* index into WkRc2NewLevel.palettes */
  const guint8 *pixels;  /* width·height 8-bit indices */
} WkRc2NewTexture;

/* One core class table entry and its data (docs/formats/rc2-gameplay.md, "Core
 * class tables"). */
typedef struct {
  gint32 id;              /* the class number */
  const guint8 *data;     /* the class's bytes in core_data; NULL: offset 0 */
  gsize size;
  guint8 textures[16];    /* indices into the kind's texture table, 0xff = none */
  gint16 billboard[8];    /* shrubs only */
} WkRc2NewClass;

/* Texture tables in core header order: tfrag, moby, tie, shrub. */
enum { WK_RC2_TABLE_TFRAG, WK_RC2_TABLE_MOBY, WK_RC2_TABLE_TIE, WK_RC2_TABLE_SHRUB,
       WK_RC2_TABLES };

typedef struct {
  gint32 level_id, reverb;
  const guint8 *tfrags;  /* a tfrags block (wk_tfrags_build) */
  gsize tfrags_size;
  guint n_textures;
  const WkRc2NewTexture *textures;
  guint n_palettes;
  const guint8 *palettes; /* n × 256 RGBA, natural index order, alpha 255 = opaque */
  const guint8 *gameplay; /* the gameplay extent, uncompressed */
  gsize gameplay_size;
  /* optional parts (NULL / 0: absent or empty) */
  const guint8 *sky;       /* a sky block (wk_rc2_sky_build); NULL: empty sky */
  gsize sky_size;
  const guint8 *collision; /* a collision block; NULL: no faces */
  gsize collision_size;
  guint n_classes[WK_RC2_KINDS];          /* WkRc2Kind order: tie, shrub, moby */
  const WkRc2NewClass *classes[WK_RC2_KINDS];
  /* each table's entries as indices into textures; table[TFRAG] NULL =
   * every texture, in order */
  guint n_table[WK_RC2_TABLES];
  const guint *table[WK_RC2_TABLES];
} WkRc2NewLevel;

/* The level file, parsed again (container, core_data and gameplay
 * decompressed to their declared sizes, the class tables and the four
 * texture tables read) before it is returned. */
GBytes *wk_rc2_level_build (const WkRc2NewLevel *in, GError **error);

G_END_DECLS
