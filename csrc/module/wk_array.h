/* The ONE way a binding takes an input array (arrays.c). */
#pragma once
#include "module.h"
#include "wk_numpy.h"

/* Any dimension size (in a wk_array_arg shape). */
#define WK_ANY ((npy_intp) -1)

/* Take the argument obj, called name in errors, as an aligned C-contiguous
 * array of NumPy type `type` with ndim dimensions; shape[k] is the size
 * dimension k must have, or WK_ANY. Any array-like is accepted (a list, an
 * array of another dtype or order, a view); it is converted, and copied
 * only when its dtype or memory order differ from what is asked. Refused:
 *   - a dtype that does not convert to `type` within its kind (float to
 *     float, int to float and int to int are fine; float to int, complex,
 *     strings and objects are not; an empty array of any dtype is fine):
 *     TypeError naming the argument;
 *   - integers that do not fit `type`: ValueError naming the argument;
 *   - the wrong number of dimensions or a wrong size: ValueError naming
 *     the argument with the shape expected and the shape given.
 * ndim < 0: any number of leading dimensions, then the -ndim of shape
 * ("(..., 4, 4)").
 * optional: None gives *out = NULL and 0. Returns 0, or -1 with an
 * exception set; *out is a new reference (or NULL). */
int wk_array_arg (PyObject *obj, const char *name, int type, int ndim,
                  const npy_intp *shape, gboolean optional, PyArrayObject **out);

/* Release arrays taken by wk_array_arg (NULL entries are skipped). */
void wk_array_release (PyArrayObject **arrays, gsize n);

/* The data of an array taken by wk_array_arg, or NULL for a missing one. */
static inline void *
wk_array_data (PyArrayObject *a)
{
  return a ? PyArray_DATA (a) : NULL;
}

/* Dimension k of an array taken by wk_array_arg (0 for a missing one). */
static inline npy_intp
wk_array_dim (PyArrayObject *a, int k)
{
  return a ? PyArray_DIM (a, k) : 0;
}
