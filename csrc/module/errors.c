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

static int
wk_set_str_attr (PyObject *obj, const char *name, const char *value)
{
  PyObject *s = PyUnicode_FromString (value);
  int rc = s ? PyObject_SetAttrString (obj, name, s) : -1;
  Py_XDECREF (s);
  return rc;
}

/* The errno a GFileError stands for (GLib maps errno to these codes). */
static int
file_error_errno (gint code)
{
  switch (code)
    {
    case G_FILE_ERROR_EXIST: return EEXIST;
    case G_FILE_ERROR_ISDIR: return EISDIR;
    case G_FILE_ERROR_ACCES: return EACCES;
    case G_FILE_ERROR_NAMETOOLONG: return ENAMETOOLONG;
    case G_FILE_ERROR_NOENT: return ENOENT;
    case G_FILE_ERROR_NOTDIR: return ENOTDIR;
    case G_FILE_ERROR_NXIO: return ENXIO;
    case G_FILE_ERROR_NODEV: return ENODEV;
    case G_FILE_ERROR_ROFS: return EROFS;
    case G_FILE_ERROR_TXTBSY: return ETXTBSY;
    case G_FILE_ERROR_FAULT: return EFAULT;
    case G_FILE_ERROR_LOOP: return ELOOP;
    case G_FILE_ERROR_NOSPC: return ENOSPC;
    case G_FILE_ERROR_NOMEM: return ENOMEM;
    case G_FILE_ERROR_MFILE: return EMFILE;
    case G_FILE_ERROR_NFILE: return ENFILE;
    case G_FILE_ERROR_BADF: return EBADF;
    case G_FILE_ERROR_INVAL: return EINVAL;
    case G_FILE_ERROR_PIPE: return EPIPE;
    case G_FILE_ERROR_AGAIN: return EAGAIN;
    case G_FILE_ERROR_INTR: return EINTR;
    case G_FILE_ERROR_IO: return EIO;
    case G_FILE_ERROR_PERM: return EPERM;
    case G_FILE_ERROR_NOSYS: return ENOSYS;
    default: return 0;
    }
}

/* OSError subclass by errno, with .errno, .strerror (GLib's message, which
 * says what was done) and .filename (path, or None) set. */
static void
set_file_error (const GError *error, PyObject *path)
{
  PyObject *type = file_error_type (error->code);
  int e = file_error_errno (error->code);
  PyObject *exc = e ? PyObject_CallFunction (type, "isO", e, error->message,
                                             path ? path : Py_None)
                    : PyObject_CallFunction (type, "s", error->message);
  if (exc != NULL)
    {
      PyErr_SetObject ((PyObject *) Py_TYPE (exc), exc);
      Py_DECREF (exc);
    }
}

PyObject *
wk_raise_path (WkModState *st, GError *error, PyObject *path)
{
  if (error == NULL || error->domain != G_FILE_ERROR)
    return wk_raise (st, error);
  set_file_error (error, path);
  g_error_free (error);
  return NULL;
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
    set_file_error (error, NULL);
  else
    PyErr_SetString (PyExc_OSError, error->message);
  g_error_free (error);
  return NULL;
}

PyObject *
wk_raise_missing (WkModState *st, const char *chunk, const char *container)
{
  g_autofree gchar *msg = g_strdup_printf ("this level has no %s chunk", chunk);
  PyObject *exc = PyObject_CallFunction (st->MissingChunkError, "s", msg);
  if (exc == NULL)
    return NULL;
  if (PyObject_SetAttrString (exc, "offset", Py_None) == 0
      && wk_set_str_attr (exc, "context", container) == 0
      && wk_set_str_attr (exc, "chunk", chunk) == 0)
    PyErr_SetObject (st->MissingChunkError, exc);
  Py_DECREF (exc);
  return NULL;
}
