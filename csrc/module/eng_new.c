/* wadkit._core.eng_new_level: a new minimal ENG level WAD (core:
 * csrc/core/eng/eng_new.c). Arrays are taken by wk_array_arg (converted to
 * their dtype, shapes checked); the texture entries are raw bytes. */
#include "wk_array.h"

#include "../core/eng/eng_new.h"
#include "../core/eng/eng_uv.h"

typedef struct {
  GPtrArray *arrays; /* PyArrayObject, released at the end */
} Held;

/* An array argument (wk_array_arg), held until the call ends. */
static const void *
get_array (Held *h, PyObject *obj, const char *name, int type, int ndim,
           const npy_intp *shape, npy_intp *count)
{
  PyArrayObject *a;
  if (wk_array_arg (obj, name, type, ndim, shape, FALSE, &a) < 0)
    return NULL;
  g_ptr_array_add (h->arrays, a);
  if (count)
    *count = PyArray_DIM (a, 0);
  return PyArray_DATA (a);
}

static int
parse_palettes (Held *h, PyObject *seq, GArray *out)
{
  PyObject *fast = PySequence_Fast (seq, "palettes: a sequence of (index, rgba)");
  if (fast == NULL)
    return -1;
  int rc = 0;
  for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE (fast); i++)
    {
      WkEngNewPalette p = { 0 };
      PyObject *rgba;
      npy_intp n;
      const npy_intp shape[2] = { WK_ANY, 4 };
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "IO", &p.index, &rgba)
          || (p.rgba = get_array (h, rgba, "palette colours", NPY_UINT8, 2,
                                  shape, &n)) == NULL)
        rc = -1;
      else
        {
          p.count = (guint32) MIN (n, (Py_ssize_t) G_MAXUINT32);
          g_array_append_val (out, p);
        }
    }
  Py_DECREF (fast);
  return rc;
}

static int
parse_pages (Held *h, PyObject *seq, GArray *out)
{
  PyObject *fast = PySequence_Fast (seq, "pages: a sequence of (flags, w, h, pixels)");
  if (fast == NULL)
    return -1;
  int rc = 0;
  for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE (fast); i++)
    {
      WkEngNewPage p = { 0 };
      PyObject *px;
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "IIIO", &p.flags,
                             &p.width, &p.height, &px))
        rc = -1;
      else if (p.width > 4096 || p.height > 4096)
        {
          PyErr_Format (PyExc_ValueError, "page %zd: %u x %u pixels", i,
                        p.width, p.height);
          rc = -1;
        }
      else
        {
          const npy_intp shape[3] = { p.height, p.width, 4 };
          p.pixels = get_array (h, px, "page pixels", NPY_UINT8, p.flags ? 3 : 2,
                                shape, NULL);
          if (p.pixels == NULL)
            rc = -1;
          else
            g_array_append_val (out, p);
        }
    }
  Py_DECREF (fast);
  return rc;
}

static int
parse_objects (Held *h, PyObject *seq, GArray *out)
{
  PyObject *fast = PySequence_Fast (seq, "objects: a sequence of "
                                    "(positions, triangles, texture, uv)");
  if (fast == NULL)
    return -1;
  int rc = 0;
  for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE (fast); i++)
    {
      WkEngNewObject o = { 0 };
      PyObject *pos, *tri, *tex, *uv;
      npy_intp nv, nf = 0;
      const npy_intp any3[2] = { WK_ANY, 3 };
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "OOOO", &pos,
                             &tri, &tex, &uv)
          || (o.positions = get_array (h, pos, "object positions", NPY_FLOAT32,
                                       2, any3, &nv)) == NULL
          || (o.triangles = get_array (h, tri, "object triangles", NPY_UINT32,
                                       2, any3, &nf)) == NULL
          || (o.texture = get_array (h, tex, "object textures", NPY_UINT16, 1,
                                     (npy_intp[1]) { nf }, NULL)) == NULL
          || (o.uv = get_array (h, uv, "object uv", NPY_FLOAT32, 3,
                                (npy_intp[3]) { nf, 3, 2 }, NULL)) == NULL)
        rc = -1;
      else
        {
          o.n_verts = (guint) MIN (nv, G_MAXINT);
          o.n_faces = (guint) MIN (nf, G_MAXINT);
          g_array_append_val (out, o);
        }
    }
  Py_DECREF (fast);
  return rc;
}

/* eng_new_level(width, height, wfpc, palettes, pages, entries, zone_table,
 * zone_grid, objects) -> bytes */
static PyObject *
eng_new_level (PyObject *module, PyObject *args)
{
  WkEngNewLevel in = { 0 };
  PyObject *pals, *pages, *entries, *ztab, *zgrid, *objects;
  if (!PyArg_ParseTuple (args, "IIIOOOOOO:eng_new_level", &in.width, &in.height,
                         &in.wfpc, &pals, &pages, &entries, &ztab, &zgrid, &objects))
    return NULL;
  Held h = { g_ptr_array_new () };
  g_autoptr (GArray) pal_a = g_array_new (FALSE, FALSE, sizeof (WkEngNewPalette));
  g_autoptr (GArray) page_a = g_array_new (FALSE, FALSE, sizeof (WkEngNewPage));
  g_autoptr (GArray) obj_a = g_array_new (FALSE, FALSE, sizeof (WkEngNewObject));
  PyObject *result = NULL;
  Py_buffer table = { 0 };
  if (parse_palettes (&h, pals, pal_a) < 0 || parse_pages (&h, pages, page_a) < 0
      || parse_objects (&h, objects, obj_a) < 0
      || PyObject_GetBuffer (entries, &table, PyBUF_SIMPLE) < 0)
    goto done;
  if (table.len % WK_ENG_TEX_ENTRY_SIZE)
    {
      PyErr_Format (PyExc_ValueError, "texture entries: %zd bytes, not a "
                    "multiple of %d", table.len, WK_ENG_TEX_ENTRY_SIZE);
      goto done;
    }
  in.entries = table.buf;
  if (ztab != Py_None
      && (in.zone_table = get_array (&h, ztab, "zone table", NPY_UINT32, 2,
                                     (npy_intp[2]) { 32, 2 }, NULL)) == NULL)
    goto done;
  if (zgrid != Py_None
      && (in.zone_grid = get_array (&h, zgrid, "zone grid", NPY_UINT32, 2,
                                    (npy_intp[2]) { in.height, in.width },
                                    NULL)) == NULL)
    goto done;
  in.n_entries = (guint) MIN (table.len / WK_ENG_TEX_ENTRY_SIZE, G_MAXINT);
  in.n_palettes = pal_a->len;
  in.palettes = (const WkEngNewPalette *) (void *) pal_a->data;
  in.n_pages = page_a->len;
  in.pages = (const WkEngNewPage *) (void *) page_a->data;
  in.n_objects = obj_a->len;
  in.objects = (const WkEngNewObject *) (void *) obj_a->data;
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_eng_new_level (&in, &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  if (table.obj != NULL)
    PyBuffer_Release (&table);
  for (guint i = 0; i < h.arrays->len; i++)
    Py_DECREF (g_ptr_array_index (h.arrays, i));
  g_ptr_array_unref (h.arrays);
  return result;
}

static PyMethodDef eng_new_methods[] = {
  { "eng_new_level", eng_new_level, METH_VARARGS,
    "eng_new_level(width, height, wfpc, palettes, pages, entries, zone_table, "
    "zone_grid, objects) -> bytes: a new minimal ENG level WAD" },
  { NULL },
};

int
wk_eng_new_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, eng_new_methods);
}
