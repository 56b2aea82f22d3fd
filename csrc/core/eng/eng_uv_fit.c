#include "eng_uv_fit.h"

#include <math.h>

#include "../common/wk_num.h"

/* The corner-flag combinations that give different UVs; the quad halves
 * first (most faces of the originals use them). */
static const guint16 patterns[] = {
  WK_ENG_FACE_QUAD, WK_ENG_FACE_QUAD | WK_ENG_FACE_SECOND,
  WK_ENG_FACE_QUAD | WK_ENG_FACE_MIRROR_U,
  WK_ENG_FACE_QUAD | WK_ENG_FACE_SECOND | WK_ENG_FACE_MIRROR_U,
  0, WK_ENG_FACE_MIRROR_U,
};

static guint8
texel (double t)
{
  return wk_round_byte (t * 256.0);
}

gfloat
wk_eng_uv_error (const gfloat uv[3][2], const WkEngTexEntry *e,
                 guint16 face_flags)
{
  gfloat rect[4], got[3][2];
  wk_eng_tex_uv_rect (e, rect);
  wk_eng_face_uvs (rect, face_flags, got);
  gfloat err = 0;
  for (int k = 0; k < 3; k++)
    for (int c = 0; c < 2; c++)
      {
        gfloat d = fabsf (got[k][c] - uv[k][c]) * 256.0f;
        err = isnan (d) ? INFINITY : MAX (err, d);
      }
  return err;
}

void
wk_eng_uv_fit (const gfloat uv[3][2], WkEngUvFit *fit)
{
  /* Which corner gets U0/U1 and V0/V1 under each pattern: ask the rules
   * with the rectangle {U0=0, V0=0, U1=1, V1=1}. */
  static const gfloat probe[4] = { 0, 0, 1, 1 };
  fit->error = INFINITY;
  fit->flags = WK_ENG_FACE_QUAD;
  fit->u0 = fit->v0 = 0;
  fit->u1 = fit->v1 = 0;
  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
    {
      gfloat code[3][2];
      wk_eng_face_uvs (probe, patterns[p], code);
      double sum[2][2] = { { 0, 0 }, { 0, 0 } }; /* [axis][lo/hi] */
      int cnt[2][2] = { { 0, 0 }, { 0, 0 } };
      for (int k = 0; k < 3; k++)
        for (int c = 0; c < 2; c++)
          {
            int hi = code[k][c] > 0.5f;
            sum[c][hi] += uv[k][c];
            cnt[c][hi]++;
          }
      WkEngTexEntry e = { 0 };
      guint8 t[2][2];
      for (int c = 0; c < 2; c++)
        {
          double lo = cnt[c][0] ? sum[c][0] / cnt[c][0] : 0;
          double hi = cnt[c][1] ? sum[c][1] / cnt[c][1] : lo + 1.0 / 256;
          t[c][0] = texel (lo);
          /* hi edge is (last texel + 1)/256 */
          t[c][1] = wk_clamp_byte (round (hi * 256.0) - 1.0, t[c][0]);
        }
      e.u0 = t[0][0];
      e.u1 = t[0][1];
      e.v0 = t[1][0];
      e.v1 = t[1][1];
      gfloat err = wk_eng_uv_error (uv, &e, patterns[p]);
      if (err < fit->error)
        {
          fit->error = err;
          fit->flags = patterns[p];
          fit->u0 = e.u0;
          fit->u1 = e.u1;
          fit->v0 = e.v0;
          fit->v1 = e.v1;
        }
    }
}
