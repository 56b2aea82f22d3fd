/* wadkit._core: ENG STPC bone matrices as stored -> matrices on column
 * vectors in file or export space (the rule lives in
 * csrc/core/eng/eng_stpc.c; docs/formats/eng.md "STPC animations"). */
#include "module.h"
#include "eng_space_arg.h"
#include "wk_array.h"

#include "../core/eng/eng_stpc.h"

static PyObject *
bone_matrices (PyObject *module, PyObject *args, PyObject *kwds)
{
  (void) module;
  static char *kwlist[] = { "matrices", "space", NULL };
  PyObject *obj;
  const char *space_name = NULL;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "O|s:eng_bone_matrices", kwlist,
                                    &obj, &space_name))
    return NULL;
  WkEngSpace space;
  PyArrayObject *a;
  static const npy_intp m44[2] = { 4, 4 };
  if (wk_space_arg (space_name, &space) < 0
      || wk_array_arg (obj, "matrices", NPY_FLOAT32, -2, m44, FALSE, &a) < 0)
    return NULL;
  PyArrayObject *out = (PyArrayObject *) PyArray_SimpleNew (PyArray_NDIM (a),
                                                            PyArray_DIMS (a), NPY_FLOAT32);
  if (out != NULL)
    {
      const gfloat *src = PyArray_DATA (a);
      gfloat *dst = PyArray_DATA (out);
      gsize n = (gsize) PyArray_SIZE (a) / 16;
      for (gsize k = 0; k < n; k++)
        wk_eng_bone_matrix (src + 16 * k, space == WK_ENG_SPACE_FILE,
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
