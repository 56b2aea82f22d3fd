/* Input arrays of every binding, taken one way (wk_array.h). */
#include "wk_array.h"

static gboolean
is_integer (int type)
{
  return PyTypeNum_ISINTEGER (type) || PyTypeNum_ISBOOL (type);
}

/* Re-raise the pending exception as the same type with "name: " before
 * its message. */
static void
prefix_error (const char *name)
{
  PyObject *type, *value, *tb;
  PyErr_Fetch (&type, &value, &tb);
  PyErr_NormalizeException (&type, &value, &tb);
  if (type != NULL && PyExceptionClass_Check (type)
      && (PyErr_GivenExceptionMatches (type, PyExc_TypeError)
          || PyErr_GivenExceptionMatches (type, PyExc_ValueError)))
    {
      PyErr_Format (PyErr_GivenExceptionMatches (type, PyExc_TypeError)
                        ? PyExc_TypeError : PyExc_ValueError,
                    "%s: %S", name, value);
      Py_XDECREF (type);
      Py_XDECREF (value);
      Py_XDECREF (tb);
      return;
    }
  PyErr_Restore (type, value, tb); /* MemoryError and the like: as they are */
}

static void
shape_text (GString *s, int ndim, const npy_intp *dims, gboolean pattern)
{
  g_string_append_c (s, '(');
  for (int k = 0; k < ndim; k++)
    {
      if (k)
        g_string_append (s, ", ");
      if (pattern && dims[k] == WK_ANY)
        g_string_append_c (s, 'n');
      else
        g_string_append_printf (s, "%" G_GINT64_FORMAT, (gint64) dims[k]);
    }
  g_string_append (s, ndim == 1 ? ",)" : ")");
}

static int
check_shape (PyArrayObject *a, const char *name, int ndim, const npy_intp *shape)
{
  gboolean ok = PyArray_NDIM (a) == ndim;
  for (int k = 0; ok && k < ndim; k++)
    ok = shape[k] == WK_ANY || PyArray_DIM (a, k) == shape[k];
  if (ok)
    return 0;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s: shape ", name);
  shape_text (s, ndim, shape, TRUE);
  g_string_append (s, " expected, got ");
  shape_text (s, PyArray_NDIM (a), PyArray_DIMS (a), FALSE);
  PyErr_SetString (PyExc_ValueError, s->str);
  g_string_free (s, TRUE);
  return -1;
}

/* -1 unless every value of the integer array a fits `to`. */
static int
check_range (PyArrayObject *a, const char *name, PyArray_Descr *to)
{
  if (PyArray_SIZE (a) == 0)
    return 0;
  gboolean is_signed = PyTypeNum_ISSIGNED (to->type_num);
  int bits = 8 * (int) PyDataType_ELSIZE (to);
  /* as Python ints, which compare without overflow */
  PyObject *min = is_signed ? PyLong_FromLongLong (bits >= 64 ? G_MININT64
                                                   : -((gint64) 1 << (bits - 1)))
                            : PyLong_FromLong (0);
  PyObject *max = bits < 64 ? PyLong_FromLongLong (((gint64) 1 << (bits - is_signed)) - 1)
                  : is_signed ? PyLong_FromLongLong (G_MAXINT64)
                              : PyLong_FromUnsignedLongLong (G_MAXUINT64);
  PyObject *lo = PyArray_Min (a, NPY_RAVEL_AXIS, NULL);
  PyObject *hi = PyArray_Max (a, NPY_RAVEL_AXIS, NULL);
  PyObject *lo_i = lo ? PyNumber_Long (lo) : NULL;
  PyObject *hi_i = hi ? PyNumber_Long (hi) : NULL;
  int rc = -1;
  if (min && max && lo_i && hi_i)
    {
      int below = PyObject_RichCompareBool (lo_i, min, Py_LT);
      int above = PyObject_RichCompareBool (hi_i, max, Py_GT);
      if (below == 0 && above == 0)
        rc = 0;
      else if (below >= 0 && above >= 0)
        PyErr_Format (PyExc_ValueError, "%s: values %S..%S do not fit %S "
                      "(%S..%S)", name, lo_i, hi_i, (PyObject *) to, min, max);
    }
  Py_XDECREF (min);
  Py_XDECREF (max);
  Py_XDECREF (lo);
  Py_XDECREF (hi);
  Py_XDECREF (lo_i);
  Py_XDECREF (hi_i);
  return rc;
}

int
wk_array_arg (PyObject *obj, const char *name, int type, int ndim,
              const npy_intp *shape, gboolean optional, PyArrayObject **out)
{
  *out = NULL;
  if (obj == Py_None)
    {
      if (optional)
        return 0;
      PyErr_Format (PyExc_TypeError, "%s: an array is needed, not None", name);
      return -1;
    }
  PyArrayObject *src = (PyArrayObject *) PyArray_FromAny (obj, NULL, 0, 0, 0, NULL);
  if (src == NULL)
    {
      prefix_error (name);
      return -1;
    }
  PyArray_Descr *to = PyArray_DescrFromType (type);
  if (to == NULL)
    {
      Py_DECREF (src);
      return -1;
    }
  int from = PyArray_TYPE (src);
  gboolean within_kind = PyArray_CanCastTypeTo (PyArray_DESCR (src), to,
                                                NPY_SAME_KIND_CASTING);
  gboolean int_to_int = is_integer (from) && is_integer (type)
                        && !PyTypeNum_ISBOOL (type);
  int rc = 0;
  if (!within_kind && !int_to_int)
    {
      PyErr_Format (PyExc_TypeError, "%s: an array of %S cannot be converted "
                    "to %S", name, (PyObject *) PyArray_DESCR (src),
                    (PyObject *) to);
      rc = -1;
    }
  if (rc == 0)
    rc = check_shape (src, name, ndim, shape);
  /* int64 -> int32 is "same kind" to NumPy, but would wrap */
  if (rc == 0 && int_to_int
      && !PyArray_CanCastTypeTo (PyArray_DESCR (src), to, NPY_SAFE_CASTING))
    rc = check_range (src, name, to);
  if (rc < 0)
    {
      Py_DECREF (to);
      Py_DECREF (src);
      return -1;
    }
  /* steals `to`; returns src itself when nothing needs to change */
  *out = (PyArrayObject *) PyArray_FromArray (
      src, to, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
  Py_DECREF (src);
  return *out ? 0 : -1;
}

void
wk_array_release (PyArrayObject **arrays, gsize n)
{
  for (gsize i = 0; i < n; i++)
    Py_CLEAR (arrays[i]);
}
