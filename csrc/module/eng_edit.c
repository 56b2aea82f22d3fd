/* wadkit._core.EngEdit: pending edits of an ENG level's tiles and models
 * (csrc/core/eng/eng_edit*.c), written by build(). Arguments come as
 * C-contiguous buffers of the documented dtypes (wadkit/_eng_edit.py checks
 * shapes and dtypes and names the argument); here only their byte lengths
 * are checked. Every core call runs without the GIL under the object's
 * lock, so two threads cannot change one edit at once. */
#include "module.h"
#include "wk_numpy.h"

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

/* Byte length of a buffer must be n·elem. */
static int
want_len (const Py_buffer *b, gsize n, gsize elem, const char *name)
{
  if (b->buf == NULL || (gsize) b->len == n * elem)
    return 0;
  PyErr_Format (PyExc_ValueError, "%s has %zd bytes, expected %zu", name,
                b->len, (size_t) (n * elem));
  return -1;
}

/* Optional buffer argument: None leaves b->buf NULL. */
static int
opt_buf (PyObject *obj, Py_buffer *b)
{
  memset (b, 0, sizeof *b);
  if (obj == Py_None)
    return 0;
  return PyObject_GetBuffer (obj, b, PyBUF_C_CONTIGUOUS);
}

static void
release (Py_buffer *b, int n)
{
  for (int k = 0; k < n; k++)
    if (b[k].obj != NULL)
      PyBuffer_Release (&b[k]);
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
  Py_buffer table;
  if (opt_buf (o_table, &table) < 0)
    return NULL;
  if (table.buf && (table.len % 8 || table.len / 8 > G_MAXUINT16 + 1))
    {
      PyBuffer_Release (&table);
      PyErr_SetString (PyExc_ValueError, "texture_table must be n×8 bytes (n ≤ 65536)");
      return NULL;
    }
  guint n_entries = table.buf ? (guint) (table.len / 8) : 0;
  g_autofree WkEngTexEntry *entries = table.buf ? g_new (WkEngTexEntry, n_entries + 1) : NULL;
  for (guint i = 0; i < n_entries; i++)
    wk_eng_tex_entry_decode ((const guint8 *) table.buf + 8 * i, &entries[i]);
  release (&table, 1);
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

static WkEngColors
colors_of (const Py_buffer *b)
{
  return (WkEngColors) { b->buf, b->buf ? (gsize) b->len : 0 };
}

/* ---- edits ---- */

static PyObject *
edit_set_geometry (EngEditObject *o, PyObject *args)
{
  PyObject *o_flags, *o_colors, *o_name;
  Py_buffer b[5] = { { 0 } };
  if (!PyArg_ParseTuple (args, "y*y*y*y*y*OOO:set_geometry", &b[0], &b[1], &b[2],
                         &b[3], &b[4], &o_flags, &o_colors, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  PyObject *result = NULL, *seq = NULL;
  Py_buffer flags = { 0 };
  Py_buffer *cbuf = NULL;
  WkEngColors *colors = NULL;
  Py_ssize_t n_col = 0;
  gsize nt = (gsize) b[0].len / 4, nv = (gsize) b[1].len / 12, nf = (gsize) b[2].len / 12;
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL) || opt_buf (o_flags, &flags) < 0
      || want_len (&b[0], nt, 4, "tiles") < 0 || want_len (&b[1], nv, 12, "positions") < 0
      || want_len (&b[2], nf, 12, "triangles") < 0 || want_len (&b[3], nf, 24, "uv") < 0
      || want_len (&b[4], nf, 4, "texture") < 0 || want_len (&flags, nf, 2, "face_flags") < 0)
    goto done;
  if (o_colors != Py_None)
    {
      seq = PySequence_Fast (o_colors, "colors must be a sequence (one per tile) or None");
      if (seq == NULL)
        goto done;
      n_col = PySequence_Fast_GET_SIZE (seq);
      if ((gsize) n_col != nt)
        {
          PyErr_Format (PyExc_ValueError, "colors has %zd entries, tiles %zu", n_col,
                        (size_t) nt);
          goto done;
        }
      cbuf = g_new0 (Py_buffer, n_col + 1);
      colors = g_new0 (WkEngColors, n_col + 1);
      for (Py_ssize_t k = 0; k < n_col; k++)
        {
          if (opt_buf (PySequence_Fast_GET_ITEM (seq, k), &cbuf[k]) < 0)
            goto done;
          colors[k] = colors_of (&cbuf[k]);
        }
    }
  WkEngGeomEdit in = { name, (guint) nt, b[0].buf, nv, b[1].buf, nf, b[2].buf,
                       b[3].buf, b[4].buf, flags.buf, colors };
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
  release (b, 5);
  release (&flags, 1);
  if (cbuf)
    release (cbuf, (int) n_col);
  g_free (cbuf);
  g_free (colors);
  Py_XDECREF (seq);
  return result;
}

static PyObject *
edit_set_collision (EngEditObject *o, PyObject *args)
{
  PyObject *o_mat, *o_name;
  Py_buffer b[3] = { { 0 } };
  if (!PyArg_ParseTuple (args, "y*y*y*OO:set_collision", &b[0], &b[1], &b[2],
                         &o_mat, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  PyObject *result = NULL;
  Py_buffer mat = { 0 };
  gsize nt = (gsize) b[0].len / 4, nv = (gsize) b[1].len / 12, np_ = (gsize) b[2].len / 16;
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL) || opt_buf (o_mat, &mat) < 0
      || want_len (&b[0], nt, 4, "tiles") < 0 || want_len (&b[1], nv, 12, "positions") < 0
      || want_len (&b[2], np_, 16, "polygons") < 0 || want_len (&mat, np_, 1, "material") < 0)
    goto done;
  WkEngCollEdit in = { name, (guint) nt, b[0].buf, nv, b[1].buf, np_, b[2].buf, mat.buf };
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
  release (b, 3);
  release (&mat, 1);
  return result;
}

static PyObject *
edit_set_colors (EngEditObject *o, PyObject *args)
{
  unsigned int tile;
  Py_buffer b = { 0 };
  PyObject *o_name;
  if (!PyArg_ParseTuple (args, "Iy*O:set_colors", &tile, &b, &o_name))
    return NULL;
  WkModState *st = edit_state (o);
  const char *name = opt_name (o_name);
  PyObject *result = NULL;
  WkEngColors c = colors_of (&b);
  if (st == NULL || (o_name != Py_None && name == NULL))
    goto done;
  GError *error = NULL;
  gboolean ok;
  LOCKED (o, ok = wk_eng_edit_set_colors (o->edit, tile, &c, name, &error));
  result = ok ? Py_NewRef (Py_None) : wk_raise (st, error);
done:
  PyBuffer_Release (&b);
  return result;
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
  Py_buffer b;
  if (opt_buf (o_colors, &b) < 0)
    return NULL;
  WkEngColors c = colors_of (&b);
  GError *error = NULL;
  gboolean ok;
  guint tile = 0;
  LOCKED (o, ok = wk_eng_edit_add_tile (o->edit, model, pos, rot, &c, name, &tile,
                                        &error));
  PyObject *result = ok ? PyLong_FromUnsignedLong (tile) : wk_raise (st, error);
  release (&b, 1);
  return result;
}

static PyObject *
edit_add_mesh (EngEditObject *o, PyObject *args)
{
  PyObject *opt[6], *o_name;
  int zones_flat;
  Py_buffer b[3] = { { 0 } }, ob[6] = { { 0 } };
  if (!PyArg_ParseTuple (args, "y*y*y*OOOOOOpO:add_mesh", &b[0], &b[1], &b[2], &opt[0],
                         &opt[1], &opt[2], &opt[3], &opt[4], &opt[5], &zones_flat, &o_name))
    return NULL;
  /* opt: texture, color, face_flags, c_positions, c_polygons, c_material */
  WkModState *st = edit_state (o);
  PyObject *result = NULL;
  const char *name = opt_name (o_name);
  if (st == NULL || (o_name != Py_None && name == NULL))
    goto done;
  for (int k = 0; k < 6; k++)
    if (opt_buf (opt[k], &ob[k]) < 0)
      goto done;
  gsize nv = (gsize) b[0].len / 12, nt = (gsize) b[1].len / 12;
  gsize ncv = (gsize) ob[3].len / 12, np_ = (gsize) ob[4].len / 16;
  if (want_len (&b[0], nv, 12, "positions") < 0 || want_len (&b[1], nt, 12, "triangles") < 0
      || want_len (&b[2], nt, 24, "uv") < 0 || want_len (&ob[0], nt, 4, "texture") < 0
      || want_len (&ob[1], nt, 48, "color") < 0 || want_len (&ob[2], nt, 2, "face_flags") < 0
      || want_len (&ob[3], ncv, 12, "collision positions") < 0
      || want_len (&ob[4], np_, 16, "collision polygons") < 0
      || want_len (&ob[5], np_, 1, "collision material") < 0)
    goto done;
  if (ob[0].buf == NULL)
    {
      PyErr_SetString (PyExc_ValueError, "add_mesh: texture is required here");
      goto done;
    }
  /* c_positions given (even empty): the collision is that mesh; None: the
   * render triangles (the write path's default) */
  static const gfloat none[3] = { 0, 0, 0 };
  WkEngMeshIn in = {
    nv, b[0].buf, nt, b[1].buf, b[2].buf, ob[0].buf, ob[1].buf, ob[2].buf,
    ncv, ob[3].obj ? (ncv ? ob[3].buf : none) : NULL, np_, np_ ? ob[4].buf : NULL,
    ob[5].buf, NULL, 0, FALSE, NULL,
  };
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
  release (b, 3);
  release (ob, 6);
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
    "set_geometry(tiles u32, positions f32, triangles u32, uv f32, texture i32, "
    "face_flags u16|None, colors [buffer|None]|None, name) -> dict" },
  { "set_collision", (PyCFunction) edit_set_collision, METH_VARARGS,
    "set_collision(tiles u32, positions f32, polygons i32 (P,4), material u8|None, "
    "name) -> dict" },
  { "set_colors", (PyCFunction) edit_set_colors, METH_VARARGS,
    "set_colors(tile, colors u8, name)" },
  { "place_tile", (PyCFunction) edit_place_tile, METH_VARARGS,
    "place_tile(tile, (x, y, z), rotation, name)" },
  { "delete_tile", (PyCFunction) edit_delete_tile, METH_VARARGS,
    "delete_tile(tile, name)" },
  { "add_tile", (PyCFunction) edit_add_tile, METH_VARARGS,
    "add_tile(model, (x, y, z), rotation, colors u8|None, name) -> tile" },
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
