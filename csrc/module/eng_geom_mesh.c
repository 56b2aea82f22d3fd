/* wadkit._core.EngGeometry: world_mesh(), the whole level as one mesh. */
#include "eng_geom.h"

/* ---- world mesh ---- */

PyObject *
geom_world_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "space", "texture_table", "color_set", NULL };
  const char *s = "file";
  PyObject *table = Py_None;
  unsigned int color_set = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "|sOI:world_mesh", kwlist, &s,
                                    &table, &color_set))
    return NULL;
  WkEngSpace space;
  if (wk_space_arg (s, &space) < 0)
    return NULL;
  if (g->map == NULL)
    return no_chunk (g, "MAP");
  WkModState *st = geom_state (g);
  if (st == NULL)
    return NULL;
  g_autofree WkEngTexEntry *entries = NULL;
  guint n_entries = 0;
  if (geom_texture_table (table, &entries, &n_entries) < 0)
    return NULL;
  gsize nv, nt;
  GError *size_error = NULL;
  if (!wk_eng_world_mesh_size (g->trak, g->map, &nv, &nt, &size_error))
    return wk_raise (st, size_error);
  PyObject *arr[8] = {
    new_array (2, (npy_intp) nv, 3, 1, 1, NPY_FLOAT32),
    new_array (2, (npy_intp) nt, 3, 1, 1, NPY_UINT32),
    new_array (3, (npy_intp) nt, 3, 2, 1, NPY_FLOAT32),
    new_array (3, (npy_intp) nt, 3, 4, 1, NPY_FLOAT32),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_INT32),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_INT32),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_UINT16),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_INT32),
  };
  static const char *const names[8] = { "positions", "triangles", "uv", "color",
                                        "texture", "page", "face_flags", "tile" };
  PyObject *d = PyDict_New ();
  for (int k = 0; k < 8; k++)
    if (arr[k] == NULL || d == NULL)
      goto fail;
  WkEngMeshOut out = {
    PyArray_DATA ((PyArrayObject *) arr[0]), PyArray_DATA ((PyArrayObject *) arr[1]),
    PyArray_DATA ((PyArrayObject *) arr[2]), PyArray_DATA ((PyArrayObject *) arr[3]),
    PyArray_DATA ((PyArrayObject *) arr[4]), PyArray_DATA ((PyArrayObject *) arr[5]),
    PyArray_DATA ((PyArrayObject *) arr[6]), PyArray_DATA ((PyArrayObject *) arr[7]),
  };
  GError *error = NULL;
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  ok = wk_eng_world_mesh_fill (g->trak, g->map, entries, n_entries, space,
                               color_set, &out, &error);
  Py_END_ALLOW_THREADS
  if (!ok)
    {
      wk_raise (st, error);
      goto fail;
    }
  for (int k = 0; k < 8; k++)
    {
      int rc = PyDict_SetItemString (d, names[k], arr[k]);
      Py_CLEAR (arr[k]);
      if (rc < 0)
        goto fail;
    }
  return d;
fail:
  for (int k = 0; k < 8; k++)
    Py_XDECREF (arr[k]);
  Py_XDECREF (d);
  return NULL;
}
