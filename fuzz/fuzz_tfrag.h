/* Phase 2 of the tfrag parse for the harnesses: the arrays wk_tfrags_fill
 * writes, allocated to the sizes phase 1 measured. */
#pragma once
#include "core/rc2/tfrag.h"

typedef struct {
  WkTfragOut out;
  gsize nv, nt;
} WkFuzzTfrag;

static inline void
wk_fuzz_tfrag_fill (const WkTfrags *t, WkFuzzTfrag *f)
{
  f->nv = t->n_positions;
  f->nt = t->n_tris;
  f->out = (WkTfragOut) {
    .positions = g_new (gfloat, f->nv * 3 + 1),
    .triangles = g_new (guint32, f->nt * 3 + 1),
    .uv = g_new (gfloat, f->nt * 6 + 1),
    .color = g_new (gfloat, f->nt * 12 + 1),
    .texture = g_new (gint32, f->nt + 1),
    .patch = g_new (gint32, f->nt + 1),
  };
  wk_tfrags_fill (t, &f->out);
}

static inline void
wk_fuzz_tfrag_clear (WkFuzzTfrag *f)
{
  g_free (f->out.positions);
  g_free (f->out.triangles);
  g_free (f->out.uv);
  g_free (f->out.color);
  g_free (f->out.texture);
  g_free (f->out.patch);
}
