/* A new RC2 LEVEL<n>.WAD from parts: a 0x60 level header, the data extent
 * (pair table, core_index with the core header, the gs_ram palette table
 * and the tfrag texture table, gs_ram with the palettes in CLUT order,
 * core_data = tfrags block + empty occlusion/sky/collision regions +
 * texels, compressed with WAD-LZ) and a WAD-LZ gameplay extent.
 * See docs/formats/rc2-tfrag.md and docs/samples.md. */
#pragma once
#include <glib.h>

#include "rc2_texture.h"

G_BEGIN_DECLS

typedef struct {
  guint width, height;   /* 1..1024 [assumed bound] */
  guint palette;         /* index into WkRc2NewLevel.palettes */
  const guint8 *pixels;  /* width·height 8-bit indices */
} WkRc2NewTexture;

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
} WkRc2NewLevel;

/* The level file, parsed again (container, core_data and gameplay
 * decompressed to their declared sizes) before it is returned. */
GBytes *wk_rc2_level_build (const WkRc2NewLevel *in, GError **error);

G_END_DECLS
