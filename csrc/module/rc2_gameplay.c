/* wadkit._core.rc2_gameplay_parse / rc2_classes_parse /
 * rc2_gameplay_layouts: RC2 gameplay blocks, instances and core class
 * tables to Python dicts of NumPy arrays. Arrays are allocated here and
 * filled by the core with the GIL released. */
#include "module.h"

#include "wk_array.h"
#include "../core/common/wk_error.h"
#include "../core/common/wk_reader.h"
#include "../core/rc2/rc2_classes.h"
#include "../core/rc2/rc2_gameplay.h"

static const char *const kind_keys[WK_RC2_KINDS] = { "tie", "shrub", "moby" };

/* One field of count records: an int32 / float32 array of shape (n,),
 * (n, k) or (n, 4, 4). */
static PyObject *
field_array (const WkRc2Field *f, guint count)
{
  npy_intp dims[3] = { count, f->n, 0 };
  int nd = f->n == 1 ? 1 : 2;
  if (f->n == 16)
    {
      dims[1] = dims[2] = 4;
      nd = 3;
    }
  int type = f->type == WK_RC2_I32 ? NPY_INT32 : NPY_FLOAT32;
  return PyArray_SimpleNew (nd, dims, type);
}

/* A record's fields as Python values (scalars or tuples); small records. */
static PyObject *
record_dict (const WkRc2Field *fields, const guint8 *rec)
{
  PyObject *d = PyDict_New ();
  for (const WkRc2Field *f = fields; d && f->name; f++)
    {
      guint32 v[16];
      wk_rc2_field_fill (f, rec, 1, 0, v);
      PyObject *t = f->n == 1 ? NULL : PyTuple_New (f->n);
      PyObject *value = t;
      for (guint k = 0; k < f->n; k++)
        {
          PyObject *x;
          if (f->type == WK_RC2_I32)
            x = PyLong_FromLong ((gint32) v[k]);
          else
            {
              gfloat fl;
              memcpy (&fl, &v[k], 4);
              x = PyFloat_FromDouble (fl);
            }
          if (f->n == 1)
            value = x;
          else if (t == NULL || x == NULL)
            {
              Py_XDECREF (x);
              Py_CLEAR (value);
              break;
            }
          else
            PyTuple_SET_ITEM (t, k, x);
        }
      if (wk_dict_put (d, f->name, value) < 0)
        Py_CLEAR (d);
    }
  return d;
}

static PyObject *
settings_dict (const WkRc2Gameplay *gp)
{
  if (gp->settings == NULL)
    Py_RETURN_NONE;
  PyObject *d = record_dict (wk_rc2_settings_fields, gp->settings);
  PyObject *planes = d ? PyList_New (gp->chunk_records) : NULL;
  for (guint i = 0; planes && i < gp->chunk_records; i++)
    {
      PyObject *p = record_dict (wk_rc2_chunk_plane_fields,
                                 gp->settings + WK_RC2_SETTINGS_FIRST
                                     + (gsize) i * WK_RC2_CHUNK_PLANE);
      if (p == NULL)
        Py_CLEAR (planes);
      else
        PyList_SET_ITEM (planes, i, p);
    }
  if (d && (wk_dict_put (d, "chunk_plane_records", planes) < 0
            || wk_dict_put (d, "chunk_plane_count",
                            PyLong_FromUnsignedLong (gp->chunk_planes)) < 0
            || wk_dict_put (d, "core_sounds_count",
                            PyLong_FromLong (gp->core_sounds_count)) < 0))
    Py_CLEAR (d);
  return d;
}

typedef struct {
  const WkRc2Field *field;
  const guint8 *records;
  guint count;
  gsize stride;
  void *out;
} Fill;

/* The arrays of one kind's instances into d; their fills appended. */
static PyObject *
instances_dict (const WkRc2Gameplay *gp, int kind, GArray *fills)
{
  if (gp->inst[kind].records == NULL)
    Py_RETURN_NONE;
  const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[kind];
  guint n = gp->inst[kind].count;
  const gint32 *h = gp->inst[kind].header;
  PyObject *d = PyDict_New ();
  if (d == NULL || wk_dict_put (d, "header", Py_BuildValue ("(iiii)", h[0], h[1],
                                                            h[2], h[3])) < 0)
    goto fail;
  for (const WkRc2Field *f = L->fields; f->name; f++)
    {
      PyObject *a = field_array (f, n);
      if (a == NULL)
        goto fail;
      Fill fill = { f, gp->inst[kind].records, n, L->record,
                    PyArray_DATA ((PyArrayObject *) a) };
      g_array_append_val (fills, fill);
      if (wk_dict_put (d, f->name, a) < 0)
        goto fail;
    }
  if (kind == WK_RC2_TIE)
    {
      npy_intp dims[1] = { n };
      PyObject *a = PyArray_SimpleNew (1, dims, NPY_INT32);
      if (a == NULL)
        goto fail;
      gint32 *p = PyArray_DATA ((PyArrayObject *) a);
      for (guint i = 0; i < n; i++)
        p[i] = gp->tie_ambient ? gp->tie_ambient[i] : -1;
      if (wk_dict_put (d, "ambient_record", a) < 0)
        goto fail;
    }
  return d;
fail:
  Py_XDECREF (d);
  return NULL;
}

static PyObject *
i32_array (const guint8 *le, guint n)
{
  npy_intp dims[1] = { n };
  PyObject *a = PyArray_SimpleNew (1, dims, NPY_INT32);
  if (a != NULL)
    {
      gint32 *p = PyArray_DATA ((PyArrayObject *) a);
      for (guint i = 0; i < n; i++)
        p[i] = wk_les32 (le + 4 * (gsize) i);
    }
  return a;
}

static PyObject *
ambient_dict (const WkRc2Gameplay *gp)
{
  if (gp->ambient == NULL)
    Py_RETURN_NONE;
  npy_intp dims[1] = { gp->ambient->len };
  npy_intp nw[1] = { (npy_intp) wk_rc2_ambient_words (gp, NULL) };
  PyObject *d = PyDict_New ();
  PyObject *inst = PyArray_SimpleNew (1, dims, NPY_INT32);
  PyObject *count = PyArray_SimpleNew (1, dims, NPY_INT32);
  PyObject *off = PyArray_SimpleNew (1, dims, NPY_INT64);
  PyObject *start = PyArray_SimpleNew (1, dims, NPY_INT64);
  PyObject *words = PyArray_SimpleNew (1, nw, NPY_UINT16);
  if (inst && count && off && start && words)
    {
      gint64 at = 0;
      for (guint i = 0; i < gp->ambient->len; i++)
        {
          const WkRc2Ambient *a = &g_array_index (gp->ambient, WkRc2Ambient, i);
          ((gint32 *) PyArray_DATA ((PyArrayObject *) inst))[i] = a->instance;
          ((gint32 *) PyArray_DATA ((PyArrayObject *) count))[i] = a->count;
          ((gint64 *) PyArray_DATA ((PyArrayObject *) off))[i] = (gint64) a->offset;
          ((gint64 *) PyArray_DATA ((PyArrayObject *) start))[i] = at;
          at += a->count;
        }
      wk_rc2_ambient_words (gp, PyArray_DATA ((PyArrayObject *) words));
    }
  if (d == NULL)
    {
      Py_XDECREF (inst), Py_XDECREF (count), Py_XDECREF (off);
      Py_XDECREF (start), Py_XDECREF (words);
      return NULL;
    }
  /* | not ||: every put takes its value, also after one failed */
  if ((wk_dict_put (d, "instance", inst) | wk_dict_put (d, "count", count)
       | wk_dict_put (d, "offset", off) | wk_dict_put (d, "start", start)
       | wk_dict_put (d, "words", words)) < 0)
    Py_CLEAR (d);
  return d;
}

static PyObject *
gameplay_result (const WkRc2Gameplay *gp)
{
  g_autoptr (GArray) fills = g_array_new (FALSE, FALSE, sizeof (Fill));
  PyObject *d = PyDict_New ();
  PyObject *blocks = d ? PyList_New (WK_RC2_GAMEPLAY_SLOTS) : NULL;
  for (guint i = 0; blocks && i < WK_RC2_GAMEPLAY_SLOTS; i++)
    {
      const WkRc2Block *b = &gp->blocks[i];
      PyObject *t = Py_BuildValue ("(sInnn)", b->name, b->slot, (Py_ssize_t) b->offset,
                                   (Py_ssize_t) b->size, (Py_ssize_t) b->decoded);
      if (t == NULL)
        Py_CLEAR (blocks);
      else
        PyList_SET_ITEM (blocks, i, t);
    }
  if (d == NULL || wk_dict_put (d, "blocks", blocks) < 0
      || wk_dict_put (d, "settings", settings_dict (gp)) < 0
      || wk_dict_put (d, "tie_ambient", ambient_dict (gp)) < 0)
    goto fail;
  PyObject *lists = PyDict_New ();
  if (wk_dict_put (d, "class_lists", lists) < 0)
    goto fail;
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      if (wk_dict_put (d, kind_keys[k], instances_dict (gp, k, fills)) < 0)
        goto fail;
      PyObject *ids = gp->classes[k].ids
          ? i32_array (gp->classes[k].ids, gp->classes[k].count)
          : Py_NewRef (Py_None);
      if (wk_dict_put (lists, kind_keys[k], ids) < 0)
        goto fail;
    }
  Py_BEGIN_ALLOW_THREADS
  for (guint i = 0; i < fills->len; i++)
    {
      const Fill *f = &g_array_index (fills, Fill, i);
      wk_rc2_field_fill (f->field, f->records, f->count, f->stride, f->out);
    }
  Py_END_ALLOW_THREADS
  return d;
fail:
  Py_XDECREF (d);
  return NULL;
}

static PyObject *
rc2_gameplay_parse (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "gameplay", "tie_ids", "shrub_ids", "moby_ids", NULL };
  Py_buffer in;
  PyObject *id_objs[WK_RC2_KINDS] = { Py_None, Py_None, Py_None };
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|OOO:rc2_gameplay_parse", kwlist,
                                    &in, &id_objs[0], &id_objs[1], &id_objs[2]))
    return NULL;
  PyArrayObject *ids[WK_RC2_KINDS] = { NULL };
  PyObject *result = NULL;
  static const npy_intp any1[1] = { WK_ANY };
  g_autofree guint8 *copy = NULL;
  for (int k = 0; k < WK_RC2_KINDS; k++)
    if (wk_array_arg (id_objs[k], kwlist[k + 1], NPY_INT32, 1, any1, TRUE, &ids[k]) < 0)
      goto done;
  /* The fill reads the bytes again after the parse checked them: a buffer
   * another thread could change meanwhile is parsed from a copy. */
  if (!in.readonly)
    copy = g_memdup2 (in.buf, (gsize) in.len);
  const guint8 *data = copy ? copy : in.buf;
  GError *error = NULL;
  WkRc2Gameplay *gp;
  Py_BEGIN_ALLOW_THREADS
  gp = wk_rc2_gameplay_parse (data, (gsize) in.len, &error);
  for (int k = 0; gp && k < WK_RC2_KINDS; k++)
    if (ids[k] != NULL
        && !wk_rc2_gameplay_check_classes (gp, k, wk_array_data (ids[k]),
                                           (gsize) PyArray_DIM (ids[k], 0), &error))
      g_clear_pointer (&gp, wk_rc2_gameplay_free);
  Py_END_ALLOW_THREADS
  if (gp == NULL)
    {
      wk_error_prefix (&error, "RC2 gameplay");
      wk_raise (wk_state_from_module (module), error);
      goto done;
    }
  result = gameplay_result (gp);
  wk_rc2_gameplay_free (gp);
done:
  wk_array_release (ids, WK_RC2_KINDS);
  PyBuffer_Release (&in);
  return result;
}

/* ---- core class tables --------------------------------------------------- */

static PyObject *
class_table (const GArray *t, gboolean shrub)
{
  npy_intp n = t->len, d16[2] = { n, 16 }, d8[2] = { n, 8 };
  PyObject *a[9] = {
    PyArray_SimpleNew (1, &n, NPY_INT32), PyArray_SimpleNew (1, &n, NPY_INT32),
    PyArray_SimpleNew (1, &n, NPY_INT64), PyArray_SimpleNew (1, &n, NPY_INT32),
    PyArray_SimpleNew (1, &n, NPY_INT32), PyArray_SimpleNew (2, d16, NPY_UINT8),
    PyArray_SimpleNew (1, &n, NPY_INT32), PyArray_SimpleNew (1, &n, NPY_INT64),
    shrub ? PyArray_SimpleNew (2, d8, NPY_INT16) : Py_NewRef (Py_None),
  };
  static const char *const keys[9] = { "id", "offset", "size", "word_8", "word_c",
                                       "textures", "n_textures", "entry",
                                       "billboard" };
  for (int k = 0; k < 9; k++)
    if (a[k] == NULL)
      goto fail;
#define AT(k, type) ((type *) PyArray_DATA ((PyArrayObject *) a[k]))
  for (guint i = 0; i < t->len; i++)
    {
      const WkRc2Class *c = &g_array_index (t, WkRc2Class, i);
      AT (0, gint32)[i] = c->id;
      AT (1, gint32)[i] = c->offset;
      AT (2, gint64)[i] = (gint64) c->size;
      AT (3, gint32)[i] = c->word_8;
      AT (4, gint32)[i] = c->word_c;
      memcpy (AT (5, guint8) + 16 * (gsize) i, c->textures, 16);
      AT (6, gint32)[i] = (gint32) c->n_textures;
      AT (7, gint64)[i] = (gint64) c->entry;
      if (shrub)
        memcpy (AT (8, gint16) + 8 * (gsize) i, c->billboard, 16);
    }
#undef AT
  PyObject *d = PyDict_New ();
  for (int k = 0; k < 9; k++)
    {
      if (d != NULL && wk_dict_put (d, keys[k], a[k]) < 0)
        Py_CLEAR (d);
      else if (d == NULL)
        Py_DECREF (a[k]);
    }
  return d;
fail:
  for (int k = 0; k < 9; k++)
    Py_XDECREF (a[k]);
  return NULL;
}

static PyObject *
rc2_classes_parse (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "core_index", "base", NULL };
  Py_buffer in;
  long long base = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|L:rc2_classes_parse", kwlist,
                                    &in, &base))
    return NULL;
  GError *error = NULL;
  WkRc2Classes *c;
  Py_BEGIN_ALLOW_THREADS
  c = wk_rc2_classes_parse (in.buf, (gsize) in.len, base, &error);
  Py_END_ALLOW_THREADS
  PyBuffer_Release (&in);
  if (c == NULL)
    return wk_raise (wk_state_from_module (module), error);
  PyObject *d = PyDict_New ();
  for (int k = 0; d && k < WK_RC2_KINDS; k++)
    if (wk_dict_put (d, kind_keys[k], class_table (c->tables[k], k == WK_RC2_SHRUB)) < 0)
      Py_CLEAR (d);
  wk_rc2_classes_free (c);
  return d;
}

/* {kind: (record size, ((name, offset, type, n), ...))} with type one of
 * "i32", "f32", "mat4" (stored), "computed" (not stored). */
static PyObject *
rc2_gameplay_layouts (PyObject *module, PyObject *unused)
{
  static const char *const types[] = { "i32", "f32", "mat4", "computed" };
  PyObject *d = PyDict_New ();
  for (int k = 0; d && k < WK_RC2_KINDS + 2; k++)
    {
      const WkRc2Field *fields = k < WK_RC2_KINDS ? wk_rc2_instance_layouts[k].fields
                                 : k == WK_RC2_KINDS ? wk_rc2_settings_fields
                                                     : wk_rc2_chunk_plane_fields;
      guint record = k < WK_RC2_KINDS ? wk_rc2_instance_layouts[k].record
                     : k == WK_RC2_KINDS ? WK_RC2_SETTINGS_FIRST : WK_RC2_CHUNK_PLANE;
      const char *key = k < WK_RC2_KINDS ? kind_keys[k]
                        : k == WK_RC2_KINDS ? "settings" : "chunk_plane";
      PyObject *list = PyList_New (0);
      for (const WkRc2Field *f = fields; list && f->name; f++)
        {
          PyObject *t = Py_BuildValue ("(sIsI)", f->name, f->offset, types[f->type], f->n);
          if (t == NULL || PyList_Append (list, t) < 0)
            Py_CLEAR (list);
          Py_XDECREF (t);
        }
      PyObject *tuple = list ? PyList_AsTuple (list) : NULL;
      Py_XDECREF (list);
      if (wk_dict_put (d, key, tuple ? Py_BuildValue ("(IN)", record, tuple) : NULL) < 0)
        Py_CLEAR (d);
    }
  return d;
}

static PyMethodDef gameplay_methods[] = {
  { "rc2_gameplay_parse", (PyCFunction) (void (*) (void)) rc2_gameplay_parse,
    METH_VARARGS | METH_KEYWORDS,
    "rc2_gameplay_parse(gameplay, tie_ids=None, shrub_ids=None, moby_ids=None)"
    " -> dict: blocks, settings, class lists, instances as arrays" },
  { "rc2_classes_parse", (PyCFunction) (void (*) (void)) rc2_classes_parse,
    METH_VARARGS | METH_KEYWORDS,
    "rc2_classes_parse(core_index, base=0) -> {kind: dict of arrays}" },
  { "rc2_gameplay_layouts", rc2_gameplay_layouts, METH_NOARGS,
    "rc2_gameplay_layouts() -> {kind: (record size, fields)}" },
  { NULL },
};

int
wk_rc2_gameplay_register (PyObject *module, WkModState *st)
{
  return PyModule_AddFunctions (module, gameplay_methods);
}
