/* wadkit._core: ENG vertex colour bytes <-> the values the world mesh shows
 * (the rule lives in csrc/core/eng/eng_world.c; docs/formats/eng.md "MAP
 * tile part"). */
#include "module.h"
#include "wk_array.h"

#include "../core/eng/eng_world.h"

static const npy_intp rows4[2] = { WK_ANY, 4 };

static PyObject *
colors_to_display (PyObject *module, PyObject *arg)
{
  (void) module;
  PyArrayObject *b;
  if (wk_array_arg (arg, "colors", NPY_UINT8, 2, rows4, FALSE, &b) < 0)
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
  PyArrayObject *rgba = NULL, *cur = NULL, *out = NULL;
  if (wk_array_arg (rgba_obj, "rgba", NPY_FLOAT32, 2, rows4, FALSE, &rgba) == 0)
    {
      const npy_intp same[2] = { PyArray_DIM (rgba, 0), 4 };
      wk_array_arg (cur_obj, "current", NPY_UINT8, 2, same, FALSE, &cur);
    }
  if (cur != NULL)
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
