/* RC2 tie classes (instanced environment meshes): the GC layout, a 0x80-byte
 * header, three LODs of packets, each packet a GS-packet recipe of ad-gifs,
 * strips and regular (16-byte) and morphing (24-byte) vertices placed at GS
 * packet offsets. Decoding replays the GS packet in offset order; it must
 * never stall, every q must be 4096 and every count agree.
 * docs/formats/rc2-classes.md, "Tie classes". */
#pragma once
#include <glib.h>

#include "class_mesh.h"

G_BEGIN_DECLS

#define WK_TIE_HEADER 0x80u
#define WK_TIE_PACKET_HEADER 0x10u
#define WK_TIE_AD_GIF 0x50u

typedef struct {
  gint o_class;
  gfloat scale, mip_dist;
  gfloat bsphere[4];
  gfloat dist[3];             /* near, mid, far */
  guint texture_count;        /* ad-gifs = entries of the class's textures */
  guint packet_count[3];
  gint lod_header[3][3];      /* declared {vert, tri, strip} counts per LOD */
  guint strips;               /* strips decoded in the chosen LOD */
} WkTieInfo;

/* Decode LOD lod (0 finest .. 2) of a tie class: data is the class, base
 * the absolute offset of data[0] (errors only). info may be NULL. */
WkClassMesh *wk_tie_mesh_parse (const guint8 *data, gsize size, gint64 base,
                                guint lod, WkTieInfo *info, GError **error);

G_END_DECLS
