/* wadkit._core.EngEdit: pending edits of an ENG level's tiles and models
 * (csrc/core/eng/eng_edit*.c), written by build(). Input arrays are taken
 * by wk_array_arg (any array-like, converted to the documented dtype and
 * checked for its shape, naming the argument); wadkit/_eng_edit.py adds
 * the checks of meaning (ranges, the op in the message). Every core call
 * runs without the GIL under the object's lock, so two threads cannot
 * change one edit at once. */
#include "eng_geom.h"
#include "wk_array.h"

#include "../core/eng/eng_edit.h"

typedef struct {
  PyObject_HEAD
  WkEngEdit *edit;
  GMutex lock;
} EngEditObject;

/* Run `stmt` (a core call) without the GIL, holding the edit's lock. */
#define LOCKED(o, stmt)                  \
  do                                     \
    {                                    \
      Py_BEGIN_ALLOW_THREADS             \
      g_mutex_lock (&(o)->lock);         \
      stmt;                              \
      g_mutex_unlock (&(o)->lock);       \
      Py_END_ALLOW_THREADS               \
    }                                    \
  while (0)

static WkModState *
edit_state (EngEditObject *o)
{
  return wk_state_from_type (Py_TYPE (o));
}

static const char *
opt_name (PyObject *name)
{
  return name == Py_None ? NULL : PyUnicode_AsUTF8 (name);
}

static PyObject *
edit_new (PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "wfpc", "trak", "trak_base", "map", "map_base",
                            "texture_table", "allow_new_entries", NULL };
  unsigned int wfpc;
  PyObject *o_trak, *o_map, *o_table;
  long long trak_base, map_base;
  int allow_new = 1;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "IOLOLO|p:EngEdit", kwlist, &wfpc,
                                    &o_trak, &trak_base, &o_map, &map_base,
                                    &o_table, &allow_new))
    return NULL;
  WkModState *st = wk_state_from_type (type);
  if (st == NULL)
    return NULL;
  g_autofree WkEngTexEntry *entries = NULL;
  guint n_entries = 0;
  if (geom_texture_table (o_table, &entries, &n_entries) < 0)
    return NULL;
  GBytes *trak = wk_shared_bytes (st, o_trak);
  GBytes *map = trak ? wk_shared_bytes (st, o_map) : NULL;
  if (map == NULL)
    {
      g_clear_pointer (&trak, g_bytes_unref);
      return NULL;
    }
  EngEditObject *o = (EngEditObject *) type->tp_alloc (type, 0);
  if (o == NULL)
    {
      g_bytes_unref (trak);
      g_bytes_unref (map);
      return NULL;
    }
  g_mutex_init (&o->lock);
  GError *error = NULL;
  Py_BEGIN_ALLOW_THREADS
  o->edit = wk_eng_edit_new (trak, trak_base, map, map_base, wfpc, entries,
                             n_entries, allow_new, &error);
  Py_END_ALLOW_THREADS
  /* the parse holds its own references (the last ones release with the GIL) */
  g_bytes_unref (trak);
  g_bytes_unref (map);
  if (o->edit == NULL)
    {
      Py_DECREF (o);
      return wk_raise (st, error);
    }
  return (PyObject *) o;
}

static void
edit_dealloc (EngEditObject *o)
{
  PyTypeObject *tp = Py_TYPE (o);
  g_clear_pointer (&o->edit, wk_eng_edit_free);
  g_mutex_clear (&o->lock);
  tp->tp_free ((PyObject *) o);
  Py_DECREF (tp);
}

/* ---- queries ---- */

static PyObject *
edit_tile_model (EngEditObject *o, PyObject *arg)
{
  unsigned long t = PyLong_AsUnsignedLong (arg);
  if (t == (unsigned long) -1 && PyErr_Occurred ())
    return NULL;
  gint64 m;
  LOCKED (o, m = t > G_MAXUINT ? -1 : wk_eng_edit_tile_model (o->edit, (guint) t));
  return m < 0 ? Py_NewRef (Py_None) : PyLong_FromLongLong (m);
}

static PyObject *
edit_tile_colors (EngEditObject *o, PyObject *arg)
{
  unsigned long t = PyLong_AsUnsignedLong (arg);
  if (t == (unsigned long) -1 && PyErr_Occurred ())
    return NULL;
  guint sets = 0, nv = 0;
  const guint8 *c;
  g_mutex_lock (&o->lock);
  c = t > G_MAXUINT ? NULL : wk_eng_edit_tile_colors (o->edit, (guint) t, &sets, &nv);
  PyObject *arr = NULL;
  if (c == NULL)
    PyErr_Format (PyExc_ValueError, "tile %lu is deleted or does not exist", t);
  else
    {
      npy_intp dims[3] = { sets, nv, 4 };
      arr = PyArray_SimpleNew (3, dims, NPY_UINT8);
      if (arr != NULL)
        memcpy (PyArray_DATA ((PyArrayObject *) arr), c, (gsize) sets * nv * 4);
    }
  g_mutex_unlock (&o->lock);
  return arr;
}

static PyObject *
edit_model_verts (EngEditObject *o, PyObject *arg)
{
  unsigned long m = PyLong_AsUnsignedLong (arg);
  if (m == (unsigned long) -1 && PyErr_Occurred ())
    return NULL;
  guint n, count;
  LOCKED (o, (count = wk_eng_edit_n_models (o->edit),
              n = m < count ? wk_eng_edit_model_verts (o->edit, (guint) m) : 0));
  if (m >= count)
    return PyErr_Format (PyExc_ValueError, "model %lu does not exist", m);
  return PyLong_FromUnsignedLong (n);
}

static PyObject *
edit_counts (EngEditObject *o, void *closure)
{
  guint t, b, m;
  LOCKED (o, (t = wk_eng_edit_n_tiles (o->edit), b = wk_eng_edit_n_base_tiles (o->edit),
              m = wk_eng_edit_n_models (o->edit)));
  return Py_BuildValue ("(III)", t, b, m);
}

/* ---- colours ---- */

/* One tile's colours: None, or (sets, V, 4) uint8 (the size is the core's
 * to check against the model). */
static int
colors_arg (PyObject *obj, const char *name, PyArrayObject **a, WkEngColors *c)
{
  static const npy_intp shape[3] = { WK_ANY, WK_ANY, 4 };
  if (wk_array_arg (obj, name, NPY_UINT8, 3, shape, TRUE, a) < 0)
    return -1;
  *c = (WkEngColors) { wk_array_data (*a), *a ? (gsize) PyArray_NBYTES (*a) : 0 };
  return 0;
}

static const npy_intp any1[1] = { WK_ANY }, any3[2] = { WK_ANY, 3 },
                      any4[2] = { WK_ANY, 4 };

/* ---- edits ---- */

static PyObject *
edit_set_geometry (EngEditObject *o, PyObject *args)
{
  PyObject *ob[6], *o_flags, *o_colors, *o_name;
  if (!PyArg_ParseTuple (args, "OOOOOOOO:set_geometry", &ob[0], &ob[1], &ob[2],
                         &ob[3], &ob[4], &o_flags, &o_colors, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  enum { TILES, POS, TRI, UV, TEX, FLAGS, N_ARR };
  PyArrayObject *a[N_ARR] = { NULL };
  PyObject *result = NULL, *seq = NULL;
  PyArrayObject **ca = NULL;
  WkEngColors *colors = NULL;
  Py_ssize_t n_col = 0;
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL)
      || wk_array_arg (ob[0], "tiles", NPY_UINT32, 1, any1, FALSE, &a[TILES]) < 0
      || wk_array_arg (ob[1], "positions", NPY_FLOAT32, 2, any3, FALSE, &a[POS]) < 0
      || wk_array_arg (ob[2], "triangles", NPY_UINT32, 2, any3, FALSE, &a[TRI]) < 0)
    goto done;
  const npy_intp nt = PyArray_DIM (a[TILES], 0), nf = PyArray_DIM (a[TRI], 0);
  const npy_intp f1[1] = { nf }, f32[3] = { nf, 3, 2 };
  if (wk_array_arg (ob[3], "uv", NPY_FLOAT32, 3, f32, FALSE, &a[UV]) < 0
      || wk_array_arg (ob[4], "texture", NPY_INT32, 1, f1, FALSE, &a[TEX]) < 0
      || wk_array_arg (o_flags, "face_flags", NPY_UINT16, 1, f1, TRUE, &a[FLAGS]) < 0)
    goto done;
  if (o_colors != Py_None)
    {
      seq = PySequence_Fast (o_colors, "colors must be a sequence (one per tile) or None");
      if (seq == NULL)
        goto done;
      n_col = PySequence_Fast_GET_SIZE (seq);
      if (n_col != nt)
        {
          PyErr_Format (PyExc_ValueError, "colors has %zd entries, tiles %zd", n_col,
                        (Py_ssize_t) nt);
          goto done;
        }
      ca = g_new0 (PyArrayObject *, n_col + 1);
      colors = g_new0 (WkEngColors, n_col + 1);
      for (Py_ssize_t k = 0; k < n_col; k++)
        {
          char what[32];
          g_snprintf (what, sizeof what, "colors[%zd]", k);
          if (colors_arg (PySequence_Fast_GET_ITEM (seq, k), what, &ca[k], &colors[k]) < 0)
            goto done;
        }
    }
  WkEngGeomEdit in = { name, (guint) nt, wk_array_data (a[TILES]),
                       (gsize) PyArray_DIM (a[POS], 0), wk_array_data (a[POS]),
                       (gsize) nf, wk_array_data (a[TRI]), wk_array_data (a[UV]),
                       wk_array_data (a[TEX]), wk_array_data (a[FLAGS]), colors };
  WkEngEditResult res;
  GError *error = NULL;
  gboolean ok;
  LOCKED (o, ok = wk_eng_edit_set_geometry (o->edit, &in, &res, &error));
  if (!ok)
    wk_raise (st, error);
  else
    result = Py_BuildValue ("{s:I,s:O,s:I,s:d,s:I,s:I,s:I}", "model", res.model,
                            "in_place", res.in_place ? Py_True : Py_False,
                            "uv_fitted", res.uv_fitted,
                            "uv_max_error", (double) res.uv_max_error,
                            "uv_inexact", res.uv_inexact, "uv_nearest", res.uv_nearest,
                            "grey_tiles", res.grey_tiles);
done:
  wk_array_release (a, N_ARR);
  if (ca)
    wk_array_release (ca, (gsize) n_col);
  g_free (ca);
  g_free (colors);
  Py_XDECREF (seq);
  return result;
}

static PyObject *
edit_set_collision (EngEditObject *o, PyObject *args)
{
  PyObject *ob[3], *o_mat, *o_name;
  if (!PyArg_ParseTuple (args, "OOOOO:set_collision", &ob[0], &ob[1], &ob[2],
                         &o_mat, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  enum { TILES, POS, POLY, MAT, N_ARR };
  PyArrayObject *a[N_ARR] = { NULL };
  PyObject *result = NULL;
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL)
      || wk_array_arg (ob[0], "tiles", NPY_UINT32, 1, any1, FALSE, &a[TILES]) < 0
      || wk_array_arg (ob[1], "positions", NPY_FLOAT32, 2, any3, FALSE, &a[POS]) < 0
      || wk_array_arg (ob[2], "polygons", NPY_INT32, 2, any4, FALSE, &a[POLY]) < 0)
    goto done;
  const npy_intp p1[1] = { PyArray_DIM (a[POLY], 0) };
  if (wk_array_arg (o_mat, "material", NPY_UINT8, 1, p1, TRUE, &a[MAT]) < 0)
    goto done;
  WkEngCollEdit in = { name, (guint) PyArray_DIM (a[TILES], 0), wk_array_data (a[TILES]),
                       (gsize) PyArray_DIM (a[POS], 0), wk_array_data (a[POS]),
                       (gsize) p1[0], wk_array_data (a[POLY]), wk_array_data (a[MAT]) };
  WkEngEditCollResult res;
  GError *error = NULL;
  gboolean ok;
  LOCKED (o, ok = wk_eng_edit_set_collision (o->edit, &in, &res, &error));
  if (!ok)
    wk_raise (st, error);
  else
    result = Py_BuildValue ("{s:I,s:O,s:I,s:I,s:I,s:I,s:(III)}", "model", res.model,
                            "in_place", res.in_place ? Py_True : Py_False,
                            "kept", res.kept, "encoded", res.encoded, "split", res.split,
                            "dropped", res.dropped, "groups", res.groups[0],
                            res.groups[1], res.groups[2]);
done:
  wk_array_release (a, N_ARR);
  return result;
}

static PyObject *
edit_set_colors (EngEditObject *o, PyObject *args)
{
  unsigned int tile;
  PyObject *o_colors, *o_name;
  if (!PyArg_ParseTuple (args, "IOO:set_colors", &tile, &o_colors, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  const char *name = opt_name (o_name);
  PyArrayObject *a = NULL;
  WkEngColors c;
  if (st == NULL || (o_name != Py_None && name == NULL)
      || colors_arg (o_colors, "colors", &a, &c) < 0)
    return NULL;
  if (a == NULL)
    return PyErr_Format (PyExc_TypeError, "colors: an array is needed, not None");
  GError *error = NULL;
  gboolean ok;
  LOCKED (o, ok = wk_eng_edit_set_colors (o->edit, tile, &c, name, &error));
  Py_DECREF (a);
  return ok ? Py_NewRef (Py_None) : wk_raise (st, error);
}

static PyObject *
edit_place_tile (EngEditObject *o, PyObject *args)
{
  unsigned int tile, rot;
  double pos[3];
  PyObject *o_name;
  if (!PyArg_ParseTuple (args, "I(ddd)IO:place_tile", &tile, &pos[0], &pos[1], &pos[2],
                         &rot, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL))
    return NULL;
  GError *error = NULL;
  gboolean ok;
  LOCKED (o, ok = wk_eng_edit_place_tile (o->edit, tile, pos, rot, name, &error));
  return ok ? Py_NewRef (Py_None) : wk_raise (st, error);
}

static PyObject *
edit_delete_tile (EngEditObject *o, PyObject *args)
{
  unsigned int tile;
  PyObject *o_name;
  if (!PyArg_ParseTuple (args, "IO:delete_tile", &tile, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL))
    return NULL;
  GError *error = NULL;
  gboolean ok;
  LOCKED (o, ok = wk_eng_edit_delete_tile (o->edit, tile, name, &error));
  return ok ? Py_NewRef (Py_None) : wk_raise (st, error);
}

static PyObject *
edit_add_tile (EngEditObject *o, PyObject *args)
{
  unsigned int model, rot;
  double pos[3];
  PyObject *o_colors, *o_name;
  if (!PyArg_ParseTuple (args, "I(ddd)IOO:add_tile", &model, &pos[0], &pos[1], &pos[2],
                         &rot, &o_colors, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL))
    return NULL;
  PyArrayObject *a = NULL;
  WkEngColors c;
  if (colors_arg (o_colors, "colors", &a, &c) < 0)
    return NULL;
  GError *error = NULL;
  gboolean ok;
  guint tile = 0;
  LOCKED (o, ok = wk_eng_edit_add_tile (o->edit, model, pos, rot, &c, name, &tile,
                                        &error));
  Py_XDECREF (a);
  return ok ? PyLong_FromUnsignedLong (tile) : wk_raise (st, error);
}

static PyObject *
edit_add_mesh (EngEditObject *o, PyObject *args)
{
  PyObject *ob[9], *o_name;
  int zones_flat;
  if (!PyArg_ParseTuple (args, "OOOOOOOOOpO:add_mesh", &ob[0], &ob[1], &ob[2], &ob[3],
                         &ob[4], &ob[5], &ob[6], &ob[7], &ob[8], &zones_flat, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  PyArrayObject *a[GEOM_MESH_ARRAYS] = { NULL };
  PyObject *result = NULL;
  const char *name = opt_name (o_name);
  WkEngMeshIn in = { 0 }; /* entries and fitter: the edit's (eng_edit.c) */
  if (st == NULL || (o_name != Py_None && name == NULL) || geom_mesh_args (ob, a, &in) < 0)
    goto done;
  WkEngEditMeshResult res;
  GError *error = NULL;
  gboolean ok;
  LOCKED (o, ok = wk_eng_edit_add_mesh (o->edit, &in, zones_flat, name, &res, &error));
  if (!ok)
    wk_raise (st, error);
  else
    result = Py_BuildValue ("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:d}",
                            "first_tile", res.first_tile, "n_tiles", res.n_tiles,
                            "first_model", res.first_model, "n_models", res.n_models,
                            "dropped_degenerate", res.dropped_degenerate,
                            "dropped_collision", res.dropped_collision,
                            "collision_split", res.collision_split,
                            "uv_inexact", res.uv_inexact, "uv_nearest", res.uv_nearest,
                            "uv_fitted", res.uv_fitted,
                            "uv_max_error", (double) res.uv_max_error);
done:
  wk_array_release (a, GEOM_MESH_ARRAYS);
  return result;
}

static PyObject *
edit_flat_entry (EngEditObject *o, PyObject *args)
{
  unsigned char rgb[3];
  if (!PyArg_ParseTuple (args, "bbb:flat_entry", &rgb[0], &rgb[1], &rgb[2]))
    return NULL;
  WkModState *st = edit_state (o);
  if (st == NULL)
    return NULL;
  GError *error = NULL;
  gboolean ok;
  guint index = 0;
  LOCKED (o, ok = wk_eng_edit_flat_entry (o->edit, rgb, &index, &error));
  return ok ? PyLong_FromUnsignedLong (index) : wk_raise (st, error);
}

static PyObject *
build_result (WkEngEditOut *out)
{
  gsize ts, ms;
  const void *td = g_bytes_get_data (out->trak, &ts);
  const void *md = g_bytes_get_data (out->map, &ms);
  GByteArray *entries = g_byte_array_new ();
  for (guint i = 0; i < out->new_entries->len; i++)
    {
      guint8 raw[8];
      wk_eng_tex_entry_encode (&g_array_index (out->new_entries, WkEngTexEntry, i), raw);
      g_byte_array_append (entries, raw, 8);
    }
  npy_intp n = out->tile_index->len, nr = out->rewritten->len;
  PyObject *index = PyArray_SimpleNew (1, &n, NPY_INT32);
  PyObject *rewritten = PyArray_SimpleNew (1, &nr, NPY_UINT32);
  PyObject *warn = PyList_New (0);
  PyObject *r = NULL;
  if (index && rewritten && warn)
    {
      if (n)
        memcpy (PyArray_DATA ((PyArrayObject *) index), out->tile_index->data,
                4 * (gsize) n);
      if (nr)
        memcpy (PyArray_DATA ((PyArrayObject *) rewritten), out->rewritten->data,
                4 * (gsize) nr);
      gboolean ok = TRUE;
      for (guint i = 0; ok && i < out->warnings->len; i++)
        {
          PyObject *w = PyUnicode_FromString (g_ptr_array_index (out->warnings, i));
          ok = w != NULL && PyList_Append (warn, w) == 0;
          Py_XDECREF (w);
        }
      if (ok)
        r = Py_BuildValue ("{s:y#,s:y#,s:O,s:O,s:y#,s:O,s:O,s:I,s:I,s:I,s:I,s:I,s:O}",
                           "trak", td, (Py_ssize_t) ts, "map", md, (Py_ssize_t) ms,
                           "trak_same", out->trak_same ? Py_True : Py_False,
                           "map_same", out->map_same ? Py_True : Py_False,
                           "new_entries", entries->len ? (const char *) entries->data : "",
                           (Py_ssize_t) entries->len,
                           "tile_index", index, "models_rewritten", rewritten,
                           "tiles", out->n_tiles, "models", out->n_models,
                           "base_models", out->n_base_models,
                           "spill_tiles", out->spill_tiles,
                           "spill_records", out->spill_records, "warnings", warn);
    }
  Py_XDECREF (index);
  Py_XDECREF (rewritten);
  Py_XDECREF (warn);
  g_byte_array_unref (entries);
  return r;
}

static PyObject *
edit_build (EngEditObject *o, PyObject *unused)
{
  WkModState *st = edit_state (o);
  if (st == NULL)
    return NULL;
  GError *error = NULL;
  WkEngEditOut *out;
  LOCKED (o, out = wk_eng_edit_build (o->edit, &error));
  if (out == NULL)
    return wk_raise (st, error);
  PyObject *r = build_result (out);
  wk_eng_edit_out_free (out);
  return r;
}

static PyGetSetDef edit_getset[] = {
  { "counts", (getter) edit_counts, NULL,
    "(tiles incl. deleted, tiles of the source, models)", NULL },
  { NULL },
};

static PyMethodDef edit_methods[] = {
  { "tile_model", (PyCFunction) edit_tile_model, METH_O,
    "tile_model(tile) -> int | None (deleted or unknown)" },
  { "tile_colors", (PyCFunction) edit_tile_colors, METH_O,
    "tile_colors(tile) -> (sets, nVerts, 4) uint8: the tile's vertex colours" },
  { "model_verts", (PyCFunction) edit_model_verts, METH_O,
    "model_verts(model) -> int" },
  { "set_geometry", (PyCFunction) edit_set_geometry, METH_VARARGS,
    "set_geometry(tiles u32 (n,), positions f32 (V,3), triangles u32 (T,3), uv f32 "
    "(T,3,2), texture i32 (T,), face_flags u16 (T,)|None, colors [u8 (S,V,4)|None]"
    "|None, name) -> dict" },
  { "set_collision", (PyCFunction) edit_set_collision, METH_VARARGS,
    "set_collision(tiles u32 (n,), positions f32 (V,3), polygons i32 (P,4), "
    "material u8 (P,)|None, name) -> dict" },
  { "set_colors", (PyCFunction) edit_set_colors, METH_VARARGS,
    "set_colors(tile, colors u8 (S,V,4), name)" },
  { "place_tile", (PyCFunction) edit_place_tile, METH_VARARGS,
    "place_tile(tile, (x, y, z), rotation, name)" },
  { "delete_tile", (PyCFunction) edit_delete_tile, METH_VARARGS,
    "delete_tile(tile, name)" },
  { "add_tile", (PyCFunction) edit_add_tile, METH_VARARGS,
    "add_tile(model, (x, y, z), rotation, colors u8 (S,V,4)|None, name) -> tile" },
  { "add_mesh", (PyCFunction) edit_add_mesh, METH_VARARGS,
    "add_mesh(positions, triangles, uv, texture, color|None, face_flags|None, "
    "c_positions|None, c_polygons|None, c_material|None, zones_flat, name) -> dict" },
  { "flat_entry", (PyCFunction) edit_flat_entry, METH_VARARGS,
    "flat_entry(r, g, b) -> index of a flat-colour texture entry" },
  { "build", (PyCFunction) edit_build, METH_NOARGS,
    "build() -> dict: trak, map, new_entries, tile_index, models_rewritten, "
    "counts, warnings" },
  { NULL },
};

static PyType_Slot edit_slots[] = {
  { Py_tp_new, edit_new },
  { Py_tp_dealloc, edit_dealloc },
  { Py_tp_getset, edit_getset },
  { Py_tp_methods, edit_methods },
  { Py_tp_doc, "EngEdit(wfpc, trak, trak_base, map, map_base, texture_table, "
               "allow_new_entries=True): pending edits of an ENG level "
               "(wadkit/_eng_edit.py)." },
  { 0, NULL },
};

static PyType_Spec edit_spec = {
  .name = "wadkit._core.EngEdit",
  .basicsize = sizeof (EngEditObject),
  .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
  .slots = edit_slots,
};

int
wk_eng_edit_register (PyObject *module, WkModState *st)
{
  PyObject *type = PyType_FromModuleAndSpec (module, &edit_spec, NULL);
  if (type == NULL)
    return -1;
  int rc = PyModule_AddObjectRef (module, "EngEdit", type);
  Py_DECREF (type);
  return rc;
}
