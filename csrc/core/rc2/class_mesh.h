/* RC2 class meshes (tie, shrub, moby): what the three decoders share.
 *
 * Each decoder takes one class's bytes (as the core class tables slice
 * them out of core_data) and the absolute offset of byte 0 for errors,
 * checks everything the class declares, and returns a WkClassMesh whose
 * counts size the caller's arrays (phase 1); wk_class_mesh_fill copies the
 * decoded mesh into them (phase 2). See docs/formats/rc2-classes.md, "Tie classes",
 * "Shrub classes", "Moby classes". */
#pragma once
#include <glib.h>

#include "../common/wk_reader.h"

G_BEGIN_DECLS

/* Fixed-point facts shared by the three class kinds (docs/formats/rc2-classes.md):
 * a position is s16 · scale / WK_RC2_POS_ONE (scale an f32 of the class
 * header), a texture coordinate s16 / WK_RC2_ST_ONE, and a quantised normal
 * component s16 / WK_RC2_NORMAL_ONE. */
#define WK_RC2_POS_ONE 1024.0f
#define WK_RC2_ST_ONE 4096.0f
#define WK_RC2_NORMAL_ONE 32767.0f

typedef struct {
  gfloat pos[3];    /* game space (Z up), scale applied */
  gfloat uv[2];
  gfloat normal[3]; /* zero when the kind has none */
} WkMeshVertex;

typedef struct {
  gboolean has_normals;
  GArray *vertices;  /* WkMeshVertex */
  GArray *triangles; /* guint32 × 3 per triangle */
  GArray *texture;   /* gint32 per triangle: index into the class's textures */
} WkClassMesh;

/* Caller-allocated arrays, sized by the mesh's vertex count V and triangle
 * count T. normals may be NULL (not written). */
typedef struct {
  gfloat *positions; /* V×3 */
  gfloat *uv;        /* V×2 */
  gfloat *normals;   /* V×3 */
  guint32 *triangles;/* T×3 */
  gint32 *texture;   /* T */
} WkClassMeshOut;

WkClassMesh *wk_class_mesh_new (gboolean has_normals);
void wk_class_mesh_free (WkClassMesh *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkClassMesh, wk_class_mesh_free)

static inline gsize wk_class_mesh_vertices (const WkClassMesh *m) { return m->vertices->len; }
static inline gsize wk_class_mesh_triangles (const WkClassMesh *m) { return m->texture->len; }

/* Append a triangle over vertices a, b, c (already appended). */
void wk_class_mesh_add_tri (WkClassMesh *m, guint32 a, guint32 b, guint32 c,
                            gint32 texture);

/* Phase 2: copy into the caller's arrays. */
void wk_class_mesh_fill (const WkClassMesh *m, const WkClassMeshOut *out);

/* FALSE with a FORMAT error naming what, at the offset of the field that
 * declared it (base + field), unless [offset, offset + count · elem) lies
 * inside [0, size) (overflow-safe; offset may be negative). */
gboolean wk_class_span (gsize size, gint64 base, gint64 field, gint64 offset,
                        guint64 count, gsize elem, const char *what,
                        GError **error);

/* The start every class kind shares: FALSE with an ARGUMENT error unless
 * lod < lods, with a FORMAT error unless the class holds its header
 * (header bytes) and the f32 scale at scale_at is a positive number
 * small enough that every s16 position it scales is a finite float,
 * stored in *scale. kind names it ("tie"). */
gboolean wk_class_head (const guint8 *data, gsize size, gint64 base,
                        guint lod, guint lods, gsize header, gsize scale_at,
                        const char *kind, gfloat *scale, GError **error);

G_END_DECLS
