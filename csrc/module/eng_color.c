/* wadkit._core: ENG vertex colour bytes <-> the values the world mesh shows
 * (the rule lives in csrc/core/eng/eng_world.c; docs/formats/eng.md "MAP
 * tile part"). */
#include "module.h"
#include "wk_numpy.h"

#include "../core/eng/eng_world.h"

/* obj as a C-contiguous (n, 4) array of type; NULL with TypeError/ValueError
 * naming the argument. */
static PyArrayObject *
rows4 (PyObject *obj, int type, const char *name)
{
  PyArrayObject *a = (PyArrayObject *) PyArray_FROMANY (obj, type, 2, 2,
                                                        NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
  if (a == NULL)
    return NULL;
  if (PyArray_DIM (a, 1) != 4)
    {
      PyErr_Format (PyExc_ValueError, "%s must have shape (n, 4), not (%zd, %zd)", name,
                    (Py_ssize_t) PyArray_DIM (a, 0), (Py_ssize_t) PyArray_DIM (a, 1));
      Py_DECREF (a);
      return NULL;
    }
  return a;
}

static PyObject *
colors_to_display (PyObject *module, PyObject *arg)
{
  (void) module;
  PyArrayObject *b = rows4 (arg, NPY_UINT8, "colors");
  if (b == NULL)
    return NULL;
  npy_intp dims[2] = { PyArray_DIM (b, 0), 4 };
  PyArrayObject *out = (PyArrayObject *) PyArray_SimpleNew (2, dims, NPY_FLOAT32);
  if (out != NULL)
    wk_eng_colors_to_display (PyArray_DATA (b), (gsize) dims[0], PyArray_DATA (out));
  Py_DECREF (b);
  return (PyObject *) out;
}

static PyObject *
colors_from_display (PyObject *module, PyObject *args)
{
  (void) module;
  PyObject *rgba_obj, *cur_obj;
  if (!PyArg_ParseTuple (args, "OO:eng_colors_from_display", &rgba_obj, &cur_obj))
    return NULL;
  PyArrayObject *rgba = rows4 (rgba_obj, NPY_FLOAT32, "rgba");
  PyArrayObject *cur = rgba ? rows4 (cur_obj, NPY_UINT8, "current") : NULL;
  PyArrayObject *out = NULL;
  if (cur != NULL && PyArray_DIM (cur, 0) != PyArray_DIM (rgba, 0))
    PyErr_Format (PyExc_ValueError, "rgba has %zd rows, current %zd",
                  (Py_ssize_t) PyArray_DIM (rgba, 0), (Py_ssize_t) PyArray_DIM (cur, 0));
  else if (cur != NULL)
    {
      npy_intp dims[2] = { PyArray_DIM (rgba, 0), 4 };
      out = (PyArrayObject *) PyArray_SimpleNew (2, dims, NPY_UINT8);
      if (out != NULL)
        wk_eng_colors_from_display (PyArray_DATA (rgba), PyArray_DATA (cur),
                                    (gsize) dims[0], PyArray_DATA (out));
    }
  Py_XDECREF (rgba);
  Py_XDECREF (cur);
  return (PyObject *) out;
}

static PyMethodDef eng_color_functions[] = {
  { "eng_colors_to_display", colors_to_display, METH_O,
    "eng_colors_to_display(colors (n, 4) uint8) -> (n, 4) float32: vertex "
    "colour bytes as the world mesh shows them (byte/128 clamped to 1, alpha 1)" },
  { "eng_colors_from_display", colors_from_display, METH_VARARGS,
    "eng_colors_from_display(rgba (n, 4) float32, current (n, 4) uint8) -> (n, 4) "
    "uint8: display values back to bytes; a channel still showing its current "
    "byte keeps it, byte 3 is always kept" },
  { NULL },
};

int
wk_eng_color_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, eng_color_functions);
}
