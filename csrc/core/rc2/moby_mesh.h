/* RC2 moby classes: the mesh of one LOD (0 = high, 1 = low) as stored, in
 * the bind pose (no skinning applied). A 0x48-byte header, a table of
 * 16-byte packet entries; per packet a VIF list (texture coordinates, an
 * index buffer with restart bits and "secret" indices that switch
 * textures, optional texture ad-gifs) and a vertex table whose vertex
 * cache indices sit seven vertices late. docs/formats/rc2-classes.md, "Moby
 * classes". Metal (chrome/glass) packets and bangles are not decoded. */
#pragma once
#include <glib.h>

#include "class_mesh.h"

G_BEGIN_DECLS

#define WK_MOBY_HEADER 0x48u
#define WK_MOBY_PACKET_ENTRY 0x10u

typedef struct {
  gfloat scale;
  gfloat bsphere[4];
  guint joint_count;
  guint packet_count[3];  /* high LOD, low LOD, metal */
  guint format;           /* 2: the R&C2 vertex table; 1: the R&C1 one */
  gboolean has_mesh;      /* FALSE: no packet table (the mesh is empty) */
} WkMobyInfo;

WkClassMesh *wk_moby_mesh_parse (const guint8 *data, gsize size, gint64 base,
                                 guint lod, WkMobyInfo *info, GError **error);

G_END_DECLS
