/* WadWarning, issued at the user's line: the first caller outside the
 * wadkit package (not the glue line in wadkit/ that called the binding). */
#include "module.h"

/* PyErr_WarnEx's stacklevel of the innermost Python frame whose file is
 * not under st->package_dir (1 = the frame that called the binding); -1
 * with an exception when a frame object could not be made. */
static int
user_stacklevel (WkModState *st)
{
  int level = 1;
  if (st->package_dir == NULL)
    return level;
  PyFrameObject *f = PyEval_GetFrame (); /* borrowed; may be made now */
  if (f == NULL)
    return PyErr_Occurred () ? -1 : level;
  Py_INCREF (f);
  for (;;)
    {
      PyCodeObject *code = PyFrame_GetCode (f);
      PyObject *file = PyObject_GetAttrString ((PyObject *) code, "co_filename");
      Py_DECREF (code);
      Py_ssize_t inside = file == NULL ? -1 : !PyUnicode_Check (file) ? 0
          : PyUnicode_Tailmatch (file, st->package_dir, 0, PY_SSIZE_T_MAX, -1);
      Py_XDECREF (file);
      PyFrameObject *back = inside == 1 ? PyFrame_GetBack (f) : NULL;
      Py_DECREF (f);
      if (inside < 0 || (back == NULL && PyErr_Occurred ()))
        return -1;
      if (back == NULL)
        return level;
      f = back;
      level++;
    }
}

int
wk_warn_user (WkModState *st, const char *message)
{
  int level = user_stacklevel (st);
  return level < 0 ? -1 : PyErr_WarnEx (st->WadWarning, message, level);
}

int
wk_warn_all (WkModState *st, GPtrArray *warnings)
{
  for (guint i = 0; warnings && i < warnings->len; i++)
    if (wk_warn_user (st, g_ptr_array_index (warnings, i)) < 0)
      return -1;
  return 0;
}

static PyObject *
warn (PyObject *module, PyObject *arg)
{
  const char *message = PyUnicode_AsUTF8 (arg);
  if (message == NULL)
    return NULL;
  if (wk_warn_user (wk_state_from_module (module), message) < 0)
    return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef warn_methods[] = {
  { "warn", warn, METH_O,
    "warn(message, /): a WadWarning at the first caller outside the wadkit "
    "package (the line of the user's code that led to it)" },
  { NULL },
};

int
wk_warn_register (PyObject *module, WkModState *st)
{
  /* the package folder, with its separator: the folder _core lies in */
  PyObject *file = PyModule_GetFilenameObject (module);
  if (file == NULL)
    PyErr_Clear (); /* no __file__ (embedded): warn at the caller */
  else
    {
      PyObject *os_path = PyImport_ImportModule ("os.path");
      PyObject *dir = os_path ? PyObject_CallMethod (os_path, "dirname", "O", file) : NULL;
      PyObject *sep = os_path ? PyObject_GetAttrString (os_path, "sep") : NULL;
      st->package_dir = dir && sep ? PyUnicode_Concat (dir, sep) : NULL;
      Py_XDECREF (os_path);
      Py_XDECREF (dir);
      Py_XDECREF (sep);
      Py_DECREF (file);
      if (st->package_dir == NULL)
        return -1;
    }
  return PyModule_AddFunctions (module, warn_methods);
}
