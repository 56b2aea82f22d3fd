/* wadkit._core.rc2_tfrags_edit / rc2_gameplay_write / rc2_level_rewrite /
 * rc2_level_save / rc2_restream: the RC2 write path (core: csrc/core/rc2/tfrag_edit.c,
 * rc2_gameplay_write.c, rc2_save.c). Python glue: wadkit/_rc2_edit.py.
 * Input arrays are taken by wk_array_arg (converted, shapes checked). */
#include "module.h"
#include "wk_array.h"

#include "../core/common/wk_error.h"
#include "../core/rc2/rc2_gameplay_write.h"
#include "../core/rc2/rc2_restream.h"
#include "../core/rc2/rc2_save.h"
#include "../core/rc2/tfrag_edit.h"

static const char *const kind_keys[WK_RC2_KINDS] = { "tie", "shrub", "moby" };

/* d[key] (borrowed) or NULL when absent; -1 when the lookup itself failed
 * (PyDict_GetItemString would hide a MemoryError as "absent"). */
static int
dict_item (PyObject *d, const char *key, PyObject **out)
{
  PyObject *k = PyUnicode_FromString (key);
  *out = k ? PyDict_GetItemWithError (d, k) : NULL;
  Py_XDECREF (k);
  return *out == NULL && PyErr_Occurred () ? -1 : 0;
}

/* The arrays of a terrain edit, taken by wk_array_arg; released by
 * edit_args_release (also after a failed edit_args). */
typedef struct {
  PyArrayObject *v[4];
  PyArrayObject **mv;
  WkTfragPatchMesh *pm;
  Py_ssize_t nm;
  PyObject *fast;
} EditArgs;

static void
edit_args_release (EditArgs *a)
{
  wk_array_release (a->v, 4);
  if (a->mv)
    wk_array_release (a->mv, 5 * (gsize) a->nm);
  g_free (a->mv);
  g_free (a->pm);
  Py_XDECREF (a->fast);
}

/* positions f32 (n,3), uv f32 (T,3,2), color f32 (T,3,4), texture i32
 * (T,), each None = unchanged; meshes: [(patch, positions f32 (n,3),
 * triangles u32 (t,3), uv f32 (t,3,2), color f32 (t,3,4), texture i32
 * (t,))] -> e (all but texture_count). -1 with an exception. */
static int
edit_args (PyObject *arr[4], PyObject *meshes, EditArgs *a, WkTfragEdit *e)
{
  static const npy_intp any3[2] = { WK_ANY, 3 }, any32[3] = { WK_ANY, 3, 2 },
                        any34[3] = { WK_ANY, 3, 4 }, any1[1] = { WK_ANY };
  PyArrayObject **v = a->v;
  if (wk_array_arg (arr[0], "positions", NPY_FLOAT32, 2, any3, TRUE, &v[0]) < 0
      || wk_array_arg (arr[1], "uv", NPY_FLOAT32, 3, any32, TRUE, &v[1]) < 0
      || wk_array_arg (arr[2], "color", NPY_FLOAT32, 3, any34, TRUE, &v[2]) < 0
      || wk_array_arg (arr[3], "texture", NPY_INT32, 1, any1, TRUE, &v[3]) < 0)
    return -1;
  e->positions = wk_array_data (v[0]), e->n_positions = (gsize) wk_array_dim (v[0], 0);
  e->uv = wk_array_data (v[1]), e->color = wk_array_data (v[2]);
  e->texture = wk_array_data (v[3]);
  e->n_tris = (gsize) (v[1] ? wk_array_dim (v[1], 0) : v[2] ? wk_array_dim (v[2], 0)
                                                            : wk_array_dim (v[3], 0));
  for (int k = 1; k < 4; k++)
    if (v[k] && (gsize) wk_array_dim (v[k], 0) != e->n_tris)
      {
        PyErr_SetString (PyExc_ValueError, "uv, color and texture: one row per triangle");
        return -1;
      }
  a->fast = PySequence_Fast (meshes, "meshes: a sequence of tuples");
  if (a->fast == NULL)
    return -1;
  a->nm = PySequence_Fast_GET_SIZE (a->fast);
  a->mv = g_new0 (PyArrayObject *, 5 * MAX (a->nm, 1));
  a->pm = g_new0 (WkTfragPatchMesh, MAX (a->nm, 1));
  for (Py_ssize_t m = 0; m < a->nm; m++)
    {
      PyObject *t[5];
      unsigned int patch;
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (a->fast, m), "IOOOOO", &patch,
                             &t[0], &t[1], &t[2], &t[3], &t[4]))
        return -1;
      PyArrayObject **ma = &a->mv[5 * m];
      char what[5][48];
      static const char *const part[5] = { "positions", "triangles", "uv", "color",
                                           "texture" };
      for (int k = 0; k < 5; k++)
        g_snprintf (what[k], sizeof what[k], "mesh %zd %s", m, part[k]);
      if (wk_array_arg (t[0], what[0], NPY_FLOAT32, 2, any3, FALSE, &ma[0]) < 0
          || wk_array_arg (t[1], what[1], NPY_UINT32, 2, any3, FALSE, &ma[1]) < 0)
        return -1;
      const npy_intp nt = PyArray_DIM (ma[1], 0);
      const npy_intp t32[3] = { nt, 3, 2 }, t34[3] = { nt, 3, 4 }, t1[1] = { nt };
      if (wk_array_arg (t[2], what[2], NPY_FLOAT32, 3, t32, FALSE, &ma[2]) < 0
          || wk_array_arg (t[3], what[3], NPY_FLOAT32, 3, t34, FALSE, &ma[3]) < 0
          || wk_array_arg (t[4], what[4], NPY_INT32, 1, t1, FALSE, &ma[4]) < 0)
        return -1;
      if (PyArray_DIM (ma[0], 0) > G_MAXUINT || nt > G_MAXUINT)
        {
          PyErr_Format (PyExc_ValueError, "mesh %zd: more than 2^32 rows", m);
          return -1;
        }
      a->pm[m] = (WkTfragPatchMesh) { patch, wk_array_data (ma[0]),
                                      (guint) PyArray_DIM (ma[0], 0),
                                      wk_array_data (ma[1]), wk_array_data (ma[2]),
                                      wk_array_data (ma[3]), wk_array_data (ma[4]),
                                      (guint) nt };
    }
  e->meshes = a->pm, e->n_meshes = (guint) a->nm;
  return 0;
}

/* (bytes, status uint8 (n,)) of a terrain edit, or NULL with the error
 * raised (out and status taken). */
static PyObject *
edit_result (PyObject *module, GBytes *out, GError *error, const guint8 *status, gsize n)
{
  if (out == NULL)
    {
      if (error->domain == WK_ERROR && error->code == WK_ERROR_FORMAT)
        wk_error_prefix (&error, "RC2 tfrags");
      return wk_raise (wk_state_from_module (module), error);
    }
  PyObject *b = wk_bytes_result (wk_state_from_module (module), out, NULL);
  npy_intp dims[1] = { (npy_intp) n };
  PyObject *st = b ? PyArray_SimpleNew (1, dims, NPY_UINT8) : NULL;
  if (st != NULL && n)
    memcpy (PyArray_DATA ((PyArrayObject *) st), status, n);
  if (st == NULL)
    {
      Py_XDECREF (b);
      return NULL;
    }
  return Py_BuildValue ("(NN)", b, st);
}

/* rc2_tfrags_edit(region, base, texture_count, positions, uv, color,
 * texture, meshes) -> (bytes, status uint8 (patches,)); the arrays as
 * edit_args takes them. */
static PyObject *
rc2_tfrags_edit (PyObject *module, PyObject *args)
{
  Py_buffer region;
  long long base;
  int texture_count;
  PyObject *arr[4], *meshes;
  if (!PyArg_ParseTuple (args, "y*LiOOOOO:rc2_tfrags_edit", &region, &base,
                         &texture_count, &arr[0], &arr[1], &arr[2], &arr[3], &meshes))
    return NULL;
  PyObject *result = NULL;
  EditArgs a = { { NULL } };
  WkTfragEdit e = { 0 };
  if (edit_args (arr, meshes, &a, &e) == 0)
    {
      e.texture_count = texture_count;
      gint n = wk_tfrags_count (region.buf, (gsize) region.len);
      guint8 *status = g_new0 (guint8, MAX (n, 1));
      GError *error = NULL;
      GBytes *out;
      Py_BEGIN_ALLOW_THREADS
      out = wk_tfrags_edit (region.buf, (gsize) region.len, base, &e, status, &error);
      Py_END_ALLOW_THREADS
      result = edit_result (module, out, error, status, (gsize) MAX (n, 0));
      g_free (status);
    }
  edit_args_release (&a);
  PyBuffer_Release (&region);
  return result;
}

/* rc2_level_tfrags_edit(level, positions, uv, color, texture, meshes) ->
 * (bytes, status): rc2_tfrags_edit of an Rc2Level's tfrags block (its
 * decoded core_data, base and texture count), whose parse is kept on the
 * level for its next edits (wk_rc2_level_tfrags_edit). */
static PyObject *
rc2_level_tfrags_edit (PyObject *module, PyObject *args)
{
  WkModState *st = wk_state_from_module (module);
  PyObject *level, *arr[4], *meshes;
  if (!PyArg_ParseTuple (args, "O!OOOOO:rc2_level_tfrags_edit",
                         (PyTypeObject *) st->Rc2LevelType, &level, &arr[0], &arr[1],
                         &arr[2], &arr[3], &meshes))
    return NULL;
  const WkRc2Level *lvl = wk_rc2_level_held (st, level);
  PyObject *result = NULL;
  EditArgs a = { { NULL } };
  WkTfragEdit e = { 0 };
  if (edit_args (arr, meshes, &a, &e) == 0)
    {
      guint8 *status = NULL;
      guint n = 0;
      GError *error = NULL;
      GBytes *out;
      Py_BEGIN_ALLOW_THREADS
      out = wk_rc2_level_tfrags_edit (lvl, &e, &status, &n, &error);
      Py_END_ALLOW_THREADS
      result = edit_result (module, out, error, status, n);
      g_free (status);
    }
  edit_args_release (&a);
  return result;
}

/* rc2_gameplay_write(gameplay, core_ids {kind: int32 (n,)}, instances
 * {kind: (source i32 (n,), class_id i32 (n,), matrix f32 (n,4,4))},
 * settings [(name, (values...))]) -> (bytes, report dict) */
static PyObject *
rc2_gameplay_write (PyObject *module, PyObject *args)
{
  Py_buffer gpb;
  PyObject *ids, *inst, *settings;
  if (!PyArg_ParseTuple (args, "y*O!O!O:rc2_gameplay_write", &gpb, &PyDict_Type, &ids,
                         &PyDict_Type, &inst, &settings))
    return NULL;
  PyObject *result = NULL, *fast = NULL;
  PyArrayObject *v[4 * WK_RC2_KINDS] = { NULL };
  WkRc2InstanceEdit ie[WK_RC2_KINDS];
  WkRc2GameplayEdit e = { { NULL } };
  WkRc2SettingValue *sv = NULL;
  WkModState *st = wk_state_from_module (module);
  static const npy_intp any1[1] = { WK_ANY };
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      char what[3][40];
      g_snprintf (what[0], sizeof what[0], "%s core ids", kind_keys[k]);
      PyObject *o, *t;
      if (dict_item (ids, kind_keys[k], &o) < 0
          || (o && wk_array_arg (o, what[0], NPY_INT32, 1, any1, TRUE, &v[4 * k]) < 0))
        goto done;
      e.core_ids[k] = wk_array_data (v[4 * k]);
      e.n_core_ids[k] = (gsize) wk_array_dim (v[4 * k], 0);
      if (dict_item (inst, kind_keys[k], &t) < 0)
        goto done;
      if (t == NULL || t == Py_None)
        continue;
      PyObject *a[3];
      if (!PyArg_ParseTuple (t, "OOO", &a[0], &a[1], &a[2]))
        goto done;
      g_snprintf (what[0], sizeof what[0], "%ss source", kind_keys[k]);
      g_snprintf (what[1], sizeof what[1], "%ss class_id", kind_keys[k]);
      g_snprintf (what[2], sizeof what[2], "%ss matrix", kind_keys[k]);
      PyArrayObject **ka = &v[4 * k + 1];
      if (wk_array_arg (a[0], what[0], NPY_INT32, 1, any1, FALSE, &ka[0]) < 0)
        goto done;
      const npy_intp n = PyArray_DIM (ka[0], 0), n1[1] = { n }, n44[3] = { n, 4, 4 };
      if (wk_array_arg (a[1], what[1], NPY_INT32, 1, n1, FALSE, &ka[1]) < 0
          || wk_array_arg (a[2], what[2], NPY_FLOAT32, 3, n44, FALSE, &ka[2]) < 0)
        goto done;
      if (n > G_MAXINT32)
        {
          PyErr_Format (PyExc_ValueError, "%ss: more than 2^31 instances", kind_keys[k]);
          goto done;
        }
      ie[k] = (WkRc2InstanceEdit) { (guint) n, wk_array_data (ka[0]),
                                    wk_array_data (ka[1]), wk_array_data (ka[2]) };
      e.inst[k] = &ie[k];
    }
  fast = PySequence_Fast (settings, "settings: a sequence of (name, values)");
  if (fast == NULL)
    goto done;
  Py_ssize_t ns = PySequence_Fast_GET_SIZE (fast);
  sv = g_new0 (WkRc2SettingValue, MAX (ns, 1));
  for (Py_ssize_t i = 0; i < ns; i++)
    {
      PyObject *vals;
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "sO!", &sv[i].name,
                             &PyTuple_Type, &vals))
        goto done;
      Py_ssize_t n = PyTuple_GET_SIZE (vals);
      if (n < 1 || n > 3)
        {
          PyErr_Format (PyExc_ValueError, "settings: %s takes 1..3 values", sv[i].name);
          goto done;
        }
      sv[i].n = (guint) n;
      for (Py_ssize_t c = 0; c < n; c++)
        {
          sv[i].value[c] = PyFloat_AsDouble (PyTuple_GET_ITEM (vals, c));
          if (sv[i].value[c] == -1.0 && PyErr_Occurred ())
            goto done;
        }
    }
  e.settings = sv, e.n_settings = (guint) ns;
  GError *error = NULL;
  GBytes *out = NULL;
  WkRc2GameplayReport rep;
  Py_BEGIN_ALLOW_THREADS
  WkRc2Gameplay *gp = wk_rc2_gameplay_parse (gpb.buf, (gsize) gpb.len, &error);
  if (gp)
    out = wk_rc2_gameplay_write (gp, &e, &rep, &error);
  wk_rc2_gameplay_free (gp);
  Py_END_ALLOW_THREADS
  if (out == NULL)
    {
      wk_error_prefix (&error, "RC2 gameplay");
      result = wk_raise (st, error);
      goto done;
    }
  PyObject *b = wk_bytes_result (st, out, NULL);
  if (b)
    result = Py_BuildValue (
        "(N{s(III)sIsIs(OOO)sI})", b, "new_uids", rep.new_uids[0], rep.new_uids[1],
        rep.new_uids[2], "ambient_copied", rep.ambient_copied, "ambient_dropped",
        rep.ambient_dropped, "groups_remapped",
        rep.groups_remapped[0] ? Py_True : Py_False,
        rep.groups_remapped[1] ? Py_True : Py_False,
        rep.groups_remapped[2] ? Py_True : Py_False, "moby_classes_added",
        rep.moby_classes_added);
done:
  wk_array_release (v, G_N_ELEMENTS (v));
  g_free (sv);
  Py_XDECREF (fast);
  PyBuffer_Release (&gpb);
  return result;
}

static PyObject *
info_dict (const WkRestreamInfo *i)
{
  return Py_BuildValue ("{snsnsnsO}", "kept_before", (Py_ssize_t) i->kept_before,
                        "kept_after", (Py_ssize_t) i->kept_after, "compressed",
                        (Py_ssize_t) i->compressed, "whole", i->whole ? Py_True : Py_False);
}

/* rc2_level_rewrite(level, tfrags, collision, gameplay, gameplay_pal)
 * -> (bytes, {stream: info}); None = unchanged. */
static PyObject *
rc2_level_rewrite (PyObject *module, PyObject *args)
{
  PyObject *level, *o[4];
  if (!PyArg_ParseTuple (args, "OOOOO:rc2_level_rewrite", &level, &o[0], &o[1], &o[2],
                         &o[3]))
    return NULL;
  WkModState *st = wk_state_from_module (module);
  Py_buffer lv = { 0 }, v[4] = { { 0 } };
  PyObject *result = NULL;
  if (PyObject_GetBuffer (level, &lv, PyBUF_SIMPLE) < 0)
    return NULL;
  for (int k = 0; k < 4; k++)
    if (o[k] != Py_None && PyObject_GetBuffer (o[k], &v[k], PyBUF_SIMPLE) < 0)
      goto done;
  WkRc2Rewrite rw = { v[0].buf, v[0].len, v[1].buf, v[1].len, v[2].buf, v[2].len,
                      v[3].buf, v[3].len };
  GError *error = NULL;
  GBytes *out = NULL;
  WkRc2RewriteInfo info;
  /* an Rc2Level's own parse: the maps of its streams made at the first
   * rewrite are kept on it (rc2_save.c level_map) */
  const WkRc2Level *held = wk_rc2_level_held (st, level);
  Py_BEGIN_ALLOW_THREADS
  if (held)
    out = wk_rc2_level_rewrite (held, &rw, &info, &error);
  else
    {
      GBytes *in = g_bytes_new_static (lv.buf, (gsize) lv.len);
      WkRc2Level *lvl = wk_rc2_level_parse (in, &error);
      if (lvl)
        out = wk_rc2_level_rewrite (lvl, &rw, &info, &error);
      wk_rc2_level_free (lvl);
      g_bytes_unref (in);
    }
  Py_END_ALLOW_THREADS
  if (out == NULL)
    {
      result = wk_raise (st, error);
      goto done;
    }
  PyObject *b = wk_bytes_result (st, out, NULL);
  if (b)
    result = Py_BuildValue ("(N{sNsNsN})", b, "core_data", info_dict (&info.core_data),
                            "gameplay", info_dict (&info.gameplay), "gameplay_pal",
                            info_dict (&info.gameplay_pal));
done:
  for (int k = 0; k < 4; k++)
    if (v[k].obj)
      PyBuffer_Release (&v[k]);
  PyBuffer_Release (&lv);
  return result;
}

/* rc2_level_save(level bytes, path, checked=False): checked (unless the
 * caller says these bytes were: wk_rc2_level_save), then written atomically. */
static PyObject *
rc2_level_save (PyObject *module, PyObject *args)
{
  Py_buffer lv;
  PyObject *path_obj, *path = NULL;
  int checked = 0;
  if (!PyArg_ParseTuple (args, "y*O|p:rc2_level_save", &lv, &path_obj, &checked))
    return NULL;
  if (wk_fs_path (path_obj, &path) < 0)
    {
      PyBuffer_Release (&lv);
      return NULL;
    }
  GError *error = NULL;
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  GBytes *in = g_bytes_new_static (lv.buf, (gsize) lv.len);
  ok = wk_rc2_level_save (in, PyBytes_AS_STRING (path), checked, &error);
  g_bytes_unref (in);
  Py_END_ALLOW_THREADS
  Py_DECREF (path);
  PyBuffer_Release (&lv);
  if (!ok)
    return wk_raise (wk_state_from_module (module), error);
  Py_RETURN_NONE;
}

/* rc2_restream(old stream, new plain) -> (bytes, info): the stream an RC2
 * save writes for new plain bytes in place of the old stream (its reused
 * blocks and packets, the rest recompressed; not checked: the save's
 * read-back does that). For tests of the splice. */
static PyObject *
rc2_restream (PyObject *module, PyObject *args)
{
  Py_buffer old, plain;
  if (!PyArg_ParseTuple (args, "y*y*:rc2_restream", &old, &plain))
    return NULL;
  GError *error = NULL;
  GBytes *out = NULL;
  WkRestreamInfo info;
  Py_BEGIN_ALLOW_THREADS
  WkRestreamMap *map = wk_rc2_restream_map (old.buf, (gsize) old.len, 0, -1,
                                            (gsize) 1 << 30, &error);
  if (map)
    out = wk_rc2_restream (map, plain.buf, (gsize) plain.len, TRUE, &info, &error);
  wk_rc2_restream_map_free (map);
  Py_END_ALLOW_THREADS
  PyBuffer_Release (&old);
  PyBuffer_Release (&plain);
  if (out == NULL)
    return wk_raise (wk_state_from_module (module), error);
  WkModState *st = wk_state_from_module (module);
  PyObject *b = wk_bytes_result (st, out, NULL);
  return b ? Py_BuildValue ("(NN)", b, info_dict (&info)) : NULL;
}

static PyMethodDef save_methods[] = {
  { "rc2_restream", rc2_restream, METH_VARARGS,
    "rc2_restream(old_stream, new_plain) -> (bytes, info)" },
  { "rc2_tfrags_edit", rc2_tfrags_edit, METH_VARARGS,
    "rc2_tfrags_edit(region, base, texture_count, positions, uv, color, texture, "
    "meshes) -> (bytes, status)" },
  { "rc2_level_tfrags_edit", rc2_level_tfrags_edit, METH_VARARGS,
    "rc2_level_tfrags_edit(level, positions, uv, color, texture, meshes) -> "
    "(bytes, status)" },
  { "rc2_gameplay_write", rc2_gameplay_write, METH_VARARGS,
    "rc2_gameplay_write(gameplay, core_ids, instances, settings) -> (bytes, report)" },
  { "rc2_level_rewrite", rc2_level_rewrite, METH_VARARGS,
    "rc2_level_rewrite(level, tfrags, collision, gameplay, gameplay_pal) -> "
    "(bytes, info)" },
  { "rc2_level_save", rc2_level_save, METH_VARARGS,
    "rc2_level_save(level_bytes, path, checked=False): check (unless checked) and "
    "write atomically" },
  { NULL },
};

int
wk_rc2_save_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, save_methods);
}
