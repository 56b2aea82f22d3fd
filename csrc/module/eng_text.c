/* wadkit._core.EngText: the ENG TEXT chunk (palettes, pages, texture table)
 * exposed to Python; decoders write into arrays allocated here. The page
 * records change under set_page_rgba, which runs without the GIL: `lock`
 * guards them (readers share it; taken only where the GIL is released or
 * where the holder never needs the GIL, so it cannot deadlock). */
#include "module.h"

#include "wk_array.h"

#include "../core/eng/eng_text.h"

typedef struct {
  PyObject_HEAD
  WkEngText *text;
  GRWLock lock; /* the pages: written by set_page_rgba */
} EngTextObject;

static const char *const kind_names[] = { "pal8", "rgb16", "rle16" };

static PyObject *
eng_text_new (PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "payload", "base_offset", NULL };
  PyObject *payload;
  long long base = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "O|L:EngText", kwlist, &payload,
                                    &base))
    return NULL;
  WkModState *st = wk_state_from_type (type);
  if (st == NULL)
    return NULL;
  GBytes *bytes = wk_shared_bytes (st, payload);
  if (bytes == NULL)
    return NULL;
  GError *error = NULL;
  WkEngText *text;
  Py_BEGIN_ALLOW_THREADS
  text = wk_eng_text_parse_bytes (bytes, base, &error);
  Py_END_ALLOW_THREADS
  g_bytes_unref (bytes);
  if (text == NULL)
    return wk_raise (st, error);
  EngTextObject *self = (EngTextObject *) type->tp_alloc (type, 0);
  if (self == NULL)
    {
      wk_eng_text_free (text);
      return NULL;
    }
  g_rw_lock_init (&self->lock);
  self->text = text;
  return (PyObject *) self;
}

static void
eng_text_dealloc (EngTextObject *self)
{
  PyTypeObject *tp = Py_TYPE (self);
  if (self->text)
    g_rw_lock_clear (&self->lock);
  g_clear_pointer (&self->text, wk_eng_text_free);
  tp->tp_free ((PyObject *) self);
  Py_DECREF (tp);
}

static int
page_index (EngTextObject *self, Py_ssize_t i)
{
  if (i < 0 || (gsize) i >= self->text->pages->len)
    {
      PyErr_Format (PyExc_IndexError, "no page %zd (the TEXT has %u)", i,
                    self->text->pages->len);
      return -1;
    }
  return 0;
}

static PyObject *
eng_text_pages (EngTextObject *self, void *closure)
{
  GArray *pages = self->text->pages;
  PyObject *list = PyList_New (pages->len);
  for (guint i = 0; list && i < pages->len; i++)
    {
      g_rw_lock_reader_lock (&self->lock);
      WkEngPage pg_copy = g_array_index (pages, WkEngPage, i);
      g_rw_lock_reader_unlock (&self->lock);
      const WkEngPage *pg = &pg_copy; /* its record is not used */
      PyObject *t = Py_BuildValue ("(skIIiOO)", kind_names[pg->kind],
                                   (unsigned long) pg->flags, pg->width,
                                   pg->height, pg->palette,
                                   pg->palette_shared ? Py_True : Py_False,
                                   pg->replaced ? Py_True : Py_False);
      if (t == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, t);
    }
  return list;
}

static PyObject *
eng_text_page_rgba (EngTextObject *self, PyObject *arg)
{
  Py_ssize_t i = PyLong_AsSsize_t (arg);
  if ((i == -1 && PyErr_Occurred ()) || page_index (self, i) < 0)
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  const WkEngPage *pg = &g_array_index (self->text->pages, WkEngPage, i); /* size: fixed */
  npy_intp dims[3] = { pg->height, pg->width, 4 };
  PyObject *arr = PyArray_SimpleNew (3, dims, NPY_UINT8);
  if (st == NULL || arr == NULL)
    {
      Py_XDECREF (arr);
      return NULL;
    }
  guint8 *out = PyArray_DATA ((PyArrayObject *) arr);
  GError *error = NULL;
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  g_rw_lock_reader_lock (&self->lock);
  ok = wk_eng_text_page_rgba (self->text, (guint) i, out, &error);
  g_rw_lock_reader_unlock (&self->lock);
  Py_END_ALLOW_THREADS
  if (!ok)
    {
      Py_DECREF (arr);
      return wk_raise (st, error);
    }
  return arr;
}

static PyObject *
eng_text_set_page_rgba (EngTextObject *self, PyObject *args)
{
  Py_ssize_t i;
  PyObject *obj;
  if (!PyArg_ParseTuple (args, "nO:set_page_rgba", &i, &obj) || page_index (self, i) < 0)
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  if (st == NULL)
    return NULL;
  const WkEngPage *pg = &g_array_index (self->text->pages, WkEngPage, i);
  const npy_intp shape[3] = { pg->height, pg->width, 4 };
  PyArrayObject *arr;
  if (wk_array_arg (obj, "rgba", NPY_UINT8, 3, shape, FALSE, &arr) < 0)
    return NULL;
  const guint8 *rgba = PyArray_DATA (arr);
  GError *error = NULL;
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  g_rw_lock_writer_lock (&self->lock);
  ok = wk_eng_text_set_page_rgba (self->text, (guint) i, rgba, &error);
  g_rw_lock_writer_unlock (&self->lock);
  Py_END_ALLOW_THREADS
  Py_DECREF (arr);
  if (!ok)
    return wk_raise (st, error);
  Py_RETURN_NONE;
}

static PyObject *
eng_text_palettes (EngTextObject *self, void *closure)
{
  GArray *pals = self->text->palettes;
  PyObject *list = PyList_New (pals->len);
  for (guint i = 0; list && i < pals->len; i++)
    {
      const WkEngPalette *p = &g_array_index (pals, WkEngPalette, i);
      npy_intp dims[2] = { p->count, 4 };
      PyObject *rgba = PyArray_SimpleNew (2, dims, NPY_UINT8);
      PyObject *extra = PyArray_SimpleNew (1, dims, NPY_UINT8);
      PyObject *t = NULL;
      if (rgba && extra)
        {
          wk_eng_text_palette_rgba (self->text, i, PyArray_DATA ((PyArrayObject *) rgba));
          memcpy (PyArray_DATA ((PyArrayObject *) extra), p->extra, p->count);
          t = Py_BuildValue ("(kOO)", (unsigned long) p->index, rgba, extra);
        }
      Py_XDECREF (rgba);
      Py_XDECREF (extra);
      if (t == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, t);
    }
  return list;
}

static PyObject *
eng_text_table_raw (EngTextObject *self, void *closure)
{
  const guint8 *data = g_bytes_get_data (self->text->payload, NULL);
  return PyBytes_FromStringAndSize ((const char *) data + self->text->table_offset,
                                    (Py_ssize_t) (self->text->tail_offset
                                                  - self->text->table_offset));
}

static PyObject *
eng_text_tail_raw (EngTextObject *self, void *closure)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (self->text->payload, &size);
  return PyBytes_FromStringAndSize ((const char *) data + self->text->tail_offset,
                                    (Py_ssize_t) (size - self->text->tail_offset));
}

/* Add a new array of shape dims to dict under name; returns its data. */
static void *
dict_array (PyObject *dict, const char *name, int nd, npy_intp *dims, int type)
{
  PyObject *arr = PyArray_SimpleNew (nd, dims, type);
  if (arr == NULL)
    return NULL;
  int rc = PyDict_SetItemString (dict, name, arr);
  Py_DECREF (arr);
  return rc < 0 ? NULL : PyArray_DATA ((PyArrayObject *) arr);
}

static PyObject *
eng_text_textures (EngTextObject *self, PyObject *unused)
{
  GArray *entries = self->text->entries;
  npy_intp n = entries->len, d4[2] = { n, 4 }, d3[2] = { n, 3 };
  PyObject *dict = PyDict_New ();
  if (dict == NULL)
    return NULL;
  guint16 *flags = dict_array (dict, "flags", 1, &n, NPY_UINT16);
  gint8 *page = flags ? dict_array (dict, "page", 1, &n, NPY_INT8) : NULL;
  gint8 *palette = page ? dict_array (dict, "palette", 1, &n, NPY_INT8) : NULL;
  guint8 *uv = palette ? dict_array (dict, "uv", 2, d4, NPY_UINT8) : NULL;
  float *rect = uv ? dict_array (dict, "rect", 2, d4, NPY_FLOAT32) : NULL;
  npy_bool *flat = rect ? dict_array (dict, "flat", 1, &n, NPY_BOOL) : NULL;
  guint8 *color = flat ? dict_array (dict, "color", 2, d3, NPY_UINT8) : NULL;
  guint8 *blend = color ? dict_array (dict, "blend", 1, &n, NPY_UINT8) : NULL;
  guint8 *mode2 = blend ? dict_array (dict, "mode2", 1, &n, NPY_UINT8) : NULL;
  if (mode2 == NULL)
    {
      Py_DECREF (dict);
      return NULL;
    }
  for (npy_intp j = 0; j < n; j++)
    {
      const WkEngTexEntry *e = &g_array_index (entries, WkEngTexEntry, j);
      flags[j] = e->flags;
      page[j] = e->page;
      palette[j] = e->page2;
      uv[4 * j] = e->u0;
      uv[4 * j + 1] = e->v0;
      uv[4 * j + 2] = e->u1;
      uv[4 * j + 3] = e->v1;
      wk_eng_tex_uv_rect (e, rect + 4 * j);
      flat[j] = wk_eng_tex_flat_rgb (e, color + 3 * j);
      if (!flat[j])
        memset (color + 3 * j, 0, 3);
      blend[j] = (guint8) WK_ENG_TEX_BLEND (e->flags);
      mode2[j] = (guint8) WK_ENG_TEX_MODE2 (e->flags);
    }
  return dict;
}

static PyObject *
effect_dict (const WkEngTexEffect *e)
{
  PyObject *params = PyTuple_New (e->n_params);
  PyObject *frames = PyList_New (e->frames ? e->frames->len : 0);
  PyObject *d = NULL;
  gboolean ok = params && frames;
  for (guint k = 0; ok && k < e->n_params; k++)
    {
      PyObject *v = PyLong_FromLong (e->params[k]);
      ok = v != NULL;
      PyTuple_SET_ITEM (params, k, v);
    }
  for (guint k = 0; ok && e->frames && k < e->frames->len; k++)
    {
      PyObject *v = PyLong_FromLong (g_array_index (e->frames, guint16, k));
      ok = v != NULL;
      PyList_SET_ITEM (frames, k, v);
    }
  if (ok)
    d = Py_BuildValue ("{s:I,s:I,s:O,s:O}", "texture", (unsigned) e->texture,
                       "type", (unsigned) e->type, "params", params,
                       "frames", frames);
  Py_XDECREF (params);
  Py_XDECREF (frames);
  return d;
}

static PyObject *
eng_text_effects (EngTextObject *self, void *closure)
{
  GArray *fx = self->text->effects;
  if (fx == NULL)
    Py_RETURN_NONE;
  PyObject *list = PyList_New (fx->len);
  for (guint i = 0; list && i < fx->len; i++)
    {
      PyObject *d = effect_dict (&g_array_index (fx, WkEngTexEffect, i));
      if (d == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, d);
    }
  return list;
}

static PyObject *
eng_text_effects_note (EngTextObject *self, void *closure)
{
  if (self->text->effects_note == NULL)
    Py_RETURN_NONE;
  return PyUnicode_FromString (self->text->effects_note);
}

static PyObject *
eng_text_build (EngTextObject *self, PyObject *unused)
{
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  g_rw_lock_reader_lock (&self->lock);
  out = wk_eng_text_build (self->text);
  g_rw_lock_reader_unlock (&self->lock);
  Py_END_ALLOW_THREADS
  return wk_bytes_result (NULL, out, NULL); /* never fails */
}

static PyObject *
eng_text_with_entries (EngTextObject *self, PyObject *arg)
{
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  Py_buffer view;
  if (st == NULL || PyObject_GetBuffer (arg, &view, PyBUF_SIMPLE) < 0)
    return NULL;
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  g_rw_lock_reader_lock (&self->lock);
  out = wk_eng_text_with_entries (self->text, view.buf, (gsize) view.len, &error);
  g_rw_lock_reader_unlock (&self->lock);
  Py_END_ALLOW_THREADS
  PyBuffer_Release (&view);
  return wk_bytes_result (st, out, error);
}

/* add_page(rgba, kind) -> index: a new 16-bit page ('rgb16' / 'rle16'). */
static PyObject *
eng_text_add_page (EngTextObject *self, PyObject *args)
{
  PyObject *obj;
  const char *kind_name;
  if (!PyArg_ParseTuple (args, "Os:add_page", &obj, &kind_name))
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  if (st == NULL)
    return NULL;
  WkEngPageKind kind;
  if (strcmp (kind_name, "rgb16") == 0)
    kind = WK_ENG_PAGE_RGB16;
  else if (strcmp (kind_name, "rle16") == 0)
    kind = WK_ENG_PAGE_RLE16;
  else
    {
      PyErr_Format (PyExc_ValueError, "a new page is 'rgb16' or 'rle16', not '%s'",
                    kind_name);
      return NULL;
    }
  static const npy_intp hw4[3] = { WK_ANY, WK_ANY, 4 };
  PyArrayObject *arr;
  if (wk_array_arg (obj, "rgba", NPY_UINT8, 3, hw4, FALSE, &arr) < 0)
    return NULL;
  npy_intp h = PyArray_DIM (arr, 0), w = PyArray_DIM (arr, 1);
  if (h < 1 || w < 1 || h > WK_ENG_PAGE_MAX_SIDE || w > WK_ENG_PAGE_MAX_SIDE)
    {
      PyErr_Format (PyExc_ValueError, "a new page needs sides 1..%u, not %zd x %zd",
                    WK_ENG_PAGE_MAX_SIDE, (Py_ssize_t) w, (Py_ssize_t) h);
      Py_DECREF (arr);
      return NULL;
    }
  GError *error = NULL;
  gint index;
  Py_BEGIN_ALLOW_THREADS
  g_rw_lock_writer_lock (&self->lock);
  index = wk_eng_text_add_page (self->text, PyArray_DATA (arr), (guint32) w,
                                (guint32) h, kind, &error);
  g_rw_lock_writer_unlock (&self->lock);
  Py_END_ALLOW_THREADS
  Py_DECREF (arr);
  if (index < 0)
    return wk_raise (st, error);
  return PyLong_FromLong (index);
}

static PyObject *add_entry (EngTextObject *self, WkModState *st,
                            const WkEngTexEntry *e);

/* add_entry(flags, page, page2, u0, u1, v0, v1) -> index. */
static PyObject *
eng_text_add_entry (EngTextObject *self, PyObject *args)
{
  unsigned int flags, u0, u1, v0, v1;
  int page, page2;
  if (!PyArg_ParseTuple (args, "IiiIIII:add_entry", &flags, &page, &page2, &u0,
                         &u1, &v0, &v1))
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  if (st == NULL)
    return NULL;
  if (flags > 0xffff || page < -128 || page > 127 || page2 < -128 || page2 > 127
      || u0 > 255 || u1 > 255 || v0 > 255 || v1 > 255)
    {
      PyErr_SetString (PyExc_ValueError, "texture entry: flags u16, page and "
                       "page2 i8, u0 u1 v0 v1 bytes");
      return NULL;
    }
  WkEngTexEntry e = { (guint16) flags, (gint8) page, (gint8) page2,
                      (guint8) u0, (guint8) u1, (guint8) v0, (guint8) v1 };
  return add_entry (self, st, &e);
}

/* add_flat_entry(flags, r, g, b) -> index: a flat-colour entry. */
static PyObject *
eng_text_add_flat_entry (EngTextObject *self, PyObject *args)
{
  unsigned int flags, rgb[3];
  if (!PyArg_ParseTuple (args, "IIII:add_flat_entry", &flags, &rgb[0], &rgb[1], &rgb[2]))
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  if (st == NULL)
    return NULL;
  if (flags > 0xffff || rgb[0] > 255 || rgb[1] > 255 || rgb[2] > 255)
    {
      PyErr_SetString (PyExc_ValueError, "flat entry: flags u16, r g b bytes");
      return NULL;
    }
  guint8 c[3] = { (guint8) rgb[0], (guint8) rgb[1], (guint8) rgb[2] };
  WkEngTexEntry e;
  wk_eng_tex_flat_entry (c, (guint16) flags, &e);
  return add_entry (self, st, &e);
}

static PyObject *
add_entry (EngTextObject *self, WkModState *st, const WkEngTexEntry *e)
{
  GError *error = NULL;
  g_rw_lock_writer_lock (&self->lock);
  gint index = wk_eng_text_add_entry (self->text, e, &error);
  g_rw_lock_writer_unlock (&self->lock);
  if (index < 0)
    return wk_raise (st, error);
  return PyLong_FromLong (index);
}

/* eng_face_uvs(rect, face_flags) -> (3, 2) float32: the renderer's UV
 * corner rules (eng_uv.c), for callers that need them one face at a time. */
static PyObject *
eng_face_uvs (PyObject *module, PyObject *args)
{
  float rect[4];
  unsigned int flags;
  if (!PyArg_ParseTuple (args, "(ffff)I:eng_face_uvs", &rect[0], &rect[1],
                         &rect[2], &rect[3], &flags))
    return NULL;
  npy_intp dims[2] = { 3, 2 };
  PyObject *arr = PyArray_SimpleNew (2, dims, NPY_FLOAT32);
  if (arr == NULL)
    return NULL;
  wk_eng_face_uvs (rect, (guint16) flags, PyArray_DATA ((PyArrayObject *) arr));
  return arr;
}

static PyObject *
entry_bytes (const WkEngTexEntry *e)
{
  guint8 raw[WK_ENG_TEX_ENTRY_SIZE];
  wk_eng_tex_entry_encode (e, raw);
  return PyBytes_FromStringAndSize ((const char *) raw, sizeof raw);
}

/* Each of n ints in its field's range; -1 with ValueError naming it. */
static int
check_fields (const int *v, const char *const *names, const int (*range)[2], int n)
{
  for (int k = 0; k < n; k++)
    if (v[k] < range[k][0] || v[k] > range[k][1])
      {
        PyErr_Format (PyExc_ValueError, "%s %d is outside %d..%d", names[k],
                      v[k], range[k][0], range[k][1]);
        return -1;
      }
  return 0;
}

/* eng_texture_entry(flags, page, palette, u0, v0, u1, v1) -> 8 bytes */
static PyObject *
eng_texture_entry (PyObject *module, PyObject *args)
{
  int v[7];
  static const char *const names[7] = { "flags", "page", "palette", "u0", "v0",
                                        "u1", "v1" };
  static const int range[7][2] = { { 0, 0xffff }, { -128, 127 }, { -128, 127 },
                                   { 0, 255 }, { 0, 255 }, { 0, 255 }, { 0, 255 } };
  if (!PyArg_ParseTuple (args, "iiiiiii:eng_texture_entry", &v[0], &v[1], &v[2],
                         &v[3], &v[4], &v[5], &v[6])
      || check_fields (v, names, range, 7) < 0)
    return NULL;
  WkEngTexEntry e = { (guint16) v[0], (gint8) v[1], (gint8) v[2], (guint8) v[3],
                      (guint8) v[5], (guint8) v[4], (guint8) v[6] };
  return entry_bytes (&e);
}

/* eng_flat_entry(r, g, b, flags=0) -> 8 bytes */
static PyObject *
eng_flat_entry (PyObject *module, PyObject *args)
{
  int v[4] = { 0, 0, 0, 0 };
  static const char *const names[4] = { "r", "g", "b", "flags" };
  static const int range[4][2] = { { 0, 255 }, { 0, 255 }, { 0, 255 }, { 0, 0xffff } };
  if (!PyArg_ParseTuple (args, "iii|i:eng_flat_entry", &v[0], &v[1], &v[2], &v[3])
      || check_fields (v, names, range, 4) < 0)
    return NULL;
  const guint8 rgb[3] = { (guint8) v[0], (guint8) v[1], (guint8) v[2] };
  WkEngTexEntry e;
  wk_eng_tex_flat_entry (rgb, (guint16) v[3], &e);
  return entry_bytes (&e);
}

static PyGetSetDef eng_text_getset[] = {
  { "pages", (getter) eng_text_pages, NULL,
    "[(kind, flags, width, height, palette, palette_shared, replaced)]", NULL },
  { "palettes", (getter) eng_text_palettes, NULL,
    "[(index field, (n, 4) uint8 RGBA, (n,) uint8 extra bytes)]", NULL },
  { "table_raw", (getter) eng_text_table_raw, NULL,
    "the texture table as stored (n × 8 bytes)", NULL },
  { "tail_raw", (getter) eng_text_tail_raw, NULL,
    "the bytes after the texture table (the effect list)", NULL },
  { "effects", (getter) eng_text_effects, NULL,
    "decoded effect records, or None when the tail does not decode", NULL },
  { "effects_note", (getter) eng_text_effects_note, NULL,
    "why effects is None (or None)", NULL },
  { NULL },
};

static PyMethodDef eng_text_methods[] = {
  { "page_rgba", (PyCFunction) eng_text_page_rgba, METH_O,
    "page_rgba(i) -> (height, width, 4) uint8" },
  { "set_page_rgba", (PyCFunction) eng_text_set_page_rgba, METH_VARARGS,
    "set_page_rgba(i, rgba): re-encode page i in its own kind" },
  { "add_page", (PyCFunction) eng_text_add_page, METH_VARARGS,
    "add_page(rgba, kind) -> index: a new 'rgb16' or 'rle16' page" },
  { "add_entry", (PyCFunction) eng_text_add_entry, METH_VARARGS,
    "add_entry(flags, page, page2, u0, u1, v0, v1) -> index: a new table entry" },
  { "add_flat_entry", (PyCFunction) eng_text_add_flat_entry, METH_VARARGS,
    "add_flat_entry(flags, r, g, b) -> index: a new flat-colour entry" },
  { "textures", (PyCFunction) eng_text_textures, METH_NOARGS,
    "textures() -> dict of arrays, one row per texture-table entry (uv: "
    "u0 v0 u1 v1; the file stores u0 u1 v0 v1)" },
  { "build", (PyCFunction) eng_text_build, METH_NOARGS,
    "build() -> bytes: the TEXT payload (identical when nothing changed)" },
  { "with_entries", (PyCFunction) eng_text_with_entries, METH_O,
    "with_entries(entries, /) -> bytes: the TEXT payload with these raw "
    "8-byte entries appended to the texture table (existing indices keep "
    "their meaning); LimitError past 65536 entries" },
  { NULL },
};

static PyMethodDef eng_text_functions[] = {
  { "eng_texture_entry", eng_texture_entry, METH_VARARGS,
    "eng_texture_entry(flags, page, palette, u0, v0, u1, v1) -> bytes: one "
    "8-byte texture-table entry (u1, v1 inclusive; palette = byte 3)" },
  { "eng_flat_entry", eng_flat_entry, METH_VARARGS,
    "eng_flat_entry(r, g, b, flags=0) -> bytes: one 8-byte flat-colour "
    "entry" },
  { "eng_face_uvs", eng_face_uvs, METH_VARARGS,
    "eng_face_uvs((U0, V0, U1, V1), face_flags) -> (3, 2) float32 UVs" },
  { NULL },
};

static PyType_Slot eng_text_slots[] = {
  { Py_tp_new, eng_text_new },
  { Py_tp_dealloc, eng_text_dealloc },
  { Py_tp_getset, eng_text_getset },
  { Py_tp_methods, eng_text_methods },
  { Py_tp_doc, "EngText(payload, base_offset=0): a parsed ENG TEXT chunk. "
               "The payload is shared when it cannot change (bytes, an EngWad "
               "or a memoryview of one), else copied. base_offset is the "
               "payload's file offset, used in error messages." },
  { 0, NULL },
};

static PyType_Spec eng_text_spec = {
  .name = "wadkit._core.EngText",
  .basicsize = sizeof (EngTextObject),
  .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
  .slots = eng_text_slots,
};

int
wk_eng_text_register (PyObject *module, WkModState *st)
{
  st->EngTextType = PyType_FromModuleAndSpec (module, &eng_text_spec, NULL);
  if (st->EngTextType == NULL
      || PyModule_AddObjectRef (module, "EngText", st->EngTextType) < 0)
    return -1;
  return PyModule_AddFunctions (module, eng_text_functions);
}
