/* wadkit._core.tfrag_parse / tfrag_texture: RC2 terrain to NumPy. */
#include "wk_array.h"
#include "../core/common/wk_error.h"
#include "../core/rc2/tfrag.h"

static PyObject *
patch_dict (const WkTfragPatch *p)
{
  return Py_BuildValue ("{sIsIs(ffff)sIsIsIsIs(III)sn}", "vert_count",
                        p->vert_count, "tri_count", p->tri_count, "bsphere",
                        p->bsphere[0], p->bsphere[1], p->bsphere[2],
                        p->bsphere[3], "flags", p->flags, "ad_gifs", p->ad_gifs,
                        "mip_dist", p->mip_dist, "occl_index", p->occl_index,
                        "lod_tris", p->lod_tris[0], p->lod_tris[1],
                        p->lod_tris[2], "offset", (Py_ssize_t) p->offset);
}

static PyObject *
tfrag_parse (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "block", "lod", "texture_count", "base", NULL };
  Py_buffer in;
  unsigned int lod = 0;
  int texture_count = -1;
  long long base = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|IiL:tfrag_parse", kwlist,
                                    &in, &lod, &texture_count, &base))
    return NULL;
  GError *error = NULL;
  WkTfrags *t;
  /* The fill reads the block again after the parse checked it: a buffer
   * another thread could change meanwhile is parsed from a copy. */
  g_autofree guint8 *copy = in.readonly ? NULL : g_memdup2 (in.buf, (gsize) in.len);
  const guint8 *block = copy ? copy : in.buf;
  Py_BEGIN_ALLOW_THREADS
  t = wk_tfrags_parse (block, (gsize) in.len, base, lod, texture_count, &error);
  Py_END_ALLOW_THREADS
  if (t == NULL)
    {
      PyBuffer_Release (&in);
      wk_error_prefix (&error, "RC2 tfrags"); /* .context is never empty */
      return wk_raise (wk_state_from_module (module), error);
    }
  npy_intp nv = (npy_intp) t->n_positions, nt = (npy_intp) t->n_tris;
  npy_intp d_pos[2] = { nv, 3 }, d_tri[2] = { nt, 3 };
  npy_intp d_uv[3] = { nt, 3, 2 }, d_col[3] = { nt, 3, 4 }, d_one[1] = { nt };
  PyObject *arr[6] = {
    PyArray_SimpleNew (2, d_pos, NPY_FLOAT32),
    PyArray_SimpleNew (2, d_tri, NPY_UINT32),
    PyArray_SimpleNew (3, d_uv, NPY_FLOAT32),
    PyArray_SimpleNew (3, d_col, NPY_FLOAT32),
    PyArray_SimpleNew (1, d_one, NPY_INT32),
    PyArray_SimpleNew (1, d_one, NPY_INT32),
  };
  static const char *const keys[6] = { "positions", "triangles", "uv", "color",
                                       "texture", "patch" };
  PyObject *d = NULL;
  for (int i = 0; i < 6; i++)
    if (arr[i] == NULL)
      goto done;
  WkTfragOut out = {
    PyArray_DATA ((PyArrayObject *) arr[0]), PyArray_DATA ((PyArrayObject *) arr[1]),
    PyArray_DATA ((PyArrayObject *) arr[2]), PyArray_DATA ((PyArrayObject *) arr[3]),
    PyArray_DATA ((PyArrayObject *) arr[4]), PyArray_DATA ((PyArrayObject *) arr[5]),
  };
  Py_BEGIN_ALLOW_THREADS
  wk_tfrags_fill (t, &out);
  Py_END_ALLOW_THREADS
  PyObject *patches = PyList_New (t->patches->len);
  for (guint i = 0; patches && i < t->patches->len; i++)
    {
      PyObject *p = patch_dict (&g_array_index (t->patches, WkTfragPatch, i));
      if (p == NULL)
        Py_CLEAR (patches);
      else
        PyList_SET_ITEM (patches, i, p);
    }
  d = PyDict_New ();
  if (d == NULL)
    {
      Py_XDECREF (patches);
      goto done;
    }
  for (int i = 0; i < 6; i++)
    {
      PyObject *a = arr[i];
      arr[i] = NULL;
      if (wk_dict_put (d, keys[i], a) < 0)
        {
          Py_CLEAR (d);
          Py_XDECREF (patches);
          goto done;
        }
    }
  if (wk_dict_put (d, "patches", patches) < 0
      || wk_dict_put (d, "lod_distance", PyFloat_FromDouble (t->lod_distance)) < 0)
    Py_CLEAR (d);
done:
  for (int i = 0; i < 6; i++)
    Py_XDECREF (arr[i]);
  wk_tfrags_free (t);
  PyBuffer_Release (&in);
  return d;
}

/* tfrag_texture(pixels, width, height, palette) -> (H, W, 4) uint8 */
static PyObject *
tfrag_texture (PyObject *module, PyObject *args)
{
  Py_buffer px, pal;
  unsigned int w, h;
  if (!PyArg_ParseTuple (args, "y*IIy*:tfrag_texture", &px, &w, &h, &pal))
    return NULL;
  PyObject *arr = NULL;
  if ((guint64) w * h > (guint64) px.len || pal.len < 1024 || w > 4096 || h > 4096)
    PyErr_Format (PyExc_ValueError, "%ux%u pixels need %llu bytes (%zd given) "
                  "and a 1024-byte palette (%zd given)", w, h,
                  (unsigned long long) w * h, px.len, pal.len);
  else
    {
      npy_intp dims[3] = { h, w, 4 };
      arr = PyArray_SimpleNew (3, dims, NPY_UINT8);
      if (arr != NULL)
        {
          guint8 *out = PyArray_DATA ((PyArrayObject *) arr);
          Py_BEGIN_ALLOW_THREADS
          wk_rc2_texture_rgba (px.buf, w, h, pal.buf, out);
          Py_END_ALLOW_THREADS
        }
    }
  PyBuffer_Release (&px);
  PyBuffer_Release (&pal);
  return arr;
}

/* tfrag_build([(pos, uv, color, idx, strip_len, strip_tex), ...],
 * lod_distance) -> bytes. Arrays (wk_array_arg): float32 (n,3), (n,2),
 * (n,4), uint32 indices, uint32 strip lengths, int32 strip textures. */
static PyObject *
tfrag_build (PyObject *module, PyObject *args)
{
  PyObject *seq;
  float lod_distance = 32.0f;
  if (!PyArg_ParseTuple (args, "O|f:tfrag_build", &seq, &lod_distance))
    return NULL;
  PyObject *fast = PySequence_Fast (seq, "meshes must be a sequence");
  if (fast == NULL)
    return NULL;
  Py_ssize_t count = PySequence_Fast_GET_SIZE (fast);
  WkTfragMesh *meshes = g_new0 (WkTfragMesh, MAX (count, 1));
  PyArrayObject **arrays = g_new0 (PyArrayObject *, 6 * MAX (count, 1));
  PyObject *result = NULL;
  static const char *const names[6] = { "positions", "uv", "color", "indices",
                                        "strip lengths", "strip textures" };
  static const int types[6] = { NPY_FLOAT32, NPY_FLOAT32, NPY_FLOAT32,
                                NPY_UINT32, NPY_UINT32, NPY_INT32 };
  for (Py_ssize_t m = 0; m < count; m++)
    {
      PyObject *item = PySequence_Fast_GET_ITEM (fast, m);
      if (!PyTuple_Check (item) || PyTuple_GET_SIZE (item) != 6)
        {
          PyErr_Format (PyExc_TypeError, "mesh %zd: a 6-tuple of arrays", m);
          goto done;
        }
      PyArrayObject **a = &arrays[6 * m];
      npy_intp n = WK_ANY, ns = WK_ANY;
      for (int k = 0; k < 6; k++)
        {
          /* uv and color as many rows as positions, textures as lengths */
          npy_intp shape[2] = { k == 1 || k == 2 ? n : k == 5 ? ns : WK_ANY,
                                k == 0 ? 3 : k == 1 ? 2 : 4 };
          g_autofree gchar *name = g_strdup_printf ("mesh %zd %s", m, names[k]);
          if (wk_array_arg (PyTuple_GET_ITEM (item, k), name, types[k],
                            k < 3 ? 2 : 1, shape, FALSE, &a[k]) < 0)
            goto done;
          if (k == 0)
            n = PyArray_DIM (a[0], 0);
          if (k == 4)
            ns = PyArray_DIM (a[4], 0);
        }
      WkTfragMesh *x = &meshes[m];
      x->n = (guint) MIN (n, G_MAXINT);
      x->pos = PyArray_DATA (a[0]);
      x->uv = PyArray_DATA (a[1]);
      x->color = PyArray_DATA (a[2]);
      x->idx = PyArray_DATA (a[3]);
      x->nidx = (guint) MIN (PyArray_DIM (a[3], 0), G_MAXINT);
      x->strip_len = PyArray_DATA (a[4]);
      x->strip_tex = PyArray_DATA (a[5]);
      x->nstrips = (guint) MIN (ns, G_MAXINT);
    }
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_tfrags_build (meshes, (guint) count, lod_distance, &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  wk_array_release (arrays, 6 * (gsize) count);
  g_free (arrays);
  g_free (meshes);
  Py_DECREF (fast);
  return result;
}

static PyMethodDef tfrag_methods[] = {
  { "tfrag_build", tfrag_build, METH_VARARGS,
    "tfrag_build(meshes, lod_distance=32.0) -> bytes: a tfrags block" },
  { "tfrag_parse", (PyCFunction) (void (*) (void)) tfrag_parse,
    METH_VARARGS | METH_KEYWORDS,
    "tfrag_parse(block, lod=0, texture_count=-1, base=0) -> dict of arrays" },
  { "tfrag_texture", tfrag_texture, METH_VARARGS,
    "tfrag_texture(pixels, width, height, palette) -> (H, W, 4) uint8 RGBA" },
  { NULL },
};

int
wk_rc2_tfrag_register (PyObject *module, WkModState *st)
{
  return PyModule_AddFunctions (module, tfrag_methods);
}
