/* Internals of the tfrag reader shared with the in-place editor
 * (tfrag_edit.c): what one checked patch's VIF lists hold. Not part of the
 * core's API. See docs/formats/rc2.md ("Tfrag terrain"). */
#pragma once
#include <glib.h>

#include "tfrag.h"

typedef struct {
  const guint8 *p;
  guint n;          /* elements */
  gint64 abs;       /* absolute offset of p[0] */
} Span;

/* What one patch's lists hold. Tiers: 0 common, 1 LOD 0+1, 2 LOD 0. */
typedef struct {
  gboolean have_header;
  guint strips_addr, indices_addr;
  Span pos[3], vinfo[3], strips[3], indices[3], adgifs;
  gint32 origin[3][3];
} Patch;

/* One checked patch, kept between wk_tfrags_parse and wk_tfrags_fill
 * (WkTfrags.decoded). */
typedef struct {
  Patch pt;
  const guint8 *rgba;
  guint32 pos_base;  /* its first row in positions */
  gsize tri_base;    /* its first triangle of the chosen LOD */
  gint32 index;
} Decoded;
