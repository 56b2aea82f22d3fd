/* Small helpers the binding files share: paths and input bytes. */
#include "module.h"

#include "../core/common/wk_file.h"

int
wk_fs_path (PyObject *obj, PyObject **out)
{
  *out = NULL;
  return PyUnicode_FSConverter (obj, out) ? 0 : -1;
}

GBytes *
wk_source_bytes (PyObject *source, GError **error)
{
  if (PyUnicode_Check (source) || PyObject_HasAttrString (source, "__fspath__"))
    {
      PyObject *path;
      if (wk_fs_path (source, &path) < 0)
        return NULL;
      GBytes *bytes;
      Py_BEGIN_ALLOW_THREADS
      bytes = wk_file_map (PyBytes_AS_STRING (path), error);
      Py_END_ALLOW_THREADS
      Py_DECREF (path);
      return bytes;
    }
  Py_buffer view;
  if (PyObject_GetBuffer (source, &view, PyBUF_SIMPLE) < 0)
    return NULL;
  GBytes *bytes = g_bytes_new (view.buf, (gsize) view.len);
  PyBuffer_Release (&view);
  return bytes;
}
