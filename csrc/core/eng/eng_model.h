/* ENG model (the one format of TRAK tile models and STPC object models):
 * header, 24-byte vertices, 28-byte triangles, 32-byte collision records.
 * docs/formats/eng.md "Model format". Every header and data byte is held in a
 * field, so writing a parsed model gives back the same bytes; after an edit,
 * wk_eng_model_recompute() makes box, planes and normals consistent again. */
#pragma once
#include <glib.h>

#include "../common/wk_reader.h"

G_BEGIN_DECLS

#define WK_ENG_TRAK_HEADER_SIZE 0x84
#define WK_ENG_STPC_HEADER_SIZE 0x8c
#define WK_ENG_VERTEX_SIZE 24
#define WK_ENG_FACE_SIZE 28
#define WK_ENG_BOX_MARGIN (1.0f / 128.0f) /* [assumed] eng.md "Model format" */

typedef struct {
  guint16 flags;
  guint16 v[3];      /* corner vertex indices, file order */
  guint16 tex;       /* texture-table entry */
  guint16 pad;       /* 0 in the files; kept */
  gfloat plane[4];   /* nx ny nz d: n = normalize((v1-v0)x(v2-v0)), d = n.v0 */
} WkEngFace;

typedef struct {
  gboolean stpc;            /* 0x8c header with the bone fields */
  gfloat centre[3];
  gfloat box[8][3];         /* (-x-y+z)(+x-y+z)(-x+y+z)(+x+y+z)(-x-y-z)... */
  guint32 ptr_verts, ptr_faces, ptr_coll; /* pointer slots, 0 in files; kept */
  guint16 coll_groups[3];   /* collision records in groups A, B, C */
  guint16 pad7e;            /* header +0x7e, 0 in files; kept */
  guint16 rigid_verts;      /* STPC +0x84: nVerts when rigid, 0 when skinned */
  guint16 n_bones;          /* STPC +0x86 */
  guint32 ptr_bones;        /* STPC +0x88 */
  guint n_verts, n_faces, n_coll;
  gfloat *verts;            /* n_verts × {x y z nx ny nz}, export space */
  WkEngFace *faces;
  guint8 *coll;             /* n_coll × 32 bytes, exact */
  guint16 *bone_counts;     /* n_bones vertex counts (STPC) */
  gint64 offset;            /* absolute offset of the header, -1 if built */
  gint64 faces_offset;      /* absolute offset of face 0, -1 if built */
  /* Not NULL: verts, faces and coll are read-only views into these bytes
   * (the file, little-endian, 4-aligned), held by a reference and not
   * freed with the model. wk_eng_model_own() before any edit. */
  GBytes *backing;
} WkEngModel;

/* The file's 28-byte triangle record is WkEngFace's layout on a
 * little-endian machine, which lets a parsed model view the file. */
G_STATIC_ASSERT (sizeof (WkEngFace) == WK_ENG_FACE_SIZE);
G_STATIC_ASSERT (G_STRUCT_OFFSET (WkEngFace, plane) == 12);

WkEngModel *wk_eng_model_new (gboolean stpc);
void wk_eng_model_free (WkEngModel *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngModel, wk_eng_model_free)

/* Read one header (0x84 or 0x8c bytes). Counts are kept; no data yet. */
gboolean wk_eng_model_read_header (WkReader *r, WkEngModel *m, GError **error);
/* Read the model's data (bone counts, vertices, faces, collision), checking
 * every count against the bytes left and every face index < nVerts. */
gboolean wk_eng_model_read_data (WkReader *r, WkEngModel *m, GError **error);
/* The same; with backing (the GBytes r reads from) the vertices, faces and
 * collision records are views into it instead of copies, when the machine
 * is little-endian and the data 4-aligned (otherwise copied). */
gboolean wk_eng_model_read_data_in (WkReader *r, WkEngModel *m, GBytes *backing,
                                    GError **error);
/* Copy-on-write: give a model that views its file its own copies of the
 * vertices, faces and collision records (no-op when it has them). */
void wk_eng_model_own (WkEngModel *m);

/* Append header / data exactly as the fields say. The counts must fit the
 * u16 fields (checked by wk_eng_model_check_limits). */
void wk_eng_model_write_header (const WkEngModel *m, GByteArray *out);
void wk_eng_model_write_data (const WkEngModel *m, GByteArray *out);

/* WK_ERROR_LIMIT unless the counts fit the file's u16 fields. */
gboolean wk_eng_model_check_limits (const WkEngModel *m, GError **error);

/* After geometry edits: centre and box (with WK_ENG_BOX_MARGIN), every face
 * plane, and smoothed vertex normals (area-weighted face normals). */
void wk_eng_model_recompute (WkEngModel *m);

/* The face plane of corners p0 p1 p2 as the files store it. */
void wk_eng_face_plane (const gfloat p0[3], const gfloat p1[3],
                        const gfloat p2[3], gfloat plane[4]);

G_END_DECLS
