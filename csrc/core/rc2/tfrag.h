/* RC2 tfrag terrain: the tfrags block at the start of core_data.
 *
 * Block: s32 table_offset (0x40), s32 patch count, f32 LOD distance; a
 * table of 0x40-byte patch headers; per patch five VIF lists (LOD 2,
 * common, LOD 1, LOD 0+1, LOD 0) holding the VU header, ad-gifs, vertex
 * info, positions, strips and indices. See docs/formats/rc2-tfrag.md. Every patch
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
  GArray *patches;    /* WkTfragPatch */
  gsize n_positions;  /* rows wk_tfrags_fill writes: every patch's positions */
  gsize n_tris;       /* triangles of the chosen LOD */
  GArray *decoded;    /* private: each patch's lists, pointing into the block */
} WkTfrags;

/* Caller-allocated arrays for wk_tfrags_fill, sized by n_positions (V) and
 * n_tris (T). */
typedef struct {
  gfloat *positions; /* V×3, file space (Z up) */
  guint32 *triangles;/* T×3, consistent winding */
  gfloat *uv;        /* T×3×2 */
  gfloat *color;     /* T×3×4, 0x80 = 1.0 */
  gint32 *texture;   /* T: tfrag texture index */
  gint32 *patch;     /* T */
} WkTfragOut;

/* Phase 1: decode and check the block for one LOD (0..2) and measure the
 * arrays; nothing is converted yet. base: offset of block[0] for errors.
 * texture_count >= 0 bounds the texture indices. The result points into
 * block, which must stay alive and unchanged until wk_tfrags_fill. */
WkTfrags *wk_tfrags_parse (const guint8 *block, gsize size, gint64 base,
                           guint lod, gint texture_count, GError **error);
/* The LOD 0 check of wk_tfrags_parse for a block made from `old` (same
 * size, parsed with this texture_count): a patch whose header and data
 * bytes are old's is not parsed again. */
gboolean wk_tfrags_recheck (const guint8 *block, gsize size, const guint8 *old,
                            gint64 base, gint texture_count, GError **error);
/* Phase 2: fill the caller's arrays. Cannot fail: phase 1 checked all. */
void wk_tfrags_fill (const WkTfrags *t, const WkTfragOut *out);
void wk_tfrags_free (WkTfrags *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkTfrags, wk_tfrags_free)

/* One 8-bit paletted texture to RGBA: pixels w*h indices, palette 256
 * little-endian RGBA32 in PS2 CLUT order (index bits 3 and 4 swapped),
 * alpha 0x80 = opaque (scaled to 255). */
void wk_rc2_texture_rgba (const guint8 *pixels, guint w, guint h,
                          const guint8 *palette, guint8 *out);

G_END_DECLS

/* ---- writer ----------------------------------------------------------- */

/* One patch to write: n vertices (positions in file units, UV, colour with
 * 1.0 = 0x80), and triangle strips over them: strip i has strip_len[i]
 * vertex indices (GS strip order) taken in turn from idx, and samples
 * texture strip_tex[i]. Every LOD gets the same strips. */
typedef struct {
  const gfloat *pos;      /* n * 3 */
  const gfloat *uv;       /* n * 2 */
  const gfloat *color;    /* n * 4 */
  guint n;
  const guint32 *idx;
  guint nidx;
  const guint32 *strip_len;
  const gint32 *strip_tex;
  guint nstrips;
} WkTfragMesh;

/* A tfrags block holding one patch per mesh, in the game's list layout,
 * read back with wk_tfrags_parse before it is returned. WK_ERROR_LIMIT when
 * a mesh breaks a limit of the format (255 vertices / triangles, 127
 * vertices per strip, s16 coordinates, VU memory of WK_TFRAG_VU_LIMIT). */
GBytes *wk_tfrags_build (const WkTfragMesh *meshes, guint count,
                         gfloat lod_distance, GError **error);

/* One patch in the writer's layout: its data appended to o (whose length
 * must be a multiple of 16), its header filled but for the data field
 * (0x10). LimitErrors name "tfrag patch <index>". Not read back here. */
gboolean wk_tfrag_patch_write (GByteArray *o, const WkTfragMesh *mesh, guint index,
                               guint8 header[WK_TFRAG_HEADER], GError **error);
