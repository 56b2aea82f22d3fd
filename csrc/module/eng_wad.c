/* wadkit._core.EngWad: the ENG container, exposed to Python. */
#include "module.h"

#include "../core/common/wk_file.h"
#include "../core/eng/eng_wad.h"

typedef struct {
  PyObject_HEAD
  WkEngWad *wad;
} EngWadObject;

/* Parse a GBytes without the GIL. */
static WkEngWad *
parse_nogil (GBytes *bytes, GError **error)
{
  WkEngWad *wad;
  Py_BEGIN_ALLOW_THREADS
  wad = wk_eng_wad_parse (bytes, error);
  Py_END_ALLOW_THREADS
  return wad;
}
static PyObject *
eng_wad_new (PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "source", NULL };
  PyObject *source;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "O:EngWad", kwlist, &source))
    return NULL;
  WkModState *st = wk_state_from_type (type);
  if (st == NULL)
    return NULL;
  GError *error = NULL;
  GBytes *bytes = wk_source_bytes (source);
  if (bytes == NULL)
    return NULL;
  WkEngWad *wad = parse_nogil (bytes, &error);
  g_bytes_unref (bytes);
  if (wad == NULL)
    return wk_raise (st, error);
  EngWadObject *self = (EngWadObject *) type->tp_alloc (type, 0);
  if (self == NULL)
    {
      wk_eng_wad_free (wad);
      return NULL;
    }
  self->wad = wad;
  if (wk_warn_all (st, wad->warnings) < 0)
    {
      Py_DECREF (self);
      return NULL;
    }
  return (PyObject *) self;
}

static void
eng_wad_dealloc (EngWadObject *self)
{
  PyTypeObject *tp = Py_TYPE (self);
  g_clear_pointer (&self->wad, wk_eng_wad_free);
  tp->tp_free ((PyObject *) self);
  Py_DECREF (tp);
}

static int
eng_wad_getbuffer (EngWadObject *self, Py_buffer *view, int flags)
{
  return wk_bytes_getbuffer ((PyObject *) self, self->wad->bytes, view, flags);
}

static PyObject *
chunk_item (gconstpointer chunks, guint i)
{
  const WkEngChunk *c = &g_array_index ((GArray *) chunks, WkEngChunk, i);
  return Py_BuildValue ("(snnk)", c->name, (Py_ssize_t) c->offset,
                        (Py_ssize_t) c->size, (unsigned long) c->size_field);
}

static PyObject *
eng_wad_chunks (EngWadObject *self, void *closure)
{
  return wk_list_of (self->wad->chunks->len, chunk_item, self->wad->chunks);
}

static PyObject *
eng_wad_warnings (EngWadObject *self, void *closure)
{
  return wk_str_list (self->wad->warnings);
}

static PyObject *
eng_wad_declared_length (EngWadObject *self, void *closure)
{
  return PyLong_FromUnsignedLong (self->wad->declared_length);
}

static PyObject *
eng_wad_end (EngWadObject *self, void *closure)
{
  return PyLong_FromSize_t (self->wad->end);
}

static PyObject *
eng_wad_size (EngWadObject *self, void *closure)
{
  return PyLong_FromSize_t (g_bytes_get_size (self->wad->bytes));
}

static void
free_replacements (GBytes **repl, guint n)
{
  for (guint i = 0; repl && i < n; i++)
    g_clear_pointer (&repl[i], g_bytes_unref);
  g_free (repl);
}

/* {chunk index: bytes-like} -> one GBytes* per chunk (NULL = keep). */
static int
collect_replacements (EngWadObject *self, PyObject *mapping, GBytes ***out)
{
  guint n = self->wad->chunks->len;
  *out = NULL;
  if (mapping == NULL || mapping == Py_None)
    return 0;
  if (!PyDict_Check (mapping))
    {
      PyErr_SetString (PyExc_TypeError, "replacements must be a dict {index: bytes}");
      return -1;
    }
  GBytes **repl = g_new0 (GBytes *, n);
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next (mapping, &pos, &key, &value))
    {
      Py_ssize_t i = PyLong_AsSsize_t (key);
      if (i == -1 && PyErr_Occurred ())
        goto fail;
      if (i < 0 || (gsize) i >= n)
        {
          PyErr_Format (PyExc_IndexError, "no chunk %zd (the WAD has %u)", i, n);
          goto fail;
        }
      Py_buffer view;
      if (PyObject_GetBuffer (value, &view, PyBUF_SIMPLE) < 0)
        goto fail;
      g_clear_pointer (&repl[i], g_bytes_unref);
      repl[i] = g_bytes_new (view.buf, (gsize) view.len);
      PyBuffer_Release (&view);
    }
  *out = repl;
  return 0;
fail:
  free_replacements (repl, n);
  return -1;
}

static PyObject *
eng_wad_build (EngWadObject *self, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "replacements", NULL };
  PyObject *mapping = NULL;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "|O:build", kwlist, &mapping))
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  GBytes **repl;
  if (st == NULL || collect_replacements (self, mapping, &repl) < 0)
    return NULL;
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_eng_wad_build_checked (self->wad, repl, &error);
  Py_END_ALLOW_THREADS
  free_replacements (repl, self->wad->chunks->len);
  return wk_bytes_result (st, out, error);
}

static PyObject *
eng_wad_save (EngWadObject *self, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "path", "replacements", NULL };
  PyObject *path_obj, *mapping = NULL;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "O|O:save", kwlist, &path_obj,
                                    &mapping))
    return NULL;
  WkModState *st = wk_state_from_type (Py_TYPE (self));
  PyObject *path;
  if (st == NULL || wk_fs_path (path_obj, &path) < 0)
    return NULL;
  GBytes **repl;
  if (collect_replacements (self, mapping, &repl) < 0)
    {
      Py_DECREF (path);
      return NULL;
    }
  GError *error = NULL;
  gboolean ok = FALSE;
  Py_BEGIN_ALLOW_THREADS
  GBytes *out = wk_eng_wad_build_checked (self->wad, repl, &error);
  if (out != NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (out, &size);
      ok = wk_file_save_atomic (PyBytes_AS_STRING (path), data, size, &error);
      g_bytes_unref (out);
    }
  Py_END_ALLOW_THREADS
  free_replacements (repl, self->wad->chunks->len);
  Py_DECREF (path);
  if (!ok)
    return wk_raise_path (st, error, path_obj);
  Py_RETURN_NONE;
}

static PyGetSetDef eng_wad_getset[] = {
  { "chunks", (getter) eng_wad_chunks, NULL,
    "[(name, header offset, payload size, stored size field)] in file order", NULL },
  { "warnings", (getter) eng_wad_warnings, NULL, "oddities found while parsing", NULL },
  { "declared_length", (getter) eng_wad_declared_length, NULL,
    "the leading length field as stored", NULL },
  { "end", (getter) eng_wad_end, NULL, "offset just past the END chunk", NULL },
  { "size", (getter) eng_wad_size, NULL, "file size in bytes", NULL },
  { NULL },
};

static PyMethodDef eng_wad_methods[] = {
  { "build", (PyCFunction) (void (*) (void)) eng_wad_build,
    METH_VARARGS | METH_KEYWORDS,
    "build(replacements=None) -> bytes: the WAD, chunks replaced by index" },
  { "save", (PyCFunction) (void (*) (void)) eng_wad_save,
    METH_VARARGS | METH_KEYWORDS,
    "save(path, replacements=None): build, verify and write atomically" },
  { NULL },
};

static PyType_Slot eng_wad_slots[] = {
  { Py_tp_new, eng_wad_new },
  { Py_tp_dealloc, eng_wad_dealloc },
  { Py_tp_getset, eng_wad_getset },
  { Py_tp_methods, eng_wad_methods },
  { Py_bf_getbuffer, eng_wad_getbuffer },
  { Py_tp_doc, "EngWad(source): an ENG level WAD's chunk table. source is a "
               "path (memory-mapped for the object's lifetime), a bytes "
               "object (shared, not copied) or another bytes-like object "
               "(copied). The object exposes the whole file through the "
               "buffer protocol." },
  { 0, NULL },
};

static PyType_Spec eng_wad_spec = {
  .name = "wadkit._core.EngWad",
  .basicsize = sizeof (EngWadObject),
  .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
  .slots = eng_wad_slots,
};

int
wk_eng_wad_register (PyObject *module, WkModState *st)
{
  st->EngWadType = PyType_FromModuleAndSpec (module, &eng_wad_spec, NULL);
  if (st->EngWadType == NULL)
    return -1;
  return PyModule_AddObjectRef (module, "EngWad", st->EngWadType);
}
