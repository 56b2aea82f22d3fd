/* GError -> Python exception, in one place. */
#include "module.h"

#include <errno.h>

#include "../core/common/wk_error.h"

static PyObject *
file_error_type (gint code)
{
  switch (code)
    {
    case G_FILE_ERROR_NOENT: return PyExc_FileNotFoundError;
    case G_FILE_ERROR_EXIST: return PyExc_FileExistsError;
    case G_FILE_ERROR_ISDIR: return PyExc_IsADirectoryError;
    case G_FILE_ERROR_NOTDIR: return PyExc_NotADirectoryError;
    case G_FILE_ERROR_ACCES:
    case G_FILE_ERROR_PERM: return PyExc_PermissionError;
    default: return PyExc_OSError;
    }
}

/* .tile .model .vertex (int or None) and .object (str or None) of a
 * FormatError/LimitError, from the error's structured fields. */
static int
set_where (PyObject *exc, const GError *error)
{
  static const char *const names[3] = { "tile", "model", "vertex" };
  const gint64 v[3] = { wk_error_tile (error), wk_error_model (error),
                        wk_error_vertex (error) };
  for (int k = 0; k < 3; k++)
    {
      PyObject *o = v[k] >= 0 ? PyLong_FromLongLong (v[k]) : Py_NewRef (Py_None);
      int rc = o ? PyObject_SetAttrString (exc, names[k], o) : -1;
      Py_XDECREF (o);
      if (rc < 0)
        return -1;
    }
  const char *name = wk_error_object (error);
  PyObject *o = name ? PyUnicode_DecodeUTF8 (name, (Py_ssize_t) strlen (name),
                                             "replace")
                     : Py_NewRef (Py_None);
  int rc = o ? PyObject_SetAttrString (exc, "object", o) : -1;
  Py_XDECREF (o);
  return rc;
}

static PyObject *
format_error (WkModState *st, PyObject *type, const GError *error)
{
  PyObject *exc = PyObject_CallFunction (type, "s", error->message);
  if (exc == NULL)
    return NULL;
  gint64 off = wk_error_offset (error);
  PyObject *offset = off >= 0 ? PyLong_FromLongLong (off) : Py_NewRef (Py_None);
  PyObject *context = PyUnicode_FromString (wk_error_context (error));
  if (offset == NULL || context == NULL
      || PyObject_SetAttrString (exc, "offset", offset) < 0
      || PyObject_SetAttrString (exc, "context", context) < 0
      || set_where (exc, error) < 0)
    Py_CLEAR (exc);
  Py_XDECREF (offset);
  Py_XDECREF (context);
  (void) st;
  return exc;
}

PyObject *
wk_raise (WkModState *st, GError *error)
{
  if (error == NULL)
    {
      PyErr_SetString (PyExc_SystemError, "wadkit: failure without an error");
      return NULL;
    }
  if (error->domain == WK_ERROR)
    {
      PyObject *type = error->code == WK_ERROR_FORMAT ? st->FormatError
                       : error->code == WK_ERROR_LIMIT ? st->LimitError
                                                       : PyExc_ValueError;
      if (type == PyExc_ValueError)
        PyErr_SetString (type, error->message);
      else
        {
          PyObject *exc = format_error (st, type, error);
          if (exc != NULL)
            {
              PyErr_SetObject (type, exc);
              Py_DECREF (exc);
            }
        }
    }
  else if (error->domain == G_FILE_ERROR)
    PyErr_SetString (file_error_type (error->code), error->message);
  else
    PyErr_SetString (PyExc_OSError, error->message);
  g_error_free (error);
  return NULL;
}

int
wk_warn_all (WkModState *st, GPtrArray *warnings)
{
  for (guint i = 0; warnings && i < warnings->len; i++)
    if (PyErr_WarnEx (st->WadWarning, g_ptr_array_index (warnings, i), 1) < 0)
      return -1;
  return 0;
}
