/* wadkit._core: ENG STPC bone matrices as stored -> matrices on column
 * vectors in file or export space (the rule lives in
 * csrc/core/eng/eng_stpc.c; docs/formats/eng.md "STPC animations"). */
#include "module.h"
#include "wk_numpy.h"

#include "../core/eng/eng_stpc.h"

static PyObject *
bone_matrices (PyObject *module, PyObject *args, PyObject *kwds)
{
  (void) module;
  static char *kwlist[] = { "matrices", "space", NULL };
  PyObject *obj;
  const char *space = "file";
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "O|s:eng_bone_matrices", kwlist,
                                    &obj, &space))
    return NULL;
  gboolean file_space = strcmp (space, "file") == 0;
  if (!file_space && strcmp (space, "export") != 0)
    {
      PyErr_Format (PyExc_ValueError, "space must be 'file' or 'export', not '%s'",
                    space);
      return NULL;
    }
  PyArrayObject *a = (PyArrayObject *) PyArray_FROMANY (
      obj, NPY_FLOAT32, 2, NPY_MAXDIMS, NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST);
  if (a == NULL)
    return NULL;
  int nd = PyArray_NDIM (a);
  if (PyArray_DIM (a, nd - 1) != 4 || PyArray_DIM (a, nd - 2) != 4)
    {
      PyErr_SetString (PyExc_ValueError, "matrices must have shape (..., 4, 4)");
      Py_DECREF (a);
      return NULL;
    }
  PyArrayObject *out = (PyArrayObject *) PyArray_SimpleNew (nd, PyArray_DIMS (a),
                                                            NPY_FLOAT32);
  if (out != NULL)
    {
      const gfloat *src = PyArray_DATA (a);
      gfloat *dst = PyArray_DATA (out);
      gsize n = (gsize) PyArray_SIZE (a) / 16;
      for (gsize k = 0; k < n; k++)
        wk_eng_bone_matrix (src + 16 * k, file_space,
                            (gfloat (*)[4]) (dst + 16 * k));
    }
  Py_DECREF (a);
  return (PyObject *) out;
}

static PyMethodDef eng_anim_functions[] = {
  { "eng_bone_matrices", (PyCFunction) (void (*) (void)) bone_matrices,
    METH_VARARGS | METH_KEYWORDS,
    "eng_bone_matrices(matrices (..., 4, 4) as stored, space='file') -> "
    "(..., 4, 4) float32 matrices on column vectors (p' = M @ (p, 1))" },
  { NULL },
};

int
wk_eng_anim_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, eng_anim_functions);
}
