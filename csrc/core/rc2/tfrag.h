/* RC2 tfrag terrain: the tfrags block at the start of core_data.
 *
 * Block: s32 table_offset (0x40), s32 patch count, f32 LOD distance; a
 * table of 0x40-byte patch headers; per patch five VIF lists (LOD 2,
 * common, LOD 1, LOD 0+1, LOD 0) holding the VU header, ad-gifs, vertex
 * info, positions, strips and indices. See docs/formats/rc2.md. Every patch
 * must reproduce its header's vert_count and tri_count. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_TFRAG_HEADER 0x40u
#define WK_TFRAG_VU_LIMIT 0x148u /* quadwords of VU memory per patch */

typedef struct {
  gfloat bsphere[4];
  guint vert_count, tri_count;   /* as the header declares */
  guint flags, ad_gifs, mip_dist, occl_index;
  guint lod_tris[3];             /* decoded triangles of LOD 0, 1, 2 */
  gsize offset;                  /* absolute offset of the patch data */
} WkTfragPatch;

typedef struct {
  guint lod;
  gfloat lod_distance;
  GArray *patches;   /* WkTfragPatch */
  GArray *positions; /* gfloat[3] per vertex, file space (Z up) */
  GArray *tris;      /* guint32[3] per triangle, consistent winding */
  GArray *uv;        /* gfloat[3][2] per triangle */
  GArray *color;     /* gfloat[3][4] per triangle, 0x80 = 1.0 */
  GArray *texture;   /* gint32 per triangle: tfrag texture index */
  GArray *patch;     /* gint32 per triangle */
} WkTfrags;

/* Decode the block for one LOD (0..2). base: offset of block[0] for
 * errors. texture_count >= 0 bounds the texture indices. */
WkTfrags *wk_tfrags_parse (const guint8 *block, gsize size, gint64 base,
                           guint lod, gint texture_count, GError **error);
void wk_tfrags_free (WkTfrags *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkTfrags, wk_tfrags_free)

/* One 8-bit paletted texture to RGBA: pixels w*h indices, palette 256
 * little-endian RGBA32 in PS2 CLUT order (index bits 3 and 4 swapped),
 * alpha 0x80 = opaque (scaled to 255). */
void wk_rc2_texture_rgba (const guint8 *pixels, guint w, guint h,
                          const guint8 *palette, guint8 *out);

G_END_DECLS
