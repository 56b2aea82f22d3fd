/* wadkit._core.sky_parse: the RC2 sky to NumPy (core:
 * csrc/core/rc2/rc2_sky.c). Python glue: wadkit.rc2.Level.sky(). */
#include "module.h"

#include "wk_numpy.h"
#include "../core/common/wk_error.h"
#include "../core/rc2/rc2_sky.h"
#include "../core/rc2/tfrag.h"

static void *
new_array (PyObject **slot, int nd, npy_intp d0, npy_intp d1, int type)
{
  npy_intp dims[2] = { d0, d1 };
  *slot = PyArray_SimpleNew (nd, dims, type);
  return *slot ? PyArray_DATA ((PyArrayObject *) *slot) : NULL;
}

enum { A_POS, A_UV, A_COL, A_ALPHA, A_ST, A_TRI, A_TEX, A_CLU, N_ARR };
static const char *const arr_keys[N_ARR] = { "positions", "uv", "color", "alpha",
                                             "st", "triangles", "texture",
                                             "cluster" };

static PyObject *
cluster_list (const WkSkyShell *sh)
{
  PyObject *l = PyList_New (sh->clusters->len);
  for (guint k = 0; l && k < sh->clusters->len; k++)
    {
      const WkSkyCluster *c = &g_array_index (sh->clusters, WkSkyCluster, k);
      PyObject *d = Py_BuildValue (
          "{s(ffff)sisisisisisisisIsI}", "bsphere", c->bsphere[0], c->bsphere[1],
          c->bsphere[2], c->bsphere[3], "data", c->data, "vertex_count",
          c->vertex_count, "tri_count", c->tri_count, "vertex_offset",
          c->vertex_offset, "st_offset", c->st_offset, "tri_offset",
          c->tri_offset, "data_size", c->data_size, "first_vertex",
          c->first_vertex, "first_tri", c->first_tri);
      if (d == NULL)
        Py_CLEAR (l);
      else
        PyList_SET_ITEM (l, k, d);
    }
  return l;
}

/* One shell's arrays, filled without the GIL. */
static PyObject *
shell_dict (const WkRc2Sky *s, guint i)
{
  const WkSkyShell *sh = &s->shells[i];
  PyObject *arr[N_ARR] = { NULL };
  npy_intp nv = sh->n_vertices, nt = sh->n_tris;
  WkSkyShellOut out = {
    new_array (&arr[A_POS], 2, nv, 3, NPY_FLOAT32),
    new_array (&arr[A_UV], 2, nv, 2, NPY_FLOAT32),
    new_array (&arr[A_COL], 2, nv, 4, NPY_FLOAT32),
    new_array (&arr[A_ALPHA], 1, nv, 0, NPY_INT16),
    new_array (&arr[A_ST], 2, nv, 4, NPY_UINT8),
    new_array (&arr[A_TRI], 2, nt, 3, NPY_UINT32),
    new_array (&arr[A_TEX], 1, nt, 0, NPY_INT32),
    new_array (&arr[A_CLU], 1, nt, 0, NPY_INT32),
  };
  PyObject *d = NULL;
  for (int k = 0; k < N_ARR; k++)
    if (arr[k] == NULL)
      goto done;
  Py_BEGIN_ALLOW_THREADS
  wk_rc2_sky_fill (s, i, &out);
  Py_END_ALLOW_THREADS
  d = Py_BuildValue ("{sOsisisi}", "textured", sh->textured ? Py_True : Py_False,
                     "flags", sh->flags, "offset", sh->offset, "cluster_count",
                     sh->cluster_count);
  if (d == NULL || wk_dict_put (d, "clusters", cluster_list (sh)) < 0)
    {
      Py_CLEAR (d);
      goto done;
    }
  for (int k = 0; k < N_ARR; k++)
    {
      PyObject *a = arr[k];
      arr[k] = NULL;
      if (wk_dict_put (d, arr_keys[k], a) < 0)
        {
          Py_CLEAR (d);
          break;
        }
    }
done:
  for (int k = 0; k < N_ARR; k++)
    Py_XDECREF (arr[k]);
  return d;
}

static PyObject *
sky_dict (const WkRc2Sky *s)
{
  PyObject *shells = PyList_New (s->shell_count);
  for (int i = 0; shells && i < s->shell_count; i++)
    {
      PyObject *d = shell_dict (s, (guint) i);
      if (d == NULL)
        Py_CLEAR (shells);
      else
        PyList_SET_ITEM (shells, i, d);
    }
  PyObject *tex = PyList_New (s->textures->len);
  PyObject *rgba = PyList_New (s->textures->len);
  for (guint i = 0; tex && rgba && i < s->textures->len; i++)
    {
      const WkSkyTexture *t = &g_array_index (s->textures, WkSkyTexture, i);
      PyObject *d = Py_BuildValue ("{sisisisi}", "pixels", t->pixels, "palette",
                                   t->palette, "width", t->width, "height",
                                   t->height);
      /* the texels as RGBA (the parse checked both ranges) */
      npy_intp dims[3] = { t->height, t->width, 4 };
      PyObject *a = PyArray_SimpleNew (3, dims, NPY_UINT8);
      if (a != NULL)
        wk_rc2_texture_rgba (s->block + t->pixels, (guint) t->width, (guint) t->height,
                             s->block + t->palette, PyArray_DATA ((PyArrayObject *) a));
      if (d == NULL || a == NULL)
        {
          Py_XDECREF (d);
          Py_XDECREF (a);
          Py_CLEAR (tex);
          break;
        }
      PyList_SET_ITEM (tex, i, d);
      PyList_SET_ITEM (rgba, i, a);
    }
  PyObject *fx = PyBytes_FromStringAndSize (
      s->fx_count ? (const char *) s->block + s->fx_list : "", s->fx_count);
  PyObject *so = Py_BuildValue ("(iiiiiiii)", s->shell_offsets[0], s->shell_offsets[1],
                                s->shell_offsets[2], s->shell_offsets[3],
                                s->shell_offsets[4], s->shell_offsets[5],
                                s->shell_offsets[6], s->shell_offsets[7]);
  PyObject *d = NULL;
  if (shells && tex && rgba && fx && so)
    d = Py_BuildValue ("{s(BBBB)sisisisisisisisisisisOsOsOsOsO}", "colour",
                       s->colour[0], s->colour[1], s->colour[2], s->colour[3],
                       "clear_screen", s->clear_screen, "shell_count",
                       s->shell_count, "sprite_count", s->sprite_count,
                       "maximum_sprite_count", s->max_sprites, "texture_count",
                       s->texture_count, "fx_count", s->fx_count, "texture_defs",
                       s->texture_defs, "texture_data", s->texture_data,
                       "fx_list", s->fx_list, "sprites", s->sprites,
                       "shell_offsets", so, "fx", fx, "texture_entries", tex,
                       "textures", rgba, "shells", shells);
  Py_XDECREF (shells);
  Py_XDECREF (tex);
  Py_XDECREF (rgba);
  Py_XDECREF (fx);
  Py_XDECREF (so);
  return d;
}

/* sky_parse(block, base=0) -> dict (see wadkit.rc2.Level.sky) */
static PyObject *
sky_parse (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "block", "base", NULL };
  Py_buffer in;
  long long base = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|L:sky_parse", kwlist, &in, &base))
    return NULL;
  GError *error = NULL;
  WkRc2Sky *s;
  /* the fill reads the block after the checks: a writable buffer is copied */
  g_autofree guint8 *copy = in.readonly ? NULL : g_memdup2 (in.buf, (gsize) in.len);
  const guint8 *block = copy ? copy : in.buf;
  Py_BEGIN_ALLOW_THREADS
  s = wk_rc2_sky_parse (block, (gsize) in.len, base, &error);
  Py_END_ALLOW_THREADS
  PyObject *d = NULL;
  if (s == NULL)
    {
      wk_error_prefix (&error, "RC2 sky");
      wk_raise (wk_state_from_module (module), error);
    }
  else
    d = sky_dict (s);
  wk_rc2_sky_free (s);
  PyBuffer_Release (&in);
  return d;
}

static PyMethodDef sky_methods[] = {
  { "sky_parse", (PyCFunction) (void (*) (void)) sky_parse,
    METH_VARARGS | METH_KEYWORDS,
    "sky_parse(block, base=0) -> dict: header, texture entries, textures "
    "((H, W, 4) uint8 RGBA), shells of arrays" },
  { NULL },
};

int
wk_rc2_sky_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, sky_methods);
}
