/* Float → small integer conversions that are defined for every input:
 * the clamping happens in floating point, so no NaN, infinity or huge value
 * ever reaches an integer conversion (which would be undefined or give an
 * unspecified value). */
#pragma once
#include <glib.h>
#include <math.h>

/* A whole number v (already rounded) clamped to lo..255; NaN gives lo. */
static inline guint8
wk_clamp_byte (double v, guint8 lo)
{
  if (!(v > lo))
    return lo;
  return v >= 255.0 ? 255 : (guint8) v;
}

/* round (v) clamped to 0..255; NaN gives 0. */
static inline guint8
wk_round_byte (double v)
{
  return wk_clamp_byte (round (v), 0);
}
