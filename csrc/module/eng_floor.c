/* wadkit._core: ENG collision decode/encode and the engine floor test
 * (EngFloorWorld). The work is done by csrc/core/eng/eng_{collision,floor}.c
 * without the GIL; this file only converts arguments and results. */
#include "module.h"

#include "eng_space_arg.h"
#include "wk_array.h"

#include "../core/common/wk_error.h"
#include "../core/eng/eng_floor.h"

typedef struct {
  PyObject_HEAD
  WkEngFloorWorld *world;
} EngFloorWorldObject;

/* space=... given as an object (NULL: not given) */
static gboolean
parse_space (PyObject *obj, WkEngSpace *space)
{
  const char *name = obj ? PyUnicode_AsUTF8 (obj) : NULL;
  if (obj && name == NULL)
    return FALSE;
  return wk_space_arg (name, space) == 0;
}

/* ---- EngFloorWorld ---- */

static PyObject *
floor_world_new (PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "width", "height", "a_xyz", "b", "model", "coll", NULL };
  unsigned int width, height;
  PyObject *a_obj, *b_obj, *m_obj, *coll_obj;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "IIOOOO:EngFloorWorld", kwlist,
                                    &width, &height, &a_obj, &b_obj, &m_obj,
                                    &coll_obj))
    return NULL;
  WkModState *st = wk_state_from_type (type);
  if (st == NULL)
    return NULL;
  PyObject *result = NULL, *coll = NULL;
  PyArrayObject *a = NULL, *b = NULL, *m = NULL;
  Py_buffer *views = NULL;
  const guint8 **ptrs = NULL;
  gsize *sizes = NULL;
  Py_ssize_t n_models = 0, got = 0;
  npy_intp dm[1] = { WK_ANY };
  if (wk_array_arg (m_obj, "model", NPY_UINT32, 1, dm, FALSE, &m) < 0)
    goto out;
  npy_intp n = PyArray_DIM (m, 0);
  npy_intp da[2] = { n, 3 }, db[2] = { n, 6 };
  if (wk_array_arg (a_obj, "a_xyz", NPY_FLOAT32, 2, da, FALSE, &a) < 0
      || wk_array_arg (b_obj, "b", NPY_INT32, 2, db, FALSE, &b) < 0)
    goto out;
  if ((coll = PySequence_Fast (coll_obj, "coll must be a sequence of bytes")) == NULL)
    goto out;
  n_models = PySequence_Fast_GET_SIZE (coll);
  views = g_new0 (Py_buffer, n_models);
  ptrs = g_new0 (const guint8 *, n_models);
  sizes = g_new0 (gsize, n_models);
  for (; got < n_models; got++)
    {
      if (PyObject_GetBuffer (PySequence_Fast_GET_ITEM (coll, got), &views[got],
                              PyBUF_SIMPLE) < 0)
        goto out;
      ptrs[got] = views[got].buf;
      sizes[got] = (gsize) views[got].len;
    }
  GError *error = NULL;
  WkEngFloorWorld *world;
  Py_BEGIN_ALLOW_THREADS
  world = wk_eng_floor_world_new (width, height, (guint) n, PyArray_DATA (a),
                                  PyArray_DATA (b), PyArray_DATA (m),
                                  (guint) n_models, ptrs, sizes, &error);
  Py_END_ALLOW_THREADS
  if (world == NULL)
    {
      wk_raise (st, error);
      goto out;
    }
  EngFloorWorldObject *self = (EngFloorWorldObject *) type->tp_alloc (type, 0);
  if (self == NULL)
    {
      wk_eng_floor_world_free (world);
      goto out;
    }
  self->world = world;
  result = (PyObject *) self;
out:
  for (Py_ssize_t i = 0; i < got; i++)
    PyBuffer_Release (&views[i]);
  g_free (views);
  g_free (ptrs);
  g_free (sizes);
  Py_XDECREF (coll);
  Py_XDECREF (a);
  Py_XDECREF (b);
  Py_XDECREF (m);
  return result;
}

static void
floor_world_dealloc (EngFloorWorldObject *self)
{
  PyTypeObject *tp = Py_TYPE (self);
  g_clear_pointer (&self->world, wk_eng_floor_world_free);
  tp->tp_free ((PyObject *) self);
  Py_DECREF (tp);
}

static const char *
source_name (WkEngFloorSource s)
{
  switch (s)
    {
    case WK_ENG_FLOOR_FLOOR: return "floor";
    case WK_ENG_FLOOR_CEILING: return "ceiling";
    case WK_ENG_FLOOR_WATER: return "water";
    default: return NULL;
    }
}

static PyObject *
candidate_dict (const WkEngFloorCandidate *c)
{
  static const char *skips[] = { NULL, "material", "ny" };
  static const char *branches[] = { NULL, "floor", "ceiling" };
  PyObject *d = Py_BuildValue (
      "{s:I,s:I,s:B,s:B,s:z,s:z,s:O,s:O}", "tile", c->tile, "polygon", c->polygon,
      "material", c->material, "type", c->type, "skip", skips[c->skip],
      "branch", branches[c->branch], "passed", c->passed ? Py_True : Py_False,
      "chosen", c->chosen ? Py_True : Py_False);
  if (d == NULL || c->skip)
    return d;
  PyObject *edges = PyTuple_New (c->n_edges);
  for (guint k = 0; edges && k < c->n_edges; k++)
    {
      PyObject *v = PyLong_FromLong (c->edge[k]);
      if (v == NULL)
        Py_CLEAR (edges); /* a tuple with NULL slots is freed safely */
      else
        PyTuple_SET_ITEM (edges, k, v);
    }
  PyObject *more = edges ? Py_BuildValue (
      "{s:(iii),s:i,s:i,s:d,s:d,s:i,s:N}", "local", c->lx, c->ly, c->lz,
      "dist", c->dist, "plane_y", c->plane_y, "height", wk_eng_from_fixed (c->height),
      "dist_units", wk_eng_from_fixed (c->dist), "tol", c->tol, "edges", edges) : NULL;
  if (more == NULL || PyDict_Update (d, more) < 0)
    Py_CLEAR (d);
  Py_XDECREF (more);
  return d;
}

static PyObject *
floor_world_floor (EngFloorWorldObject *self, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "x", "y", "z", "candidates", "flags",
                            "probe_offset", "fixed", NULL };
  double x, y, z;
  int want_cands = 0, fixed = 0;
  unsigned int flags = 0;
  int offset = WK_ENG_FLOOR_PROBE_OFFSET;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "ddd|$pIip:floor", kwlist, &x,
                                    &y, &z, &want_cands, &flags, &offset, &fixed))
    return NULL;
  double v[3] = { x, y, z };
  gint32 iv[3];
  for (int k = 0; k < 3; k++)
    if (!wk_eng_to_fixed (fixed ? v[k] / WK_ENG_FIXED_ONE : v[k], &iv[k]))
      {
        PyErr_SetString (PyExc_ValueError,
                         "position outside the engine's 20.12 range");
        return NULL;
      }
  WkEngFloorProbe probe;
  wk_eng_floor_probe_init (&probe, iv[0], iv[1], iv[2]);
  probe.flags = flags;
  probe.probe_offset = offset;
  WkEngFloorHit hit;
  GArray *cands = want_cands ? g_array_new (FALSE, FALSE, sizeof (WkEngFloorCandidate)) : NULL;
  Py_BEGIN_ALLOW_THREADS
  wk_eng_floor_test (self->world, &probe, &hit, cands);
  Py_END_ALLOW_THREADS
  gboolean found = hit.source == WK_ENG_FLOOR_FLOOR || hit.source == WK_ENG_FLOOR_CEILING;
  if (!want_cands && !found)
    Py_RETURN_NONE;
  PyObject *d;
  if (hit.source == WK_ENG_FLOOR_NONE)
    d = Py_BuildValue ("{s:O,s:O,s:O,s:O,s:O,s:O}", "height", Py_None,
                       "height_fixed", Py_None, "tile", Py_None, "polygon",
                       Py_None, "material", Py_None, "source", Py_None);
  else
    d = Py_BuildValue ("{s:N,s:i,s:I,s:I,s:B,s:s,s:i}", "height",
                       found ? PyFloat_FromDouble (wk_eng_from_fixed (hit.height))
                             : Py_NewRef (Py_None),
                       "height_fixed", hit.height, "tile", hit.tile, "polygon",
                       hit.polygon, "material", hit.material, "source",
                       source_name (hit.source), "dist", hit.dist);
  if (d && cands)
    {
      PyObject *list = PyList_New (cands->len);
      for (guint i = 0; list && i < cands->len; i++)
        {
          PyObject *c = candidate_dict (&g_array_index (cands, WkEngFloorCandidate, i));
          if (c == NULL)
            Py_CLEAR (list);
          else
            PyList_SET_ITEM (list, i, c);
        }
      if (list == NULL || PyDict_SetItemString (d, "candidates", list) < 0)
        Py_CLEAR (d);
      Py_XDECREF (list);
    }
  if (cands)
    g_array_unref (cands);
  return d;
}

static PyObject *
floor_world_needles (EngFloorWorldObject *self, PyObject *unused)
{
  GArray *found;
  Py_BEGIN_ALLOW_THREADS
  found = wk_eng_floor_needles (self->world);
  Py_END_ALLOW_THREADS
  PyObject *list = PyList_New (found->len);
  for (guint i = 0; list && i < found->len; i++)
    {
      const WkEngNeedle *nd = &g_array_index (found, WkEngNeedle, i);
      PyObject *t = Py_BuildValue ("(II(ddd)dIdd)", nd->tile, nd->polygon,
                                   nd->point[0], nd->point[1], nd->point[2],
                                   nd->height, nd->corner, nd->fraction,
                                   nd->below);
      if (t == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, t);
    }
  g_array_unref (found);
  return list;
}

static PyObject *
floor_world_cell (EngFloorWorldObject *self, PyObject *args)
{
  unsigned int cx, cz;
  if (!PyArg_ParseTuple (args, "II:cell", &cx, &cz))
    return NULL;
  guint n;
  const guint32 *tiles = wk_eng_floor_cell (self->world, cx, cz, &n);
  PyObject *list = PyList_New (n);
  for (guint i = 0; list && i < n; i++)
    {
      PyObject *v = PyLong_FromUnsignedLong (tiles[i]);
      if (v == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, v);
    }
  return list;
}

static PyObject *
floor_world_width (EngFloorWorldObject *self, void *closure)
{
  return PyLong_FromUnsignedLong (wk_eng_floor_world_width (self->world));
}

static PyObject *
floor_world_height (EngFloorWorldObject *self, void *closure)
{
  return PyLong_FromUnsignedLong (wk_eng_floor_world_height (self->world));
}

static PyObject *
floor_world_n_tiles (EngFloorWorldObject *self, void *closure)
{
  return PyLong_FromUnsignedLong (wk_eng_floor_world_tiles (self->world));
}

static PyGetSetDef floor_world_getset[] = {
  { "width", (getter) floor_world_width, NULL, "grid width W", NULL },
  { "height", (getter) floor_world_height, NULL, "grid height H", NULL },
  { "n_tiles", (getter) floor_world_n_tiles, NULL, "number of tiles", NULL },
  { NULL },
};

static PyMethodDef floor_world_methods[] = {
  { "floor", (PyCFunction) (void (*) (void)) floor_world_floor,
    METH_VARARGS | METH_KEYWORDS,
    "floor(x, y, z, *, candidates=False, flags=0, probe_offset=0x400, "
    "fixed=False) -> dict or None\n\n"
    "The engine's map floor test at a game-space position (units, or 20.12 "
    "integers with fixed=True). dict: height, height_fixed, tile, polygon, "
    "material, source ('floor'/'ceiling'), dist. None when there is no floor "
    "(nothing passes, or the winner is material 0x1e). With candidates=True a "
    "dict is always returned (source may be None or 'water') and "
    "'candidates' lists every polygon of the cell's tiles as tested." },
  { "needles", (PyCFunction) floor_world_needles, METH_NOARGS,
    "needles() -> [(tile, polygon, (x, y, z), height, corner, fraction, "
    "below)]: the exposed-needle scan, one entry per polygon instance" },
  { "cell", (PyCFunction) floor_world_cell, METH_VARARGS,
    "cell(cx, cz) -> [tile, ...] in the order the test visits them" },
  { NULL },
};

static PyType_Slot floor_world_slots[] = {
  { Py_tp_new, floor_world_new },
  { Py_tp_dealloc, floor_world_dealloc },
  { Py_tp_getset, floor_world_getset },
  { Py_tp_methods, floor_world_methods },
  { Py_tp_doc, "EngFloorWorld(width, height, a_xyz, b, model, coll): the map "
               "tiles as the floor test sees them. a_xyz (N,3) MAP floats A "
               "(cell lists only), b (N,6) MAP ints B (rx, ry, rz, x, y, z; "
               "20.12, game space), model (N,) model index per tile, coll a "
               "list with each model's raw collision records (bytes)." },
  { 0, NULL },
};

static PyType_Spec floor_world_spec = {
  .name = "wadkit._core.EngFloorWorld",
  .basicsize = sizeof (EngFloorWorldObject),
  .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
  .slots = floor_world_slots,
};

/* ---- collision decode / encode ---- */

static PyObject *
coll_decode (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "raw", "space", "groups", "offset", NULL };
  Py_buffer view;
  PyObject *space_obj = NULL, *groups_obj = Py_None;
  long long base = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|$OOL:eng_collision_decode",
                                    kwlist, &view, &space_obj, &groups_obj, &base))
    return NULL;
  WkModState *st = wk_state_from_module (module);
  PyObject *result = NULL;
  PyArrayObject *arr[9] = { NULL }, *groups = NULL;
  WkEngSpace space;
  guint count;
  GError *error = NULL;
  if (!parse_space (space_obj, &space))
    goto out;
  /* (a, b, c): one model's counts; an (M, 3) array: M models' records
   * one after the other */
  const gboolean one = PyTuple_Check (groups_obj) && PyTuple_GET_SIZE (groups_obj) > 0
                       && PyLong_Check (PyTuple_GET_ITEM (groups_obj, 0));
  static const npy_intp three[1] = { 3 }, runs[2] = { WK_ANY, 3 };
  if (wk_array_arg (groups_obj, "groups", NPY_UINT32, one ? 1 : 2, one ? three : runs,
                    TRUE, &groups) < 0)
    goto out;
  if (!wk_eng_coll_count ((gsize) view.len, base, &count, &error))
    {
      wk_raise (st, error);
      goto out;
    }
  npy_intp P = count;
  npy_intp d_c[3] = { P, 4, 3 }, d_n[2] = { P, 3 }, d_1[1] = { P },
           d_rn[3] = { P, 5, 3 }, d_rd[2] = { P, 5 };
  static const char *names[9] = { "corners", "n_corners", "normal", "d", "type",
                                  "material", "group", "raw_normal", "raw_d" };
  arr[0] = (PyArrayObject *) PyArray_SimpleNew (3, d_c, NPY_FLOAT32);
  arr[1] = (PyArrayObject *) PyArray_SimpleNew (1, d_1, NPY_UINT8);
  arr[2] = (PyArrayObject *) PyArray_SimpleNew (2, d_n, NPY_FLOAT32);
  arr[3] = (PyArrayObject *) PyArray_SimpleNew (1, d_1, NPY_FLOAT32);
  arr[4] = (PyArrayObject *) PyArray_SimpleNew (1, d_1, NPY_UINT8);
  arr[5] = (PyArrayObject *) PyArray_SimpleNew (1, d_1, NPY_UINT8);
  arr[6] = (PyArrayObject *) PyArray_SimpleNew (1, d_1, NPY_UINT8);
  arr[7] = (PyArrayObject *) PyArray_SimpleNew (3, d_rn, NPY_INT8);
  arr[8] = (PyArrayObject *) PyArray_SimpleNew (2, d_rd, NPY_INT16);
  for (int i = 0; i < 9; i++)
    if (arr[i] == NULL)
      goto out;
  WkEngCollArrays out = {
    PyArray_DATA (arr[0]), PyArray_DATA (arr[1]), PyArray_DATA (arr[2]),
    PyArray_DATA (arr[3]), PyArray_DATA (arr[4]), PyArray_DATA (arr[5]),
    PyArray_DATA (arr[6]), PyArray_DATA (arr[7]), PyArray_DATA (arr[8]),
  };
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  ok = wk_eng_coll_decode (view.buf, (gsize) view.len, base, wk_array_data (groups),
                           groups == NULL ? 0 : one ? 1 : (gsize) PyArray_DIM (groups, 0),
                           space, &out, &error);
  Py_END_ALLOW_THREADS
  if (!ok)
    {
      wk_raise (st, error);
      goto out;
    }
  result = PyDict_New ();
  for (int i = 0; result && i < 9; i++)
    if (PyDict_SetItemString (result, names[i], (PyObject *) arr[i]) < 0)
      Py_CLEAR (result);
out:
  for (int i = 0; i < 9; i++)
    Py_XDECREF (arr[i]);
  Py_XDECREF (groups);
  PyBuffer_Release (&view);
  return result;
}

/* n_corners from the 4th corner: all NaN = triangle. */
static void
guess_corners (const gfloat *c, npy_intp P, guint8 *n)
{
  for (npy_intp p = 0; p < P; p++)
    {
      const gfloat *q = c + (p * 4 + 3) * 3;
      n[p] = (isnan (q[0]) && isnan (q[1]) && isnan (q[2])) ? 3 : 4;
    }
}

static PyObject *
coll_encode (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "corners", "material", "n_corners", "space",
                            "drop_degenerate", NULL };
  PyObject *c_obj, *m_obj, *n_obj = Py_None, *space_obj = NULL;
  int drop = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "OO|O$Op:eng_collision_encode",
                                    kwlist, &c_obj, &m_obj, &n_obj, &space_obj,
                                    &drop))
    return NULL;
  WkModState *st = wk_state_from_module (module);
  WkEngSpace space;
  if (!parse_space (space_obj, &space))
    return NULL;
  PyObject *result = NULL;
  PyArrayObject *c = NULL, *m = NULL, *nc = NULL, *c4 = NULL;
  npy_intp dc[3] = { WK_ANY, WK_ANY, 3 };
  if (wk_array_arg (c_obj, "corners", NPY_FLOAT32, 3, dc, FALSE, &c) < 0)
    goto out;
  npy_intp P = PyArray_DIM (c, 0), K = PyArray_DIM (c, 1);
  if (K != 3 && K != 4)
    {
      PyErr_SetString (PyExc_ValueError, "corners must be (P, 3, 3) or (P, 4, 3)");
      goto out;
    }
  /* always hand the core P×4×3 */
  npy_intp d4[3] = { P, 4, 3 }, d1[1] = { P };
  if ((c4 = (PyArrayObject *) PyArray_SimpleNew (3, d4, NPY_FLOAT32)) == NULL)
    goto out;
  for (npy_intp p = 0; p < P; p++)
    for (npy_intp i = 0; i < 4; i++)
      for (int k = 0; k < 3; k++)
        ((gfloat *) PyArray_DATA (c4))[(p * 4 + i) * 3 + k] =
            i < K ? ((gfloat *) PyArray_DATA (c))[(p * K + i) * 3 + k] : NAN;
  if (PyLong_Check (m_obj))
    {
      long v = PyLong_AsLong (m_obj);
      if (v < 0 || v > 255)
        {
          if (!PyErr_Occurred ())
            PyErr_SetString (PyExc_ValueError, "material must be 0..255");
          goto out;
        }
      if ((m = (PyArrayObject *) PyArray_SimpleNew (1, d1, NPY_UINT8)) == NULL)
        goto out;
      memset (PyArray_DATA (m), (int) v, (size_t) P);
    }
  else if (wk_array_arg (m_obj, "material", NPY_UINT8, 1, d1, FALSE, &m) < 0)
    goto out;
  if (n_obj == Py_None)
    {
      if ((nc = (PyArrayObject *) PyArray_SimpleNew (1, d1, NPY_UINT8)) == NULL)
        goto out;
      guess_corners (PyArray_DATA (c4), P, PyArray_DATA (nc));
    }
  else if (wk_array_arg (n_obj, "n_corners", NPY_UINT8, 1, d1, FALSE, &nc) < 0)
    goto out;
  if (P > (npy_intp) (G_MAXUINT32 / WK_ENG_COLL_RECORD_SIZE))
    {
      PyErr_SetString (PyExc_ValueError, "too many polygons");
      goto out;
    }
  GByteArray *bytes = g_byte_array_sized_new ((guint) P * WK_ENG_COLL_RECORD_SIZE);
  GArray *dropped = g_array_new (FALSE, FALSE, sizeof (guint32));
  GError *error = NULL;
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  ok = wk_eng_coll_encode_many (PyArray_DATA (c4), PyArray_DATA (nc),
                                PyArray_DATA (m), (guint) P, space, drop, bytes,
                                dropped, &error);
  Py_END_ALLOW_THREADS
  if (!ok)
    wk_raise (st, error);
  else
    {
      npy_intp dd[1] = { dropped->len };
      PyObject *idx = PyArray_SimpleNew (1, dd, NPY_UINT32);
      if (idx != NULL)
        {
          if (dropped->len > 0)
            memcpy (PyArray_DATA ((PyArrayObject *) idx), dropped->data,
                    sizeof (guint32) * dropped->len);
          result = Py_BuildValue ("(y#N)", bytes->data, (Py_ssize_t) bytes->len, idx);
        }
    }
  g_byte_array_unref (bytes);
  g_array_unref (dropped);
out:
  Py_XDECREF (c);
  Py_XDECREF (c4);
  Py_XDECREF (m);
  Py_XDECREF (nc);
  return result;
}

static PyObject *
sine_table (PyObject *module, PyObject *unused)
{
  npy_intp n[1] = { 4096 };
  PyObject *arr = PyArray_SimpleNew (1, n, NPY_INT32);
  for (guint i = 0; arr && i < 4096; i++)
    ((gint32 *) PyArray_DATA ((PyArrayObject *) arr))[i] = wk_eng_sine (i);
  return arr;
}

static PyMethodDef coll_functions[] = {
  { "eng_sine_table", sine_table, METH_NOARGS,
    "eng_sine_table() -> (4096,) int32: the floor test's sine table, "
    "round(4096·sin(2πi/4096)) [assumed]; cos[i] = sin[(i + 0x400) & 0xfff]" },
  { "eng_collision_decode", (PyCFunction) (void (*) (void)) coll_decode,
    METH_VARARGS | METH_KEYWORDS,
    "eng_collision_decode(raw, *, space='file', groups=None, offset=0) -> dict\n\n"
    "Decode 32-byte ENG collision records into tile-local polygons. space "
    "'file' (= game space, as stored) or 'export' (z negated, corner order "
    "reversed after the first). Arrays: corners (P,4,3) f32 (NaN 4th corner "
    "for triangles), n_corners, normal (n/127), d (d/4064; normal·p = d), "
    "type, material, group (0/1/2 from groups=(a,b,c), or from an (M,3) "
    "array of M models' counts for their records one after the other), raw_normal (P,5,3) "
    "i8, raw_d (P,5) i16. offset = file offset of raw, for error messages." },
  { "eng_collision_encode", (PyCFunction) (void (*) (void)) coll_encode,
    METH_VARARGS | METH_KEYWORDS,
    "eng_collision_encode(corners, material, n_corners=None, *, space='file', "
    "drop_degenerate=False) -> (bytes, dropped)\n\n"
    "Encode tile-local polygons (P,3,3) or (P,4,3) (NaN 4th corner = "
    "triangle) into records. The surface faces along the right-hand normal "
    "of the corner order. LimitError when a plane's d leaves the i16 range; "
    "ValueError for degenerate (unless dropped), non-planar or non-convex "
    "polygons. dropped: indices of left-out degenerate polygons." },
  { NULL },
};

int
wk_eng_floor_register (PyObject *module, WkModState *st)
{
  st->EngFloorWorldType = PyType_FromModuleAndSpec (module, &floor_world_spec, NULL);
  if (st->EngFloorWorldType == NULL)
    return -1;
  if (PyModule_AddObjectRef (module, "EngFloorWorld", st->EngFloorWorldType) < 0)
    return -1;
  return PyModule_AddFunctions (module, coll_functions);
}
