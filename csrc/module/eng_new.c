/* wadkit._core.eng_new_level: a new minimal ENG level WAD (core:
 * csrc/core/eng/eng_new.c). Arrays come in through the buffer protocol,
 * C-contiguous; Python glue (wadkit/_eng_new.py) shapes and types them. */
#include "module.h"

#include "../core/eng/eng_new.h"

typedef struct {
  GArray *views; /* Py_buffer, released at the end */
} Held;

/* A C-contiguous buffer of exactly n·elem bytes (n < 0: any multiple). */
static const void *
get_buffer (Held *h, PyObject *obj, Py_ssize_t elem, Py_ssize_t n,
            Py_ssize_t *count, const char *what)
{
  Py_buffer view;
  if (PyObject_GetBuffer (obj, &view, PyBUF_C_CONTIGUOUS) < 0)
    return NULL;
  g_array_append_val (h->views, view);
  if (view.len % elem || (n >= 0 && view.len != n * elem))
    {
      PyErr_Format (PyExc_ValueError, "%s: %zd bytes, expected %s%zd x %zd",
                    what, view.len, n >= 0 ? "" : "a multiple of ",
                    n >= 0 ? n : 1, elem);
      return NULL;
    }
  if (count)
    *count = view.len / elem;
  return view.buf;
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
      Py_ssize_t n;
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "IO", &p.index, &rgba)
          || (p.rgba = get_buffer (h, rgba, 4, -1, &n, "palette colours")) == NULL)
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
      else if ((p.pixels = get_buffer (h, px, p.flags ? 4 : 1,
                                       (Py_ssize_t) p.width * p.height, NULL,
                                       "page pixels")) == NULL)
        rc = -1;
      else
        g_array_append_val (out, p);
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
      Py_ssize_t nv, nf;
      if (!PyArg_ParseTuple (PySequence_Fast_GET_ITEM (fast, i), "OOOO", &pos,
                             &tri, &tex, &uv)
          || (o.positions = get_buffer (h, pos, 12, -1, &nv, "object positions")) == NULL
          || (o.triangles = get_buffer (h, tri, 12, -1, &nf, "object triangles")) == NULL
          || (o.texture = get_buffer (h, tex, 2, nf, NULL, "object textures")) == NULL
          || (o.uv = get_buffer (h, uv, 24, nf, NULL, "object uv")) == NULL)
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
  Held h = { g_array_new (FALSE, FALSE, sizeof (Py_buffer)) };
  g_autoptr (GArray) pal_a = g_array_new (FALSE, FALSE, sizeof (WkEngNewPalette));
  g_autoptr (GArray) page_a = g_array_new (FALSE, FALSE, sizeof (WkEngNewPage));
  g_autoptr (GArray) obj_a = g_array_new (FALSE, FALSE, sizeof (WkEngNewObject));
  PyObject *result = NULL;
  Py_ssize_t n_entries;
  if (parse_palettes (&h, pals, pal_a) < 0 || parse_pages (&h, pages, page_a) < 0
      || parse_objects (&h, objects, obj_a) < 0
      || (in.entries = get_buffer (&h, entries, 8, -1, &n_entries, "texture entries")) == NULL)
    goto done;
  if (ztab != Py_None
      && (in.zone_table = get_buffer (&h, ztab, 4, 64, NULL, "zone table")) == NULL)
    goto done;
  if (zgrid != Py_None
      && (in.zone_grid = get_buffer (&h, zgrid, 4, (Py_ssize_t) in.width * in.height,
                                     NULL, "zone grid")) == NULL)
    goto done;
  in.n_entries = (guint) MIN (n_entries, G_MAXINT);
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
  for (guint i = 0; i < h.views->len; i++)
    PyBuffer_Release (&g_array_index (h.views, Py_buffer, i));
  g_array_unref (h.views);
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
