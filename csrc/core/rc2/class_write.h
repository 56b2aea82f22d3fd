/* Writers of RC2 tie and shrub classes (the readers: tie.c, shrub.c).
 * Each lays one class out in the layout docs/formats/rc2-classes.md describes
 * ("Tie classes", "Shrub classes") with the choices of
 * docs/formats/rc2-writers.md, and decodes it again with our reader before
 * returning it. Positions are in the class's own space (game units, Z
 * up); the writer picks the class scale so they fit s16. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_CLASS_SLOTS 16u   /* texture slots of a class (core class entry) */

/* What the three class writers store of the vertices the same way: the
 * class scale (the largest coordinate maps to 32000 of s16), positions
 * s16 · scale / WK_RC2_POS_ONE, texture coordinates s16 / WK_RC2_ST_ONE,
 * and the bounding sphere (centre of the box, farthest vertex · 1.001 +
 * 0.001) docs/formats/rc2-writers.md describes. */
typedef struct {
  gfloat scale, centre[3], radius;
  gint16 *pos;              /* n × 3 (g_free) */
  gint16 *st;               /* n × 2 (g_free) */
} WkClassVertices;

/* FALSE with a LIMIT error naming "<kind> class <o_class>" for a
 * position, or normal when normals are given, that is not finite or lies
 * over 1e6 from the origin, or a texture coordinate outside s16 / 4096. */
gboolean wk_class_vertices (const gfloat *pos, const gfloat *uv, const gfloat *normal,
                            guint n, const char *kind, gint o_class,
                            WkClassVertices *out, GError **error);
void wk_class_vertices_clear (WkClassVertices *v);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WkClassVertices, wk_class_vertices_clear)

/* A tie class: triangle strips over n vertices; strip i has strip_len[i]
 * vertex indices taken in turn from idx (GS strip order: triangle k of a
 * strip is (k, k+1, k+2) for even k and (k+2, k+1, k) for odd k, so that
 * every triangle of a strip winds the same way) and samples texture slot
 * strip_tex[i] (0..15). All three LODs get the same strips [assumed]. */
typedef struct {
  const gfloat *pos;        /* n × 3 */
  const gfloat *uv;         /* n × 2 */
  guint n;
  const guint32 *idx;
  guint nidx;
  const guint32 *strip_len;
  const guint8 *strip_tex;
  guint nstrips;
  gint o_class;             /* the class number (s16) */
  gfloat lod_dist[3];       /* near, mid, far */
} WkTieNew;

/* LimitError naming "tie class <o_class>" for what the layout cannot hold
 * (a strip of more vertices than a packet, an index past n, a texture slot
 * past 15, an o_class outside s16, a non-finite position). */
GBytes *wk_tie_class_build (const WkTieNew *in, GError **error);

/* A shrub class: triangles (t × 3) over n vertices, wound counter-
 * clockwise seen from the side their vertex normals point to; tex[i] the
 * texture slot of triangle i. Triangles are grouped by texture into
 * packets of at most WK_SHRUB_PACKET_TRIS. */
#define WK_SHRUB_PACKET_TRIS 16u   /* [assumed] a VU-memory budget */
typedef struct {
  const gfloat *pos;        /* n × 3 */
  const gfloat *uv;         /* n × 2 */
  const gfloat *normal;     /* n × 3, unit length (quantised to 24 directions) */
  guint n;
  const guint32 *tri;       /* t × 3 */
  const guint8 *tex;        /* t */
  guint ntri;
  gint o_class;
  gfloat mip_distance;
} WkShrubNew;

GBytes *wk_shrub_class_build (const WkShrubNew *in, GError **error);

/* A moby class of one rigid mesh (no joints, animations, metal packets or
 * bangles): triangles (t × 3) over n vertices, counter-clockwise seen from
 * the front, tex[i] the texture slot of triangle i; both LODs get the same
 * packets [assumed], each triangle its own strip. */
#define WK_MOBY_PACKET_TRIS 40u      /* [assumed] per packet */
#define WK_MOBY_PACKET_VERTICES 120u /* a vertex index is 7 bits */
typedef struct {
  const gfloat *pos;        /* n × 3 */
  const gfloat *uv;         /* n × 2 */
  const gfloat *normal;     /* n × 3, unit length */
  guint n;
  const guint32 *tri;       /* t × 3 */
  const guint8 *tex;        /* t */
  guint ntri;
  gint o_class;             /* for errors only: the moby header has no number */
} WkMobyNew;

GBytes *wk_moby_class_build (const WkMobyNew *in, GError **error);

G_END_DECLS
