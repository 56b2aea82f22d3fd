/* RC2 sky: a 0x40-byte header (colour, counts, offsets of the texture
 * table, texel data, fx list, sprite buffer, up to 8 shells); each shell
 * {s32 cluster count, s32 flags (bit 0: untextured)} and its 0x20-byte
 * cluster headers; a cluster holds s16 vertices {x, y, z, alpha}, one
 * 4-byte "ST" record per vertex and faces {u8 i0, i1, i2, texture}. All
 * offsets from the block start. See docs/formats/rc2-collision-sky.md ("Sky"). */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_SKY_HEADER 0x40u
#define WK_SKY_MAX_SHELLS 8

typedef struct {
  gfloat bsphere[4];
  gint32 data;                    /* offset of the cluster's data */
  gint vertex_count, tri_count;
  gint vertex_offset, st_offset, tri_offset, data_size; /* from data */
  guint first_vertex, first_tri;  /* rows in the shell's arrays */
} WkSkyCluster;

typedef struct {
  gint32 offset;                  /* of the shell header */
  gint32 cluster_count, flags;
  gboolean textured;              /* flags bit 0 clear */
  GArray *clusters;               /* WkSkyCluster */
  guint n_vertices, n_tris;
} WkSkyShell;

typedef struct {
  gint32 palette, pixels;         /* absolute offsets in the block */
  gint32 width, height;
} WkSkyTexture;

typedef struct {
  guint8 colour[4];
  gint clear_screen, shell_count, sprite_count, max_sprites, texture_count, fx_count;
  gint32 texture_defs, texture_data, fx_list, sprites, shell_offsets[WK_SKY_MAX_SHELLS];
  WkSkyShell shells[WK_SKY_MAX_SHELLS];
  GArray *textures;               /* WkSkyTexture */
  const guint8 *block;            /* the parsed block (kept for fill) */
} WkRc2Sky;

/* Parse and check a sky block (base: its offset, for errors). The result
 * points into block, which must outlive it. */
WkRc2Sky *wk_rc2_sky_parse (const guint8 *block, gsize size, gint64 base,
                            GError **error);
void wk_rc2_sky_free (WkRc2Sky *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkRc2Sky, wk_rc2_sky_free)

/* Caller-allocated arrays of one shell: V = n_vertices, T = n_tris. */
typedef struct {
  gfloat *positions;   /* V×3: s16 / 1024 */
  gfloat *uv;          /* V×2: the ST record as s16 s, t / 4096 */
  gfloat *color;       /* V×4, see docs: untextured RGB / 255 from the ST
                        * record, alpha = vertex alpha / 128 × A / 128;
                        * textured (1, 1, 1, vertex alpha / 128) */
  gint16 *alpha;       /* V: vertex alpha as stored */
  guint8 *st;          /* V×4: the ST record as stored */
  guint32 *triangles;  /* T×3: (i2, i1, i0) of each face, shell rows */
  gint32 *texture;     /* T: sky texture index, -1 for 0xff */
  gint32 *cluster;     /* T */
} WkSkyShellOut;

void wk_rc2_sky_fill (const WkRc2Sky *s, guint shell, const WkSkyShellOut *out);

/* ---- writer (rc2_sky_write.c) -------------------------------------------- */

/* One untextured shell to write: n vertices at positions (units, |x| <
 * 32: s16 / 1024), each with its 4-byte ST record given as the colour
 * bytes RGBA (noclip's reading of untextured shells, docs/formats/rc2-collision-sky.md
 * "Sky") and a vertex alpha (0x80 = opaque); triangles over them,
 * counter-clockwise seen from inside the shell as the reader returns
 * them (stored reversed). */
typedef struct {
  const gfloat *pos;      /* n × 3 */
  const guint8 *rgba;     /* n × 4 */
  const gint16 *alpha;    /* n */
  guint n;
  const guint32 *tri;     /* ntri × 3 */
  guint ntri;
} WkSkyShellNew;

#define WK_SKY_CLUSTER_VERTICES 128u /* [assumed] a cluster's vertex budget */

/* A sky block of untextured shells (no textures, fx or sprites), each
 * cut into clusters of at most WK_SKY_CLUSTER_VERTICES vertices; read
 * back with wk_rc2_sky_parse before it is returned. LimitError naming
 * the shell for what the format cannot hold. */
GBytes *wk_rc2_sky_build (const guint8 colour[4], gint clear_screen,
                          const WkSkyShellNew *shells, guint n_shells, GError **error);

G_END_DECLS
