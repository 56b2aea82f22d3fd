/* Small double-precision 3-vector helpers shared by the geometry code. */
#pragma once
#include <math.h>

static inline void
wk_vec_sub (const double a[3], const double b[3], double out[3])
{
  for (int k = 0; k < 3; k++)
    out[k] = a[k] - b[k];
}

static inline double
wk_vec_dot (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void
wk_vec_cross (const double a[3], const double b[3], double out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double
wk_vec_norm (const double a[3])
{
  return sqrt (wk_vec_dot (a, a));
}

/* Newell normal of a polygon of n corners: twice its area vector, by the
 * right-hand rule over the corners in order. */
static inline void
wk_vec_newell (const double c[][3], unsigned n, double out[3])
{
  out[0] = out[1] = out[2] = 0.0;
  for (unsigned i = 0; i < n; i++)
    {
      const double *a = c[i], *b = c[(i + 1) % n];
      out[0] += (a[1] - b[1]) * (a[2] + b[2]);
      out[1] += (a[2] - b[2]) * (a[0] + b[0]);
      out[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
}
