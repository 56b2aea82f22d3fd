/* The inverse of the engine's UV rules (eng_uv.h): which texture rectangle
 * and corner flags reproduce a triangle's UVs. Used by the write path. */
#pragma once
#include <glib.h>

#include "eng_uv.h"

G_BEGIN_DECLS

typedef struct {
  guint16 flags;     /* some of WK_ENG_FACE_QUAD | _SECOND | _MIRROR_U */
  guint8 u0, u1, v0, v1; /* texels, u1/v1 inclusive */
  gfloat error;      /* largest corner distance, in texels (256 per unit) */
} WkEngUvFit;

/* Fit UVs of corners v0 v1 v2 (stored order; U right, V down, 0..1).
 * Always gives the nearest rectangle; error ≤ 0.5 means exact. */
void wk_eng_uv_fit (const gfloat uv[3][2], WkEngUvFit *fit);

/* Largest distance, in texels, between uv and what entry e shows with the
 * given face flags. */
gfloat wk_eng_uv_error (const gfloat uv[3][2], const WkEngTexEntry *e,
                        guint16 face_flags);

G_END_DECLS
