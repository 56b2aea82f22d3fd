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
  /* ndim < 0: any leading dimensions, then the -ndim of shape */
  const int want = ndim < 0 ? -ndim : ndim, lead = PyArray_NDIM (a) - want;
  gboolean ok = ndim < 0 ? lead >= 0 : lead == 0;
  for (int k = 0; ok && k < want; k++)
    ok = shape[k] == WK_ANY || PyArray_DIM (a, lead + k) == shape[k];
  if (ok)
    return 0;
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s: shape ", name);
  if (ndim < 0)
    {
      GString *tail = g_string_new (NULL);
      shape_text (tail, want, shape, TRUE);
      g_string_append_printf (s, "(..., %s", tail->str + 1);
      g_string_free (tail, TRUE);
    }
  else
    shape_text (s, ndim, shape, TRUE);
  g_string_append (s, " expected, got ");
  shape_text (s, PyArray_NDIM (a), PyArray_DIMS (a), FALSE);
  PyErr_SetString (PyExc_ValueError, s->str);
  g_string_free (s, TRUE);
  return -1;
}

/* -1 unless every value of the integer array a fits `to`. The values are
 * read as 64-bit (a copy; NumPy's min/max are not used: under memory
 * pressure they can fail without an exception). */
static int
check_range (PyArrayObject *a, const char *name, PyArray_Descr *to)
{
  const gboolean from_u64 = PyArray_TYPE (a) == NPY_UINT64
                            || (PyArray_TYPE (a) == NPY_ULONGLONG);
  PyArrayObject *wide = (PyArrayObject *) PyArray_FromArray (
      a, PyArray_DescrFromType (from_u64 ? NPY_UINT64 : NPY_INT64),
      NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
  if (wide == NULL)
    return -1;
  const gboolean is_signed = PyTypeNum_ISSIGNED (to->type_num);
  const int bits = 8 * (int) PyDataType_ELSIZE (to);
  const gint64 min = is_signed ? (bits >= 64 ? G_MININT64 : -((gint64) 1 << (bits - 1))) : 0;
  const guint64 max = bits >= 64 ? (is_signed ? (guint64) G_MAXINT64 : G_MAXUINT64)
                                 : ((guint64) 1 << (bits - is_signed)) - 1;
  const npy_intp n = PyArray_SIZE (wide);
  npy_intp bad = -1;
  for (npy_intp i = 0; i < n && bad < 0; i++)
    if (from_u64 ? ((const guint64 *) PyArray_DATA (wide))[i] > max
                 : (((const gint64 *) PyArray_DATA (wide))[i] < min
                    || (((const gint64 *) PyArray_DATA (wide))[i] >= 0
                        && (guint64) ((const gint64 *) PyArray_DATA (wide))[i] > max)))
      bad = i;
  if (bad >= 0)
    {
      g_autofree gchar *value = from_u64
          ? g_strdup_printf ("%" G_GUINT64_FORMAT, ((const guint64 *) PyArray_DATA (wide))[bad])
          : g_strdup_printf ("%" G_GINT64_FORMAT, ((const gint64 *) PyArray_DATA (wide))[bad]);
      PyErr_Format (PyExc_ValueError, "%s: value %s (item %zd) does not fit %S "
                    "(%" G_GINT64_FORMAT "..%" G_GUINT64_FORMAT ")", name, value,
                    (Py_ssize_t) bad, (PyObject *) to, min, max);
    }
  Py_DECREF (wide);
  return bad >= 0 ? -1 : 0;
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
  /* an empty array has no value to lose: [] (float64 to NumPy) is fine */
  if (!within_kind && !int_to_int && PyArray_SIZE (src) > 0)
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
