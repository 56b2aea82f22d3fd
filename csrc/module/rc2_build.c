/* wadkit._core.rc2_build_level: a new RC2 level file (core:
 * csrc/core/rc2/rc2_build.c). Python glue: wadkit.rc2.build_level. */
#include "module.h"

#include "../core/rc2/rc2_build.h"

/* rc2_build_level(tfrags, textures [(w, h, palette, pixels)], palettes
 * (n x 1024 bytes RGBA), gameplay, level_id, reverb) -> bytes */
static PyObject *
rc2_build_level (PyObject *module, PyObject *args)
{
  Py_buffer tfrags = { 0 }, palettes = { 0 }, gameplay = { 0 };
  PyObject *textures;
  WkRc2NewLevel in = { 0 };
  if (!PyArg_ParseTuple (args, "y*Oy*y*ii:rc2_build_level", &tfrags, &textures,
                         &palettes, &gameplay, &in.level_id, &in.reverb))
    return NULL;
  PyObject *result = NULL, *fast = NULL;
  Py_buffer *views = NULL;
  WkRc2NewTexture *tex = NULL;
  Py_ssize_t held = 0, n = 0;
  if (palettes.len % WK_RC2_PALETTE_BYTES)
    {
      PyErr_Format (PyExc_ValueError, "palettes: %zd bytes, not a multiple of "
                    "%u", palettes.len, WK_RC2_PALETTE_BYTES);
      goto done;
    }
  fast = PySequence_Fast (textures, "textures: a sequence of (w, h, palette, pixels)");
  if (fast == NULL)
    goto done;
  n = PySequence_Fast_GET_SIZE (fast);
  views = g_new0 (Py_buffer, MAX (n, 1));
  tex = g_new0 (WkRc2NewTexture, MAX (n, 1));
  for (Py_ssize_t i = 0; i < n; i++)
    {
      WkRc2NewTexture *t = &tex[i];
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "IIIy*", &t->width,
                             &t->height, &t->palette, &views[i]))
        goto done;
      held++;
      if (views[i].len != (Py_ssize_t) t->width * t->height)
        {
          PyErr_Format (PyExc_ValueError, "texture %zd: %zd pixel bytes for "
                        "%u x %u", i, views[i].len, t->width, t->height);
          goto done;
        }
      t->pixels = views[i].buf;
    }
  in.tfrags = tfrags.buf;
  in.tfrags_size = (gsize) tfrags.len;
  in.n_textures = (guint) n;
  in.textures = tex;
  in.palettes = palettes.buf;
  in.n_palettes = (guint) MIN (palettes.len / WK_RC2_PALETTE_BYTES, G_MAXINT);
  in.gameplay = gameplay.buf;
  in.gameplay_size = (gsize) gameplay.len;
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_rc2_level_build (&in, &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  for (Py_ssize_t i = 0; i < held; i++)
    PyBuffer_Release (&views[i]);
  g_free (views);
  g_free (tex);
  Py_XDECREF (fast);
  PyBuffer_Release (&tfrags);
  PyBuffer_Release (&palettes);
  PyBuffer_Release (&gameplay);
  return result;
}

static PyMethodDef rc2_build_methods[] = {
  { "rc2_build_level", rc2_build_level, METH_VARARGS,
    "rc2_build_level(tfrags, textures, palettes, gameplay, level_id, reverb) "
    "-> bytes: a new RC2 level file" },
  { NULL },
};

int
wk_rc2_build_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, rc2_build_methods);
}
