/* wadkit._core.EngGeometry: tiles() and zones() (the MAP tile part). */
#include "eng_geom.h"

/* ---- tiles and zones ---- */

PyObject *
geom_tiles (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "space", NULL };
  const char *s = "file";
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "|s:tiles", kwlist, &s))
    return NULL;
  WkEngSpace space;
  if (wk_space_arg (s, &space) < 0)
    return NULL;
  const WkEngMap *m = g->map;
  if (m == NULL)
    return no_chunk (g, "MAP");
  npy_intp n = m->n;
  PyObject *d = PyDict_New ();
  if (d == NULL)
    return NULL;
  PyObject *pos = new_array (2, n, 3, 1, 1, NPY_FLOAT32);
  PyObject *apos = new_array (2, n, 3, 1, 1, NPY_FLOAT32);
  PyObject *rot = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *arot = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *amodel = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *anim = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *cellxz = new_array (2, n, 2, 1, 1, NPY_INT32);
  PyObject *swaps = new_array (2, m->n_swaps, 5, 1, 1, NPY_UINT32);
  if (!pos || !apos || !rot || !arot || !amodel || !anim || !cellxz || !swaps)
    {
      Py_XDECREF (pos); Py_XDECREF (apos); Py_XDECREF (rot); Py_XDECREF (arot);
      Py_XDECREF (amodel); Py_XDECREF (anim); Py_XDECREF (cellxz); Py_XDECREF (swaps);
      Py_DECREF (d);
      return NULL;
    }
  gfloat *p = PyArray_DATA ((PyArrayObject *) pos);
  gfloat *ap = PyArray_DATA ((PyArrayObject *) apos);
  guint32 *r = PyArray_DATA ((PyArrayObject *) rot);
  guint32 *ar = PyArray_DATA ((PyArrayObject *) arot);
  guint32 *am = PyArray_DATA ((PyArrayObject *) amodel);
  guint32 *an = PyArray_DATA ((PyArrayObject *) anim);
  gint32 *cx = PyArray_DATA ((PyArrayObject *) cellxz);
  wk_eng_tile_positions (m, space, p);
  for (npy_intp i = 0; i < n; i++)
    {
      ap[3 * i] = m->a[i].x;
      ap[3 * i + 1] = m->a[i].y;
      ap[3 * i + 2] = m->a[i].z;
      r[i] = (guint32) m->b[i][1];
      ar[i] = m->a[i].rot;
      am[i] = m->a[i].model;
      an[i] = m->a[i].anim;
      cx[2 * i] = m->cell[i] % (gint32) MAX (m->w, 1);
      cx[2 * i + 1] = m->cell[i] / (gint32) MAX (m->w, 1);
    }
  guint32 *sw = PyArray_DATA ((PyArrayObject *) swaps);
  for (guint32 k = 0; k < m->n_swaps; k++)
    {
      sw[5 * k] = m->swaps[k].cell_x;
      sw[5 * k + 1] = m->swaps[k].y;
      sw[5 * k + 2] = m->swaps[k].cell_z;
      sw[5 * k + 3] = m->swaps[k].model_a;
      sw[5 * k + 4] = m->swaps[k].model_b;
    }
  /* | not ||: every put must run, each steals its value */
  if ((wk_dict_put (d, "position", pos) | wk_dict_put (d, "a_position", apos)
      | wk_dict_put (d, "rotation", rot) | wk_dict_put (d, "a_rotation", arot)
      | wk_dict_put (d, "a_model", amodel) | wk_dict_put (d, "anim_flag", anim)
      | wk_dict_put (d, "cell_xz", cellxz) | wk_dict_put (d, "swaps", swaps)
      | wk_dict_put (d, "model", array_copy (1, n, 1, 1, NPY_UINT32, m->model, 4))
      | wk_dict_put (d, "b", array_copy (2, n, 6, 1, NPY_INT32, m->b, 4))
      | wk_dict_put (d, "cell", array_copy (1, n, 1, 1, NPY_INT32, m->cell, 4))
      | wk_dict_put (d, "swap", array_copy (1, n, 1, 1, NPY_INT32, m->swap_of_tile, 4))
      | wk_dict_put (d, "colors", array_copy (2, m->n_colors, 4, 1, NPY_UINT8, m->colors, 1))
      | wk_dict_put (d, "color_start", array_copy (1, n, 1, 1, NPY_UINT32, m->col_start, 4))
      | wk_dict_put (d, "color_sets", array_copy (1, n, 1, 1, NPY_UINT32, m->col_sets, 4))
      | wk_dict_put (d, "color_b_start", array_copy (1, n, 1, 1, NPY_UINT32, m->colb_start, 4))
      | wk_dict_put (d, "color_b_sets", array_copy (1, n, 1, 1, NPY_UINT32, m->colb_sets, 4))
      | wk_dict_put (d, "width", PyLong_FromUnsignedLong (m->w))
      | wk_dict_put (d, "height", PyLong_FromUnsignedLong (m->h))
      | wk_dict_put (d, "has_swap_block", PyBool_FromLong (m->has_swaps))) < 0)
    {
      Py_DECREF (d);
      return NULL;
    }
  return d;
}

PyObject *
geom_zones (EngGeomObject *g, PyObject *unused)
{
  const WkEngMap *m = g->map;
  if (m == NULL)
    return no_chunk (g, "MAP");
  PyObject *d = PyDict_New ();
  PyObject *mask = new_array (1, WK_ENG_ZONES, 1, 1, 1, NPY_UINT32);
  PyObject *height = new_array (1, WK_ENG_ZONES, 1, 1, 1, NPY_INT32);
  if (d == NULL || mask == NULL || height == NULL)
    {
      Py_XDECREF (d); Py_XDECREF (mask); Py_XDECREF (height);
      return NULL;
    }
  for (int k = 0; k < WK_ENG_ZONES; k++)
    {
      ((guint32 *) PyArray_DATA ((PyArrayObject *) mask))[k] = m->zone_table[2 * k];
      ((gint32 *) PyArray_DATA ((PyArrayObject *) height))[k] = (gint32) m->zone_table[2 * k + 1];
    }
  /* | not ||: every put must run, each steals its value */
  if ((wk_dict_put (d, "mask", mask) | wk_dict_put (d, "height", height)
       | wk_dict_put (d, "grid", array_copy (2, m->h, m->w, 1, NPY_UINT32,
                                             m->zone_grid, 4))) < 0)
    {
      Py_DECREF (d);
      return NULL;
    }
  return d;
}
