/* RC2 level collision: a Z/Y/X tree of 4 m octants holding packed u32
 * vertices (x, y in 1/16 m, z in 1/64 m, around the octant's centre) and
 * faces {v0, v1, v2, tag}, quads first with their fourth corner after the
 * faces. A face is stored in every octant it touches. The reader checks the
 * invariants the data declares, keeps the octants as stored and builds the
 * deduplicated world-space mesh; the writer bins faces into octants with an
 * exact triangle/box test. See docs/formats/rc2-collision-sky.md ("Collision"). */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

/* World positions are integers in 1/64 m: z's step; x and y step by 4
 * (1/16 m). An octant is 256 units wide; octant (x, y, z) spans
 * [256x, 256x + 256] on the x axis, its centre at 256x + 128. */
#define WK_COLL_UNITS 64
#define WK_COLL_OCTANT 256
#define WK_COLL_MESH_OFFSET 0x40   /* where our writer puts the mesh */
#define WK_COLL_MAX_OCTANT_BYTES 4080 /* size byte 255 × 16 */

typedef struct {
  gint32 coord;     /* grid coordinate of slot 0 */
  guint32 count;    /* slots */
  guint32 offset;   /* from the mesh start; 0 = absent */
} WkCollNode;

typedef struct {
  gint32 x, y, z;             /* grid coordinates */
  guint32 offset;             /* from the mesh start */
  guint size16;               /* the X entry's size byte */
  guint n_vertices, n_faces, n_quads;
  guint32 first_vertex, first_face; /* into vertices / faces */
} WkCollOctant;

typedef struct {
  guint8 v[4];   /* v[3] is meaningful for quads only (the first n_quads) */
  guint8 tag;
} WkCollFace;

typedef struct { guint32 v[3]; guint8 tag; } WkCollTri;
typedef struct { guint32 v[4]; guint8 tag; } WkCollQuad;

typedef struct {
  /* The block header: s32 mesh offset, s32 hero-group offset (0 = none). */
  gint32 mesh_offset, hero_groups;
  gsize mesh_size;            /* up to hero_groups, else to the block end */
  /* The tree as stored. */
  WkCollNode z;
  GArray *y_nodes;    /* WkCollNode, one per Z slot */
  GArray *x_nodes;    /* WkCollNode, one per Y slot of each present Y node */
  GArray *octants;    /* WkCollOctant, in tree order (z, y, x) */
  GArray *vertices;   /* gint16[3] as stored, around the octant centre */
  GArray *faces;      /* WkCollFace as stored */
  /* The deduplicated world-space mesh, file winding (see docs). */
  GArray *positions;  /* gint32[3] elements, 1/64 m */
  GArray *tris;       /* WkCollTri */
  GArray *quads;      /* WkCollQuad */
  guint folded;       /* stored triangles that are halves of a stored quad */
} WkRc2Collision;

/* Read a collision block (its first byte = block[0]; base: its offset for
 * errors). Every octant checked; FormatError names the octant and offset. */
WkRc2Collision *wk_rc2_collision_parse (const guint8 *block, gsize size,
                                        gint64 base, GError **error);
void wk_rc2_collision_free (WkRc2Collision *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkRc2Collision, wk_rc2_collision_free)

/* Caller-allocated arrays for the world mesh: V = positions->len,
 * T = tris->len + 2 × quads->len rows of triangles (true triangles first,
 * then each quad (r0, r1, r2, r3) as (r0, r1, r2), (r2, r3, r0)), Q =
 * quads->len. Counter-clockwise seen from the front: a stored triangle
 * (s0, s1, s2) is (s2, s1, s0), a stored quad (s2, s1, s0, s3). */
typedef struct {
  gfloat *positions;   /* V×3, metres, Z up */
  guint32 *triangles;  /* T×3 */
  guint8 *tag;         /* T */
  guint8 *quad;        /* T: 1 for a half of a quad */
  guint32 *quads;      /* Q×4 */
  guint8 *quad_tag;    /* Q */
} WkCollMeshOut;

void wk_rc2_collision_fill (const WkRc2Collision *c, const WkCollMeshOut *out);

/* ---- writer (rc2_collision_write.c) ----------------------------------- */

/* Faces to write: positions in metres (quantised to 1/16 m in x and y,
 * 1/64 m in z), triangles and quads counter-clockwise from the front, one
 * tag per face. */
typedef struct {
  const gfloat *positions;
  gsize n_positions;
  const guint32 *tris;
  const guint8 *tri_tags;
  gsize n_tris;
  const guint32 *quads;
  const guint8 *quad_tags;
  gsize n_quads;
} WkCollMesh;

/* A collision block: every face in every octant it touches (exact test on
 * the quantised positions) and in no other; canonical layout (docs). Read
 * back before it is returned. WK_ERROR_LIMIT names the octant or face that
 * breaks an engine limit; nothing is dropped. */
GBytes *wk_rc2_collision_build (const WkCollMesh *in, GError **error);

/* Lay out octants as given (tree shape, octant order, vertices and faces
 * of a WkRc2Collision, offsets ignored and recomputed) with hero-group
 * bytes appended (hero_size 0: none). Reproduces a block written in the
 * canonical layout byte for byte. */
GBytes *wk_rc2_collision_build_octants (const WkRc2Collision *c,
                                        const guint8 *hero, gsize hero_size,
                                        GError **error);

/* The exact closed triangle/box overlap test (separating axes) on integer
 * coordinates relative to the box centre, half-width h; |coordinates| must
 * stay below 2^15 (the products then stay exact in 64 bits). */
gboolean wk_coll_tri_box (const gint64 a[3], const gint64 b[3],
                          const gint64 c[3], gint64 h);

G_END_DECLS
