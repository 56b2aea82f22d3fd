/* wadkit._core.Rc2Level: the RC2 LEVEL<n>.WAD container, exposed to Python. */
#include "module.h"

#include "wk_numpy.h"
#include "../core/rc2/rc2_level.h"
#include "../core/rc2/rc2_texture.h"
#include "../core/rc2/tfrag.h"

typedef struct {
  PyObject_HEAD
  WkRc2Level *lvl;
} Rc2LevelObject;

void *
wk_rc2_level_held (WkModState *st, PyObject *o)
{
  return PyObject_TypeCheck (o, (PyTypeObject *) st->Rc2LevelType)
      ? ((Rc2LevelObject *) o)->lvl : NULL;
}

static PyObject *
rc2_level_new (PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "source", NULL };
  PyObject *source;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "O:Rc2Level", kwlist, &source))
    return NULL;
  WkModState *st = wk_state_from_type (type);
  if (st == NULL)
    return NULL;
  GError *error = NULL;
  GBytes *bytes = wk_source_bytes (source);
  if (bytes == NULL)
    return NULL;
  WkRc2Level *lvl;
  Py_BEGIN_ALLOW_THREADS
  lvl = wk_rc2_level_parse (bytes, &error);
  Py_END_ALLOW_THREADS
  g_bytes_unref (bytes);
  if (lvl == NULL)
    return wk_raise (st, error);
  Rc2LevelObject *self = (Rc2LevelObject *) type->tp_alloc (type, 0);
  if (self == NULL)
    {
      wk_rc2_level_free (lvl);
      return NULL;
    }
  self->lvl = lvl;
  return (PyObject *) self;
}

static void
rc2_level_dealloc (Rc2LevelObject *self)
{
  PyTypeObject *tp = Py_TYPE (self);
  g_clear_pointer (&self->lvl, wk_rc2_level_free);
  tp->tp_free ((PyObject *) self);
  Py_DECREF (tp);
}

static int
rc2_level_getbuffer (Rc2LevelObject *self, Py_buffer *view, int flags)
{
  return wk_bytes_getbuffer ((PyObject *) self, self->lvl->bytes, view, flags);
}

static PyObject *
rc2_level_header (Rc2LevelObject *self, void *closure)
{
  const WkRc2Level *l = self->lvl;
  return Py_BuildValue ("{sIsisisi}", "header_size", l->header_size, "sector",
                        l->sector, "id", l->id, "reverb", l->reverb);
}

static PyObject *
rc2_level_extents (Rc2LevelObject *self, void *closure)
{
  PyObject *d = PyDict_New ();
  for (guint i = 0; d && i < self->lvl->n_extents; i++)
    {
      const WkRc2Extent *x = &self->lvl->extents[i];
      if (wk_dict_put (d, x->name,
                       Py_BuildValue ("(nnii)", (Py_ssize_t) x->offset,
                                      (Py_ssize_t) x->size, x->sector,
                                      x->sectors)) < 0)
        Py_CLEAR (d);
    }
  return d;
}

static PyObject *
rc2_level_sections (Rc2LevelObject *self, void *closure)
{
  PyObject *d = PyDict_New ();
  for (guint i = 0; d && i < WK_RC2_SECTIONS; i++)
    {
      const WkRc2Section *s = &self->lvl->sections[i];
      if (wk_dict_put (d, s->name, Py_BuildValue ("(nn)", (Py_ssize_t) s->offset,
                                                  (Py_ssize_t) s->size)) < 0)
        Py_CLEAR (d);
    }
  return d;
}

static PyObject *
rc2_level_core_header (Rc2LevelObject *self, void *closure)
{
  PyObject *d = PyDict_New ();
  for (const WkRc2CoreField *f = wk_rc2_core_fields; d && f->name; f++)
    {
      gint32 v = WK_RC2_CORE (self->lvl, f->offset);
      PyObject *value = f->is_range
          ? Py_BuildValue ("(ii)", v, WK_RC2_CORE (self->lvl, f->offset + 4))
          : PyLong_FromLong (v);
      if (wk_dict_put (d, f->name, value) < 0)
        Py_CLEAR (d);
    }
  return d;
}

static PyObject *
rc2_level_decompress (Rc2LevelObject *self, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "name", "max_size", NULL };
  const char *name;
  Py_ssize_t max_size = (Py_ssize_t) 1 << 28;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "s|n:decompress", kwlist, &name,
                                    &max_size))
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  if (st == NULL)
    return NULL;
  GError *error = NULL;
  gsize off, size;
  gint64 expected;
  if (!wk_rc2_stream (self->lvl, name, &off, &size, &expected, &error))
    return wk_raise (st, error);
  g_autofree gchar *ctx = g_strdup_printf ("RC2 %s", name);
  return wk_lz_decompress_py (st, wk_rc2_data (self->lvl) + off, size,
                              (gint64) off, max_size, (Py_ssize_t) expected, ctx);
}

/* tfrag_block(core_size) -> (start, end, texture_count) */
static PyObject *
rc2_level_tfrag_block (Rc2LevelObject *self, PyObject *arg)
{
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  Py_ssize_t size = PyLong_AsSsize_t (arg);
  if (st == NULL || (size == -1 && PyErr_Occurred ()))
    return NULL;
  if (size < 0)
    {
      PyErr_SetString (PyExc_ValueError, "core_size must be >= 0");
      return NULL;
    }
  gsize start, end;
  guint count;
  GError *error = NULL;
  if (!wk_rc2_tfrag_block (self->lvl, (gsize) size, &start, &end, &count, &error))
    return wk_raise (st, error);
  return Py_BuildValue ("(nnI)", (Py_ssize_t) start, (Py_ssize_t) end, count);
}

/* core_block(name, core_size) -> (start, end) */
static PyObject *
rc2_level_core_block (Rc2LevelObject *self, PyObject *args)
{
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  const char *name;
  Py_ssize_t size;
  if (st == NULL || !PyArg_ParseTuple (args, "sn:core_block", &name, &size))
    return NULL;
  if (size < 0)
    {
      PyErr_SetString (PyExc_ValueError, "core_size must be >= 0");
      return NULL;
    }
  gsize start, end;
  GError *error = NULL;
  if (!wk_rc2_core_block (self->lvl, name, (gsize) size, &start, &end, &error))
    return wk_raise (st, error);
  return Py_BuildValue ("(nn)", (Py_ssize_t) start, (Py_ssize_t) end);
}

/* tfrag_texture_count() -> int */
static PyObject *
rc2_level_tfrag_texture_count (Rc2LevelObject *self, PyObject *Py_UNUSED (arg))
{
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  if (st == NULL)
    return NULL;
  guint count;
  GError *error = NULL;
  if (!wk_rc2_tfrag_texture_count (self->lvl, &count, &error))
    return wk_raise (st, error);
  return PyLong_FromUnsignedLong (count);
}

/* textures(core_data, kind) -> [(H, W, 4) uint8]: a texture table decoded
 * and checked in the core (rc2_texture.c), the texels expanded here into
 * arrays allocated here. */
static PyObject *
rc2_level_textures (Rc2LevelObject *self, PyObject *args)
{
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  Py_buffer core;
  const char *kind = "tfrag";
  if (st == NULL || !PyArg_ParseTuple (args, "y*|s:textures", &core, &kind))
    return NULL;
  GError *error = NULL;
  GArray *tex = wk_rc2_textures (self->lvl, kind, core.buf, (gsize) core.len, &error);
  PyObject *list = tex ? PyList_New (tex->len) : wk_raise (st, error);
  for (guint i = 0; list && i < tex->len; i++)
    {
      const WkRc2Texture *t = &g_array_index (tex, WkRc2Texture, i);
      npy_intp dims[3] = { t->height, t->width, 4 };
      PyObject *a = PyArray_SimpleNew (3, dims, NPY_UINT8);
      if (a == NULL)
        {
          Py_CLEAR (list);
          break;
        }
      guint8 *out = PyArray_DATA ((PyArrayObject *) a);
      Py_BEGIN_ALLOW_THREADS
      wk_rc2_texture_rgba (t->pixels, t->width, t->height, t->palette, out);
      Py_END_ALLOW_THREADS
      PyList_SET_ITEM (list, i, a);
    }
  if (tex)
    g_array_unref (tex);
  PyBuffer_Release (&core);
  return list;
}

static PyObject *
rc2_level_chunks (Rc2LevelObject *self, void *closure)
{
  PyObject *d = PyDict_New ();
  for (guint i = 0; d && i < 3; i++)
    {
      gint32 t, c;
      if (!wk_rc2_chunk (self->lvl, i, &t, &c))
        continue;
      char name[8];
      g_snprintf (name, sizeof name, "chunk%u", i);
      if (wk_dict_put (d, name, Py_BuildValue ("{sisi}", "tfrags", t,
                                               "collision", c)) < 0)
        Py_CLEAR (d);
    }
  return d;
}

static PyGetSetDef rc2_level_getset[] = {
  { "header", (getter) rc2_level_header, NULL,
    "{header_size, sector, id, reverb} of the level header", NULL },
  { "extents", (getter) rc2_level_extents, NULL,
    "{name: (byte offset, byte size, sector, sector count)}", NULL },
  { "sections", (getter) rc2_level_sections, NULL,
    "{name: (absolute byte offset, byte size)} of the data extent's pairs", NULL },
  { "chunk_headers", (getter) rc2_level_chunks, NULL,
    "{'chunk<i>': {tfrags, collision}}: the header of each present chunk "
    "extent (stream offsets from the extent start, 0 = none)", NULL },
  { "core_header", (getter) rc2_level_core_header, NULL,
    "the 0xbc-byte core header: {name: int or (count, offset)}", NULL },
  { NULL },
};

static PyMethodDef rc2_level_methods[] = {
  { "decompress", (PyCFunction) (void (*) (void)) rc2_level_decompress,
    METH_VARARGS | METH_KEYWORDS,
    "decompress(name, max_size=1<<28) -> bytes: 'core_data', 'gameplay', "
    "'gameplay_pal' (checked against the size the container declares), "
    "'chunk<i>.tfrags' or 'chunk<i>.collision'" },
  { "tfrag_block", (PyCFunction) rc2_level_tfrag_block, METH_O,
    "tfrag_block(core_size, /) -> (start, end, texture_count): where the "
    "tfrags block lies in core_data and the tfrag texture count, checked" },
  { "core_block", (PyCFunction) rc2_level_core_block, METH_VARARGS,
    "core_block(name, core_size, /) -> (start, end): where the 'tfrags', "
    "'sky' or 'collision' block lies in core_data (none has a stored size), "
    "checked" },
  { "tfrag_texture_count", (PyCFunction) rc2_level_tfrag_texture_count, METH_NOARGS,
    "tfrag_texture_count() -> int: the core header's tfrag texture count, "
    "checked (FormatError when negative)" },
  { "textures", (PyCFunction) rc2_level_textures, METH_VARARGS,
    "textures(core_data, kind='tfrag', /) -> [(H, W, 4) uint8]: a texture "
    "table of the core header ('tfrag', 'moby', 'tie', 'shrub') decoded, each "
    "entry checked against core_data (the decompressed stream) and gs_ram" },
  { NULL },
};

static PyType_Slot rc2_level_slots[] = {
  { Py_tp_new, rc2_level_new },
  { Py_tp_dealloc, rc2_level_dealloc },
  { Py_tp_getset, rc2_level_getset },
  { Py_tp_methods, rc2_level_methods },
  { Py_bf_getbuffer, rc2_level_getbuffer },
  { Py_tp_doc, "Rc2Level(source): an RC2 LEVEL<n>.WAD, parsed and cross-checked. "
               "source is a path (memory-mapped for the object's lifetime), "
               "a bytes object (shared, not copied) or another bytes-like "
               "object (copied); the object exposes the whole file through "
               "the buffer protocol." },
  { 0, NULL },
};

static PyType_Spec rc2_level_spec = {
  .name = "wadkit._core.Rc2Level",
  .basicsize = sizeof (Rc2LevelObject),
  .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
  .slots = rc2_level_slots,
};

int
wk_rc2_register (PyObject *module, WkModState *st)
{
  st->Rc2LevelType = PyType_FromModuleAndSpec (module, &rc2_level_spec, NULL);
  if (st->Rc2LevelType == NULL)
    return -1;
  return PyModule_AddObjectRef (module, "Rc2Level", st->Rc2LevelType);
}
