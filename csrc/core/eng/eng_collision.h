/* ENG collision polygons: decode a 32-byte record into a polygon (surface
 * plane + corners) and encode a polygon into a record the engine reads.
 * docs/formats/eng-collision.md ("Space", "The record", "Encoding").
 *
 * Plane scale. The engine multiplies the i8 normal by 32 and compares with
 * d·4096 (d an i16), so a record plane is  (n/127)·p = d/4064  with p in
 * units (1.0 = one grid cell). Everything here uses that scale.
 *
 * Space. Records are in tile-local GAME space (= file space, eng_space.h: right-handed,
 * y up, z as in the game). Export space (the TRAK vertices' own space) is the
 * same with z negated and the corner order reversed after the first corner. */
#pragma once
#include <glib.h>

#include "eng_coll_record.h"
#include "eng_space.h"

G_BEGIN_DECLS

#define WK_ENG_COLL_DOWN 0x04u   /* type bit 2: normal points down [likely] */
#define WK_ENG_COLL_NORMAL_SCALE 127.0
#define WK_ENG_COLL_D_SCALE 4064.0 /* 127·32: d units per 1.0 along n/127 */


typedef struct {
  guint n_corners;       /* 3 or 4 by the type bit */
  gboolean corners_ok;   /* FALSE when some planes do not meet in a point */
  double corners[4][3];  /* tile-local; NaN where missing or unsolvable */
  double normal[3];      /* surface normal n/127 (not renormalised) */
  double d;              /* surface d/4064: normal·p = d on the surface */
} WkEngCollPolygon;

/* Plane k of a record as (n/127, d/4064). */
void wk_eng_coll_plane (const WkEngCollRecord *rec, guint k, double n[3],
                        double *d);

/* Intersection of three planes n_i·p = d_i; FALSE when (nearly) parallel. */
gboolean wk_eng_planes_meet (const double n[3][3], const double d[3],
                             double p[3]);

/* Polygon of a record: corner i = surface ∩ edge i ∩ edge i+1 (cyclic;
 * edges are planes 1..3 or 1..4). Game space. */
void wk_eng_coll_polygon (const WkEngCollRecord *rec, WkEngCollPolygon *poly);

/* Number of records in size bytes; FORMAT error unless size is a multiple
 * of 32 (offset = base + start of the partial record). */
gboolean wk_eng_coll_count (gsize size, gint64 base, guint *count,
                            GError **error);

/* Caller-allocated arrays for wk_eng_coll_decode (P = record count). */
typedef struct {
  gfloat *corners;     /* P×4×3, NaN for a triangle's 4th corner */
  guint8 *n_corners;   /* P */
  gfloat *normal;      /* P×3, n/127 */
  gfloat *d;           /* P, d/4064 */
  guint8 *type;        /* P */
  guint8 *material;    /* P */
  guint8 *group;       /* P: 0, 1, 2 = groups A, B, C */
  gint8 *raw_normal;   /* P×5×3 as stored */
  gint16 *raw_d;       /* P×5 as stored */
} WkEngCollArrays;

/* Decode size bytes of records. groups = n_runs triples of a model header's
 * three counts, for the records of n_runs models one after the other (each
 * model's records are its groups A, B, C in that order; the counts must
 * add up to the record count), or NULL (n_runs 0) = all group A. */
gboolean wk_eng_coll_decode (const guint8 *raw, gsize size, gint64 base,
                             const guint *groups, gsize n_runs, WkEngSpace space,
                             WkEngCollArrays *out, GError **error);

/* Encode one polygon (n = 3 or 4 corners, tile-local game space, the surface
 * normal is the right-hand normal of the corner order). ARGUMENT errors for
 * non-finite corners, degenerate, non-planar or non-convex polygons; LIMIT
 * error when a plane's d leaves the i16 range (the polygon lies beyond ~±8
 * units of the tile origin). */
gboolean wk_eng_coll_encode_polygon (const double corners[][3], guint n,
                                     guint8 material, WkEngCollRecord *rec,
                                     GError **error);

/* TRUE when a polygon has (nearly) no area: the encoder refuses it. */
gboolean wk_eng_coll_degenerate (const double corners[][3], guint n);

/* Encode P polygons (corners P×4×3, n_corners P of 3/4, material P) given in
 * `space`, appending 32 bytes each to out. With drop_degenerate, degenerate
 * polygons are left out and their indices appended to dropped (guint32);
 * otherwise they are an ARGUMENT error. Errors name the polygon. */
gboolean wk_eng_coll_encode_many (const gfloat *corners, const guint8 *n_corners,
                                  const guint8 *material, guint count,
                                  WkEngSpace space, gboolean drop_degenerate,
                                  GByteArray *out, GArray *dropped, GError **error);

G_END_DECLS
