/* wadkit._core.EngGeometry: import_mesh(), the ENG write path. */
#include "eng_geom.h"

/* ---- write path ---- */

static PyObject *
import_result (WkEngImport *imp, GBytes *trak, GBytes *map, GPtrArray *warnings)
{
  gsize ts, ms;
  const void *td = g_bytes_get_data (trak, &ts);
  const void *md = g_bytes_get_data (map, &ms);
  GByteArray *entries = g_byte_array_new ();
  for (guint i = 0; i < imp->new_entries->len; i++)
    {
      guint8 raw[8];
      wk_eng_tex_entry_encode (&g_array_index (imp->new_entries, WkEngTexEntry, i), raw);
      g_byte_array_append (entries, raw, 8);
    }
  PyObject *warn = PyList_New (0);
  for (guint i = 0; warn && i < warnings->len; i++)
    {
      PyObject *w = PyUnicode_FromString (g_ptr_array_index (warnings, i));
      if (w == NULL || PyList_Append (warn, w) < 0)
        Py_CLEAR (warn);
      Py_XDECREF (w);
    }
  /* "N" hands warn over, also when the build fails */
  PyObject *r = warn == NULL ? NULL : Py_BuildValue (
      "{s:y#,s:y#,s:y#,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:N}",
      "trak", td, (Py_ssize_t) ts, "map", md, (Py_ssize_t) ms,
      "new_entries", entries->data, (Py_ssize_t) entries->len,
      "report", "tiles", imp->models->len,
      "dropped_degenerate", imp->dropped_degenerate,
      "dropped_collision", imp->dropped_coll,
      "uv_inexact", imp->uv_inexact, "uv_nearest_entry", imp->uv_nearest,
      "collision_records", imp->n_coll_records, "collision_split", imp->coll_split,
      "warnings", warn);
  g_byte_array_unref (entries);
  return r;
}

int
geom_mesh_args (PyObject *const o[GEOM_MESH_ARRAYS], PyArrayObject *a[GEOM_MESH_ARRAYS],
                WkEngMeshIn *in)
{
  enum { POS, TRI, UV, TEX, COL, FLAGS, CPOS, CPOLY, CMAT };
  const npy_intp any3[2] = { WK_ANY, 3 }, any4[2] = { WK_ANY, 4 };
  if (wk_array_arg (o[POS], "positions", NPY_FLOAT32, 2, any3, FALSE, &a[POS]) < 0
      || wk_array_arg (o[TRI], "triangles", NPY_UINT32, 2, any3, FALSE, &a[TRI]) < 0)
    return -1;
  const npy_intp nt = PyArray_DIM (a[TRI], 0);
  const npy_intp t1[1] = { nt }, t32[3] = { nt, 3, 2 }, t34[3] = { nt, 3, 4 };
  if (wk_array_arg (o[UV], "uv", NPY_FLOAT32, 3, t32, FALSE, &a[UV]) < 0
      || wk_array_arg (o[TEX], "texture", NPY_INT32, 1, t1, FALSE, &a[TEX]) < 0
      || wk_array_arg (o[COL], "color", NPY_FLOAT32, 3, t34, TRUE, &a[COL]) < 0
      || wk_array_arg (o[FLAGS], "face_flags", NPY_UINT16, 1, t1, TRUE, &a[FLAGS]) < 0
      || wk_array_arg (o[CPOS], "c_positions", NPY_FLOAT32, 2, any3, TRUE, &a[CPOS]) < 0
      || wk_array_arg (o[CPOLY], "c_polygons", NPY_INT32, 2, any4, TRUE, &a[CPOLY]) < 0)
    return -1;
  const npy_intp p1[1] = { wk_array_dim (a[CPOLY], 0) };
  if (wk_array_arg (o[CMAT], "c_material", NPY_UINT8, 1, p1, TRUE, &a[CMAT]) < 0)
    return -1;
  /* c_positions given (even empty: a NumPy array always has data): the
   * collision is that mesh; None: the render triangles */
  in->n_verts = (gsize) PyArray_DIM (a[POS], 0);
  in->positions = wk_array_data (a[POS]);
  in->n_tris = (gsize) nt;
  in->triangles = wk_array_data (a[TRI]);
  in->uv = wk_array_data (a[UV]);
  in->texture = wk_array_data (a[TEX]);
  in->color = wk_array_data (a[COL]);
  in->face_flags = wk_array_data (a[FLAGS]);
  in->n_cverts = (gsize) wk_array_dim (a[CPOS], 0);
  in->c_positions = wk_array_data (a[CPOS]);
  in->n_cpolys = (gsize) p1[0];
  in->c_polygons = wk_array_data (a[CPOLY]);
  in->c_material = wk_array_data (a[CMAT]);
  return 0;
}

PyObject *
geom_import_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "positions", "triangles", "uv", "texture", "color",
                            "face_flags", "c_positions", "c_polygons",
                            "c_material", "texture_table", "allow_new_entries",
                            "keep_tiles", "zones_flat", NULL };
  PyObject *o[10];
  int allow_new = 1, keep_tiles = 0, zones_flat = 1;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "OOOOOOOOOO|ppp:import_mesh",
                                    kwlist, &o[0], &o[1], &o[2], &o[3], &o[4],
                                    &o[5], &o[6], &o[7], &o[8], &o[9], &allow_new,
                                    &keep_tiles, &zones_flat))
    return NULL;
  WkModState *st = geom_state (g);
  if (st == NULL)
    return NULL;
  if (g->map == NULL || g->trak == NULL)
    return no_chunk (g, "MAP");
  PyArrayObject *a[GEOM_MESH_ARRAYS] = { NULL };
  PyObject *result = NULL;
  WkEngTexEntry *entries = NULL;
  guint n_entries = 0;
  WkEngMeshIn in = { 0 };
  if (geom_mesh_args (o, a, &in) < 0
      || geom_texture_table (o[9], &entries, &n_entries) < 0)
    goto done;
  in.entries = entries, in.n_entries = n_entries, in.allow_new_entries = allow_new;
  GError *error = NULL;
  WkEngImport *imp = NULL;
  GBytes *trak = NULL, *map = NULL;
  GPtrArray *models = NULL;
  GPtrArray *warnings = g_ptr_array_new_with_free_func (g_free);
  Py_BEGIN_ALLOW_THREADS
  imp = wk_eng_import_mesh (&in, &error);
  if (imp)
    map = wk_eng_import_map (g->map, g->trak, imp, keep_tiles, zones_flat,
                             &models, warnings, &error);
  if (map)
    trak = wk_eng_trak_build (models, &error);
  Py_END_ALLOW_THREADS
  if (trak == NULL)
    wk_raise (st, error);
  else
    result = import_result (imp, trak, map, warnings);
  g_clear_pointer (&models, g_ptr_array_unref);
  g_clear_pointer (&trak, g_bytes_unref);
  g_clear_pointer (&map, g_bytes_unref);
  g_clear_pointer (&imp, wk_eng_import_free);
  g_ptr_array_unref (warnings);
done:
  wk_array_release (a, GEOM_MESH_ARRAYS);
  g_free (entries);
  return result;
}
