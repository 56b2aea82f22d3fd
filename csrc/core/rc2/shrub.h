/* RC2 shrub classes (instanced foliage): a 0x40-byte header, a table of
 * {offset, size} VIF packets and a 24-entry normal table. Every packet holds
 * exactly three unpacks (header + GIF tags + ad-gifs, vertex positions,
 * texture coordinates + normal indices) whose GS packet offsets must be
 * consumed in order. docs/formats/rc2-classes.md, "Shrub classes". */
#pragma once
#include <glib.h>

#include "class_mesh.h"

G_BEGIN_DECLS

#define WK_SHRUB_HEADER 0x40u
#define WK_SHRUB_NORMALS 24u

typedef struct {
  gint o_class;
  gfloat scale, mip_distance;
  gfloat bsphere[4];
  guint packet_count;
  guint mode_bits;
  gint billboard_offset;      /* 0: none */
  guint padding_vertices;     /* repeated-offset vertices skipped */
  guint dropped_triangles;    /* with two corners at one position */
} WkShrubInfo;

/* Decode a shrub class (data = the class, base = absolute offset of
 * data[0], errors only). info may be NULL. */
WkClassMesh *wk_shrub_mesh_parse (const guint8 *data, gsize size, gint64 base,
                                  WkShrubInfo *info, GError **error);

G_END_DECLS
