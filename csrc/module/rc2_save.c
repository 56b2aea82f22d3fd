/* wadkit._core.rc2_tfrags_edit / rc2_gameplay_write / rc2_level_rewrite /
 * rc2_level_save: the RC2 write path (core: csrc/core/rc2/tfrag_edit.c,
 * rc2_gameplay_write.c, rc2_save.c). Python glue: wadkit/_rc2_edit.py,
 * which checks shapes and dtypes; here only sizes are checked. */
#include "module.h"

#include "../core/common/wk_error.h"
#include "../core/rc2/rc2_gameplay_write.h"
#include "../core/rc2/rc2_save.h"
#include "../core/rc2/tfrag_edit.h"

static const char *const kind_keys[WK_RC2_KINDS] = { "tie", "shrub", "moby" };

/* An optional C-contiguous buffer of `width`-byte rows; None -> no view. */
static int
opt_buffer (PyObject *o, Py_buffer *v, gsize width, const char *name, gsize *rows)
{
  if (o == Py_None)
    return 0;
  if (PyObject_GetBuffer (o, v, PyBUF_C_CONTIGUOUS) < 0)
    return -1;
  if ((gsize) v->len % width)
    {
      PyErr_Format (PyExc_ValueError, "%s: %zd bytes, not rows of %zu", name,
                    v->len, (size_t) width);
      PyBuffer_Release (v);
      v->obj = NULL, v->buf = NULL;
      return -1;
    }
  *rows = (gsize) v->len / width;
  return 1;
}

static void
release_all (Py_buffer *v, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (v[i].buf)
      PyBuffer_Release (&v[i]);
}

/* rc2_tfrags_edit(region, base, texture_count, positions, uv, color,
 * texture, meshes) -> (bytes, status bytes). meshes: [(patch, positions
 * f32 (n,3), triangles u32 (t,3), uv f32 (t,3,2), color f32 (t,3,4),
 * texture i32 (t,))]. */
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
  PyObject *result = NULL, *fast = NULL;
  Py_buffer v[4] = { { 0 } };
  Py_buffer *mv = NULL;
  guint8 *status = NULL;
  WkTfragPatchMesh *pm = NULL;
  Py_ssize_t nm = 0;
  gsize rows[4] = { 0 };
  static const gsize width[4] = { 12, 24, 48, 4 };
  static const char *const names[4] = { "positions", "uv", "color", "texture" };
  WkTfragEdit e = { 0 };
  for (int k = 0; k < 4; k++)
    if (opt_buffer (arr[k], &v[k], width[k], names[k], &rows[k]) < 0)
      goto done;
  e.positions = v[0].buf, e.n_positions = rows[0];
  e.uv = v[1].buf, e.color = v[2].buf, e.texture = v[3].buf;
  e.n_tris = v[1].buf ? rows[1] : v[2].buf ? rows[2] : rows[3];
  if ((v[1].buf && rows[1] != e.n_tris) || (v[2].buf && rows[2] != e.n_tris)
      || (v[3].buf && rows[3] != e.n_tris))
    {
      PyErr_SetString (PyExc_ValueError, "uv, color and texture: one row per triangle");
      goto done;
    }
  e.texture_count = texture_count;
  fast = PySequence_Fast (meshes, "meshes: a sequence of tuples");
  if (fast == NULL)
    goto done;
  nm = PySequence_Fast_GET_SIZE (fast);
  mv = g_new0 (Py_buffer, 5 * MAX (nm, 1));
  pm = g_new0 (WkTfragPatchMesh, MAX (nm, 1));
  for (Py_ssize_t m = 0; m < nm; m++)
    {
      PyObject *t[5];
      unsigned int patch;
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, m), "IOOOOO", &patch,
                             &t[0], &t[1], &t[2], &t[3], &t[4]))
        goto done;
      static const gsize mw[5] = { 12, 12, 24, 48, 4 };
      gsize r[5] = { 0 };
      for (int k = 0; k < 5; k++)
        if (opt_buffer (t[k], &mv[5 * m + k], mw[k], "mesh array", &r[k]) <= 0)
          {
            if (!PyErr_Occurred ())
              PyErr_Format (PyExc_ValueError, "mesh %zd: array %d is None", m, k);
            goto done;
          }
      if (r[1] != r[2] || r[1] != r[3] || r[1] != r[4] || r[0] > G_MAXUINT || r[1] > G_MAXUINT)
        {
          PyErr_Format (PyExc_ValueError, "mesh %zd: one uv, color and texture row "
                        "per triangle", m);
          goto done;
        }
      pm[m] = (WkTfragPatchMesh) { patch, mv[5 * m].buf, (guint) r[0], mv[5 * m + 1].buf,
                                   mv[5 * m + 2].buf, mv[5 * m + 3].buf,
                                   mv[5 * m + 4].buf, (guint) r[1] };
    }
  e.meshes = pm, e.n_meshes = (guint) nm;
  gint n = wk_tfrags_count (region.buf, (gsize) region.len);
  status = g_new0 (guint8, MAX (n, 1));
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_tfrags_edit (region.buf, (gsize) region.len, base, &e, status, &error);
  Py_END_ALLOW_THREADS
  if (out == NULL)
    {
      if (error->domain == WK_ERROR && error->code == WK_ERROR_FORMAT)
        wk_error_prefix (&error, "RC2 tfrags");
      result = wk_raise (wk_state_from_module (module), error);
      goto done;
    }
  PyObject *b = wk_bytes_result (wk_state_from_module (module), out, NULL);
  result = b ? Py_BuildValue ("(Ny#)", b, (const char *) status, (Py_ssize_t) MAX (n, 0))
             : NULL;
done:
  release_all (v, 4);
  g_free (status);
  if (mv)
    release_all (mv, 5 * (gsize) nm);
  g_free (mv);
  g_free (pm);
  Py_XDECREF (fast);
  PyBuffer_Release (&region);
  return result;
}

/* rc2_gameplay_write(gameplay, core_ids {kind: int32 buffer}, instances
 * {kind: (source i32, class_id i32, matrix f32 (n,4,4))}, settings
 * [(name, (values...))]) -> (bytes, report dict) */
static PyObject *
rc2_gameplay_write (PyObject *module, PyObject *args)
{
  Py_buffer gpb;
  PyObject *ids, *inst, *settings;
  if (!PyArg_ParseTuple (args, "y*O!O!O:rc2_gameplay_write", &gpb, &PyDict_Type, &ids,
                         &PyDict_Type, &inst, &settings))
    return NULL;
  PyObject *result = NULL, *fast = NULL;
  Py_buffer v[4 * WK_RC2_KINDS] = { { 0 } };
  WkRc2InstanceEdit ie[WK_RC2_KINDS];
  WkRc2GameplayEdit e = { { NULL } };
  WkRc2SettingValue *sv = NULL;
  WkModState *st = wk_state_from_module (module);
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      PyObject *o = PyDict_GetItemString (ids, kind_keys[k]);
      gsize rows = 0;
      if (o && opt_buffer (o, &v[4 * k], 4, "core ids", &rows) < 0)
        goto done;
      e.core_ids[k] = v[4 * k].buf, e.n_core_ids[k] = v[4 * k].buf ? rows : 0;
      PyObject *t = PyDict_GetItemString (inst, kind_keys[k]);
      if (t == NULL || t == Py_None)
        continue;
      PyObject *a[3];
      if (!PyArg_ParseTuple (t, "OOO", &a[0], &a[1], &a[2]))
        goto done;
      gsize r[3] = { 0 };
      static const gsize w[3] = { 4, 4, 64 };
      for (int j = 0; j < 3; j++)
        if (opt_buffer (a[j], &v[4 * k + 1 + j], w[j], "instance array", &r[j]) <= 0)
          {
            if (!PyErr_Occurred ())
              PyErr_Format (PyExc_ValueError, "%ss: array %d is None", kind_keys[k], j);
            goto done;
          }
      if (r[0] != r[1] || r[0] != r[2] || r[0] > G_MAXINT32)
        {
          PyErr_Format (PyExc_ValueError, "%ss: source, class_id and matrix "
                        "disagree in length", kind_keys[k]);
          goto done;
        }
      ie[k] = (WkRc2InstanceEdit) { (guint) r[0], v[4 * k + 1].buf, v[4 * k + 2].buf,
                                    v[4 * k + 3].buf };
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
  release_all (v, G_N_ELEMENTS (v));
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
  gsize rows[4] = { 0 };
  if (PyObject_GetBuffer (level, &lv, PyBUF_SIMPLE) < 0)
    return NULL;
  for (int k = 0; k < 4; k++)
    if (opt_buffer (o[k], &v[k], 1, "block", &rows[k]) < 0)
      goto done;
  WkRc2Rewrite rw = { v[0].buf, v[0].len, v[1].buf, v[1].len, v[2].buf, v[2].len,
                      v[3].buf, v[3].len };
  GError *error = NULL;
  GBytes *out = NULL;
  WkRc2RewriteInfo info;
  Py_BEGIN_ALLOW_THREADS
  GBytes *in = g_bytes_new_static (lv.buf, (gsize) lv.len);
  WkRc2Level *lvl = wk_rc2_level_parse (in, &error);
  if (lvl)
    out = wk_rc2_level_rewrite (lvl, &rw, &info, &error);
  wk_rc2_level_free (lvl);
  g_bytes_unref (in);
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
  release_all (v, 4);
  PyBuffer_Release (&lv);
  return result;
}

/* rc2_level_save(level bytes, path): checked, then written atomically. */
static PyObject *
rc2_level_save (PyObject *module, PyObject *args)
{
  Py_buffer lv;
  PyObject *path_obj, *path = NULL;
  if (!PyArg_ParseTuple (args, "y*O:rc2_level_save", &lv, &path_obj))
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
  ok = wk_rc2_level_save (in, PyBytes_AS_STRING (path), &error);
  g_bytes_unref (in);
  Py_END_ALLOW_THREADS
  Py_DECREF (path);
  PyBuffer_Release (&lv);
  if (!ok)
    return wk_raise (wk_state_from_module (module), error);
  Py_RETURN_NONE;
}

static PyMethodDef save_methods[] = {
  { "rc2_tfrags_edit", rc2_tfrags_edit, METH_VARARGS,
    "rc2_tfrags_edit(region, base, texture_count, positions, uv, color, texture, "
    "meshes) -> (bytes, status)" },
  { "rc2_gameplay_write", rc2_gameplay_write, METH_VARARGS,
    "rc2_gameplay_write(gameplay, core_ids, instances, settings) -> (bytes, report)" },
  { "rc2_level_rewrite", rc2_level_rewrite, METH_VARARGS,
    "rc2_level_rewrite(level, tfrags, collision, gameplay, gameplay_pal) -> "
    "(bytes, info)" },
  { "rc2_level_save", rc2_level_save, METH_VARARGS,
    "rc2_level_save(level_bytes, path): check and write atomically" },
  { NULL },
};

int
wk_rc2_save_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, save_methods);
}
