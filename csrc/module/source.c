/* Small helpers the binding files share: paths, input bytes, results. */
#include "module.h"

#include "../core/common/wk_file.h"

int
wk_fs_path (PyObject *obj, PyObject **out)
{
  *out = NULL;
  return PyUnicode_FSConverter (obj, out) ? 0 : -1;
}

GBytes *
wk_source_bytes (PyObject *source)
{
  /* a str or anything without the buffer protocol is a path (str,
   * os.PathLike; FSConverter refuses the rest) */
  if (PyUnicode_Check (source) || !PyObject_CheckBuffer (source))
    {
      PyObject *path;
      if (wk_fs_path (source, &path) < 0)
        return NULL;
      GBytes *bytes;
      GError *error = NULL;
      Py_BEGIN_ALLOW_THREADS
      bytes = wk_file_map (PyBytes_AS_STRING (path), &error);
      Py_END_ALLOW_THREADS
      Py_DECREF (path);
      if (bytes == NULL)
        wk_raise_path (NULL, error, source);
      return bytes;
    }
  return wk_shared_bytes (NULL, source);
}

int
wk_dict_put (PyObject *dict, const char *key, PyObject *value)
{
  if (value == NULL)
    return -1;
  int rc = PyDict_SetItemString (dict, key, value);
  Py_DECREF (value);
  return rc;
}

PyObject *
wk_bytes_result (WkModState *st, GBytes *out, GError *error)
{
  if (out == NULL)
    return wk_raise (st, error);
  gsize size;
  const void *data = g_bytes_get_data (out, &size);
  PyObject *b = PyBytes_FromStringAndSize (data, (Py_ssize_t) size);
  g_bytes_unref (out);
  return b;
}

int
wk_bytes_getbuffer (PyObject *owner, GBytes *bytes, Py_buffer *view, int flags)
{
  gsize size = 0;
  const void *data = g_bytes_get_data (bytes, &size);
  return PyBuffer_FillInfo (view, owner, (void *) data, (Py_ssize_t) size, 1,
                            flags);
}

PyObject *
wk_list_of (guint n, WkItemFunc item, gconstpointer data)
{
  PyObject *list = PyList_New (n);
  for (guint i = 0; list && i < n; i++)
    {
      PyObject *v = item (data, i);
      if (v == NULL)
        Py_CLEAR (list); /* a list with NULL slots is freed safely */
      else
        PyList_SET_ITEM (list, i, v);
    }
  return list;
}

static PyObject *
str_item (gconstpointer strings, guint i)
{
  return PyUnicode_FromString (g_ptr_array_index ((GPtrArray *) strings, i));
}

PyObject *
wk_str_list (const GPtrArray *strings)
{
  return wk_list_of (strings ? strings->len : 0, str_item, strings);
}
