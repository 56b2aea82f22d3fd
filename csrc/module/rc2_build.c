/* wadkit._core.rc2_build_level: a new RC2 level file (core:
 * csrc/core/rc2/rc2_build.c). Python glue: wadkit.rc2.build_level. */
#include "wk_array.h"

#include <string.h>

#include "../core/rc2/rc2_build.h"
#include "../core/rc2/rc2_gameplay_write.h"

/* Optional parts of the level: sky, collision (bytes or None), classes
 * {kind: [(id, data bytes or None, 16 slot bytes, 8 billboard s16)]},
 * tables [None or [texture index, ...]] × 4 (tfrag, moby, tie, shrub). */
typedef struct {
  Py_buffer sky, collision;
  Py_buffer *held;
  gsize n_held;
  WkRc2NewClass *classes[WK_RC2_KINDS];
  guint *tables[WK_RC2_TABLES];
} Parts;

static void
parts_clear (Parts *p)
{
  PyBuffer_Release (&p->sky);
  PyBuffer_Release (&p->collision);
  for (gsize i = 0; i < p->n_held; i++)
    PyBuffer_Release (&p->held[i]);
  g_free (p->held);
  for (int k = 0; k < WK_RC2_KINDS; k++)
    g_free (p->classes[k]);
  for (int t = 0; t < WK_RC2_TABLES; t++)
    g_free (p->tables[t]);
}

static int
optional_buffer (PyObject *obj, Py_buffer *view, const guint8 **data, gsize *size)
{
  if (obj == Py_None)
    return 0;
  if (PyObject_GetBuffer (obj, view, PyBUF_SIMPLE) < 0)
    return -1;
  *data = view->buf;
  *size = (gsize) view->len;
  return 0;
}

static int
parse_classes (PyObject *dict, Parts *p, WkRc2NewLevel *in)
{
  if (!PyDict_Check (dict))
    {
      PyErr_SetString (PyExc_TypeError, "classes: a dict {kind: [(id, data, slots, billboard)]}");
      return -1;
    }
  static const char *const kinds[WK_RC2_KINDS] = { "tie", "shrub", "moby" };
  gsize total = 0;
  PyObject *lists[WK_RC2_KINDS] = { NULL };
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next (dict, &pos, &key, &value))
    {
      const char *name = PyUnicode_Check (key) ? PyUnicode_AsUTF8 (key) : NULL;
      int k = 0;
      while (name && k < WK_RC2_KINDS && strcmp (name, kinds[k]) != 0)
        k++;
      if (name == NULL || k == WK_RC2_KINDS)
        {
          PyErr_Clear ();
          PyErr_Format (PyExc_ValueError, "classes: kind %R is not tie, shrub or moby", key);
          return -1;
        }
      lists[k] = value;
    }
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      if (lists[k] && !PyList_Check (lists[k]))
        {
          PyErr_Format (PyExc_TypeError, "classes[%s]: a list", kinds[k]);
          return -1;
        }
      total += lists[k] ? (gsize) PyList_GET_SIZE (lists[k]) : 0;
    }
  p->held = g_new0 (Py_buffer, MAX (total, 1));
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      Py_ssize_t n = lists[k] ? PyList_GET_SIZE (lists[k]) : 0;
      p->classes[k] = g_new0 (WkRc2NewClass, MAX (n, 1));
      for (Py_ssize_t i = 0; i < n; i++)
        {
          WkRc2NewClass *c = &p->classes[k][i];
          PyObject *data;
          Py_buffer slots;
          short bb[8];
          if (!PyArg_ParseTuple (PyList_GET_ITEM (lists[k], i), "iOy*(hhhhhhhh)", &c->id,
                                 &data, &slots, &bb[0], &bb[1], &bb[2], &bb[3], &bb[4],
                                 &bb[5], &bb[6], &bb[7]))
            return -1;
          gboolean ok = slots.len == 16;
          if (ok)
            memcpy (c->textures, slots.buf, 16);
          PyBuffer_Release (&slots);
          if (!ok)
            {
              PyErr_Format (PyExc_ValueError, "%s class %d: 16 texture slot bytes", kinds[k],
                            c->id);
              return -1;
            }
          for (int b = 0; b < 8; b++)
            c->billboard[b] = bb[b];
          if (optional_buffer (data, &p->held[p->n_held], &c->data, &c->size) < 0)
            return -1;
          if (data != Py_None)
            p->n_held++;
        }
      in->n_classes[k] = (guint) n;
      in->classes[k] = p->classes[k];
    }
  return 0;
}

static int
parse_tables (PyObject *seq, Parts *p, WkRc2NewLevel *in)
{
  if (!PyList_Check (seq) || PyList_GET_SIZE (seq) != WK_RC2_TABLES)
    {
      PyErr_SetString (PyExc_TypeError, "tables: a list of 4 (tfrag, moby, tie, shrub)");
      return -1;
    }
  for (int t = 0; t < WK_RC2_TABLES; t++)
    {
      PyObject *l = PyList_GET_ITEM (seq, t);
      if (l == Py_None)
        continue;
      if (!PyList_Check (l))
        {
          PyErr_SetString (PyExc_TypeError, "tables: lists of texture indices");
          return -1;
        }
      Py_ssize_t n = PyList_GET_SIZE (l);
      p->tables[t] = g_new0 (guint, MAX (n, 1));
      for (Py_ssize_t i = 0; i < n; i++)
        {
          unsigned long v = PyLong_AsUnsignedLong (PyList_GET_ITEM (l, i));
          if (v == (unsigned long) -1 && PyErr_Occurred ())
            return -1;
          p->tables[t][i] = (guint) MIN (v, G_MAXUINT);
        }
      in->table[t] = p->tables[t];
      in->n_table[t] = (guint) n;
    }
  return 0;
}

/* rc2_build_level(tfrags, textures [(w, h, palette, (h, w) uint8 pixels)],
 * palettes (n, 256, 4) uint8 RGBA, gameplay, level_id, reverb, sky=None,
 * collision=None, classes={}, tables=[None] * 4) -> bytes */
static PyObject *
rc2_build_level (PyObject *module, PyObject *args)
{
  Py_buffer tfrags = { 0 }, gameplay = { 0 };
  PyObject *textures, *pal_obj, *sky = Py_None, *coll = Py_None, *classes = NULL,
           *tables = NULL;
  WkRc2NewLevel in = { 0 };
  Parts parts = { 0 };
  if (!PyArg_ParseTuple (args, "y*OOy*ii|OOOO:rc2_build_level", &tfrags, &textures,
                         &pal_obj, &gameplay, &in.level_id, &in.reverb, &sky, &coll,
                         &classes, &tables))
    return NULL;
  PyObject *result = NULL, *fast = NULL;
  PyArrayObject *palettes = NULL, **pixels = NULL;
  WkRc2NewTexture *tex = NULL;
  Py_ssize_t n = 0;
  if (optional_buffer (sky, &parts.sky, &in.sky, &in.sky_size) < 0
      || optional_buffer (coll, &parts.collision, &in.collision, &in.collision_size) < 0
      || (classes && parse_classes (classes, &parts, &in) < 0)
      || (tables && parse_tables (tables, &parts, &in) < 0))
    goto done;
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
  parts_clear (&parts);
  PyBuffer_Release (&tfrags);
  PyBuffer_Release (&gameplay);
  return result;
}

/* tail (a buffer) -> bytes of make(tail) */
static PyObject *
gameplay_from_tail (PyObject *module, PyObject *arg,
                    GBytes *(*make) (const guint8 *, gsize))
{
  Py_buffer tail;
  if (PyObject_GetBuffer (arg, &tail, PyBUF_SIMPLE) < 0)
    return NULL;
  GBytes *out = make (tail.buf, (gsize) tail.len);
  PyBuffer_Release (&tail);
  return wk_bytes_result (wk_state_from_module (module), out, NULL);
}

/* rc2_new_gameplay(tail) -> bytes */
static PyObject *
rc2_new_gameplay (PyObject *module, PyObject *arg)
{
  return gameplay_from_tail (module, arg, wk_rc2_gameplay_skeleton);
}

/* rc2_empty_gameplay(tail) -> bytes */
static PyObject *
rc2_empty_gameplay (PyObject *module, PyObject *arg)
{
  return gameplay_from_tail (module, arg, wk_rc2_gameplay_empty);
}

static PyMethodDef rc2_build_methods[] = {
  { "rc2_new_gameplay", rc2_new_gameplay, METH_O,
    "rc2_new_gameplay(tail, /) -> bytes: a gameplay with empty settings, "
    "class lists and instance blocks (moby, tie, shrub) after the header and "
    "tail, for rc2_gameplay_write to fill" },
  { "rc2_empty_gameplay", rc2_empty_gameplay, METH_O,
    "rc2_empty_gameplay(tail, /) -> bytes: a gameplay with every block "
    "absent (the header of zero offsets), then tail" },
  { "rc2_build_level", rc2_build_level, METH_VARARGS,
    "rc2_build_level(tfrags, textures, palettes, gameplay, level_id, reverb, "
    "sky=None, collision=None, classes={}, tables=[None]*4) -> bytes: a new RC2 "
    "level file. textures: [(w, h, palette, (h, w) uint8 pixels)], palettes "
    "(n, 256, 4) uint8 RGBA; classes {kind: [(id, data or None, 16 slot bytes, "
    "8 billboard s16)]}; tables: texture indices of the tfrag, moby, tie and "
    "shrub tables (None: tfrag = all, others empty)" },
  { NULL },
};

int
wk_rc2_build_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, rc2_build_methods);
}
