/* wadkit._core.rc2_build_level: a new RC2 level file (core:
 * csrc/core/rc2/rc2_build.c). Python glue: wadkit.rc2.build_level. */
#include "wk_array.h"

#include "../core/rc2/rc2_build.h"
#include "../core/rc2/rc2_gameplay_write.h"

/* rc2_build_level(tfrags, textures [(w, h, palette, (h, w) uint8 pixels)],
 * palettes (n, 256, 4) uint8 RGBA, gameplay, level_id, reverb) -> bytes */
static PyObject *
rc2_build_level (PyObject *module, PyObject *args)
{
  Py_buffer tfrags = { 0 }, gameplay = { 0 };
  PyObject *textures, *pal_obj;
  WkRc2NewLevel in = { 0 };
  if (!PyArg_ParseTuple (args, "y*OOy*ii:rc2_build_level", &tfrags, &textures,
                         &pal_obj, &gameplay, &in.level_id, &in.reverb))
    return NULL;
  PyObject *result = NULL, *fast = NULL;
  PyArrayObject *palettes = NULL, **pixels = NULL;
  WkRc2NewTexture *tex = NULL;
  Py_ssize_t n = 0;
  const npy_intp pal_shape[3] = { WK_ANY, 256, 4 };
  G_STATIC_ASSERT (WK_RC2_PALETTE_BYTES == 256 * 4);
  if (wk_array_arg (pal_obj, "palettes", NPY_UINT8, 3, pal_shape, FALSE, &palettes) < 0)
    goto done;
  fast = PySequence_Fast (textures, "textures: a sequence of (w, h, palette, pixels)");
  if (fast == NULL)
    goto done;
  n = PySequence_Fast_GET_SIZE (fast);
  pixels = g_new0 (PyArrayObject *, MAX (n, 1));
  tex = g_new0 (WkRc2NewTexture, MAX (n, 1));
  for (Py_ssize_t i = 0; i < n; i++)
    {
      WkRc2NewTexture *t = &tex[i];
      PyObject *px;
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "IIIO", &t->width,
                             &t->height, &t->palette, &px))
        goto done;
      const npy_intp shape[2] = { t->height, t->width };
      g_autofree gchar *name = g_strdup_printf ("texture %zd pixels", i);
      if (wk_array_arg (px, name, NPY_UINT8, 2, shape, FALSE, &pixels[i]) < 0)
        goto done;
      t->pixels = PyArray_DATA (pixels[i]);
    }
  in.tfrags = tfrags.buf;
  in.tfrags_size = (gsize) tfrags.len;
  in.n_textures = (guint) n;
  in.textures = tex;
  in.palettes = PyArray_DATA (palettes);
  in.n_palettes = (guint) MIN (PyArray_DIM (palettes, 0), G_MAXINT);
  in.gameplay = gameplay.buf;
  in.gameplay_size = (gsize) gameplay.len;
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_rc2_level_build (&in, &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  if (pixels)
    wk_array_release (pixels, (gsize) n);
  g_free (pixels);
  g_free (tex);
  Py_XDECREF (palettes);
  Py_XDECREF (fast);
  PyBuffer_Release (&tfrags);
  PyBuffer_Release (&gameplay);
  return result;
}

/* rc2_empty_gameplay(tail) -> bytes */
static PyObject *
rc2_empty_gameplay (PyObject *module, PyObject *arg)
{
  Py_buffer tail;
  if (PyObject_GetBuffer (arg, &tail, PyBUF_SIMPLE) < 0)
    return NULL;
  GBytes *out = wk_rc2_gameplay_empty (tail.buf, (gsize) tail.len);
  PyBuffer_Release (&tail);
  return wk_bytes_result (wk_state_from_module (module), out, NULL);
}

static PyMethodDef rc2_build_methods[] = {
  { "rc2_empty_gameplay", rc2_empty_gameplay, METH_O,
    "rc2_empty_gameplay(tail, /) -> bytes: a gameplay with every block "
    "absent (the header of zero offsets), then tail" },
  { "rc2_build_level", rc2_build_level, METH_VARARGS,
    "rc2_build_level(tfrags, textures, palettes, gameplay, level_id, reverb) "
    "-> bytes: a new RC2 level file. textures: [(w, h, palette, (h, w) "
    "uint8 pixels)], palettes (n, 256, 4) uint8 RGBA" },
  { NULL },
};

int
wk_rc2_build_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, rc2_build_methods);
}
