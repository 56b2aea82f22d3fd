/* Editing the tfrag terrain of a level: new LOD 0 attributes for the
 * existing patches (positions, per-corner UVs and colours, a texture per
 * triangle) and whole new meshes for chosen patches. A patch whose edit
 * keeps its strips, and whose new values fit its stored vertex infos,
 * colours and ad-gifs, is patched in place (every other byte kept, its
 * LODs too); any other changed patch is re-encoded by the tfrag writer,
 * in its old place when it fits there, else after the last patch. See
 * docs/formats/rc2-writing.md ("Terrain"). */
#pragma once
#include <glib.h>

#include "tfrag.h"

G_BEGIN_DECLS

/* A whole new mesh for one patch: triangles over its own positions,
 * counter-clockwise as the reader gives them, per-corner UV and colour
 * (1.0 = 0x80) and a texture per triangle. */
typedef struct {
  guint patch;
  const gfloat *positions;   /* n_positions × 3, file units */
  guint n_positions;
  const guint32 *triangles;  /* n_tris × 3 */
  const gfloat *uv;          /* n_tris × 3 × 2 */
  const gfloat *color;       /* n_tris × 3 × 4 */
  const gint32 *texture;     /* n_tris */
  guint n_tris;
} WkTfragPatchMesh;

/* New LOD 0 terrain in the layout wk_tfrags_fill writes for LOD 0 (any
 * array NULL: unchanged). */
typedef struct {
  const gfloat *positions;   /* n_positions × 3 */
  gsize n_positions;
  const gfloat *uv;          /* n_tris × 3 × 2 */
  const gfloat *color;       /* n_tris × 3 × 4 */
  const gint32 *texture;     /* n_tris */
  gsize n_tris;
  const WkTfragPatchMesh *meshes;
  guint n_meshes;
  gint texture_count;        /* textures the level has */
} WkTfragEdit;

typedef enum {
  WK_TFRAG_KEPT,        /* bytes unchanged */
  WK_TFRAG_IN_PLACE,    /* values patched in its own lists */
  WK_TFRAG_REENCODED,   /* re-encoded by the writer, in its old place */
  WK_TFRAG_MOVED,       /* re-encoded, placed after the last patch */
} WkTfragStatus;

/* The edited region: block is the whole tfrags region of core_data (the
 * block and the free bytes after it, `size` bytes; base = its offset for
 * errors); the result has the same size. status: one per patch (caller
 * allocated, the patch count of the block). WK_ERROR_LIMIT names the
 * patch that breaks a limit or does not fit the region; WK_ERROR_ARGUMENT
 * names the argument (positions, uv, color, texture, a mesh) that is
 * unusable. The result is read back before it is returned. */
GBytes *wk_tfrags_edit (const guint8 *block, gsize size, gint64 base,
                        const WkTfragEdit *edit, guint8 *status, GError **error);

/* The stored LOD 0 terrain of one tfrags block, parsed (with this
 * texture_count) and converted once, for any number of edits of that
 * block: a level keeps its own (rc2_save.c). It points into block, which
 * must stay alive and unchanged while it is used. Read only once made:
 * edits of one base may run in several threads. */
typedef struct _WkTfragsBase WkTfragsBase;
WkTfragsBase *wk_tfrags_base_new (const guint8 *block, gsize size, gint64 base,
                                  gint texture_count, GError **error);
void wk_tfrags_base_free (WkTfragsBase *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkTfragsBase, wk_tfrags_base_free)
/* Patches of the base's block. */
guint wk_tfrags_base_count (const WkTfragsBase *b);
/* wk_tfrags_edit of the base's block (edit->texture_count must be the
 * base's, else WK_ERROR_ARGUMENT); the same bytes and status. */
GBytes *wk_tfrags_base_edit (const WkTfragsBase *b, const WkTfragEdit *edit,
                             guint8 *status, GError **error);

/* Patches in a tfrags block (its header's count), or -1 when it has no
 * readable header. */
gint wk_tfrags_count (const guint8 *block, gsize size);

G_END_DECLS
