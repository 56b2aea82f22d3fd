/* Internals of the tfrag reader shared with the in-place editor
 * (tfrag_edit.c): what one checked patch's VIF lists hold. Not part of the
 * core's API. See docs/formats/rc2-tfrag.md ("Tfrag terrain"). */
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

/* A strip record {s8 count, s8 flag, s8 ad-gif offset, pad}: its vertex
 * count (0 ends the list); *adgif becomes the ad-gif it binds — only a
 * biased record (count < 0, stored as count - 128) with an offset >= 0
 * binds one (docs/formats/rc2-tfrag.md, "The five VIF lists"). */
static inline guint
wk_tfrag_record (const guint8 *rec, gint *adgif)
{
  gint raw = (gint8) rec[0], off = (gint8) rec[2];
  if (raw < 0 && off >= 0)
    *adgif = off / 5;
  return raw < 0 ? (guint) (raw + 128) : (guint) raw;
}

/* Triangle j of the strip whose indices start at idx: its three vertex
 * infos, every other triangle turned so all wind like the first. */
static inline void
wk_tfrag_corners (const guint8 *idx, guint j, guint c[3])
{
  c[0] = idx[j + (j & 1)];
  c[1] = idx[j + 1 - (j & 1)];
  c[2] = idx[j + 2];
}
