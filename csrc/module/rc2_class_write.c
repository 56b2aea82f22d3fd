/* wadkit._core.rc2_tie_build / rc2_shrub_build / rc2_moby_build /
 * rc2_sky_build: new RC2 tie, shrub and moby classes and sky blocks (core:
 * csrc/core/rc2/tie_write.c, shrub_write.c, moby_write.c,
 * rc2_sky_write.c). Python glue: wadkit.rc2.build_tie_class,
 * build_shrub_class, build_moby_class, build_sky. */
#include "wk_array.h"

#include "../core/rc2/class_write.h"
#include "../core/rc2/rc2_sky.h"

static const npy_intp any3[2] = { WK_ANY, 3 }, any2[2] = { WK_ANY, 2 },
                      any4[2] = { WK_ANY, 4 }, any1[1] = { WK_ANY };

/* rc2_tie_build(positions f32 (n,3), uv f32 (n,2), indices u32 (m,),
 * strip_len u32 (s,), strip_tex u8 (s,), o_class, (near, mid, far)) -> bytes */
static PyObject *
rc2_tie_build (PyObject *module, PyObject *args)
{
  PyObject *o[5];
  WkTieNew in = { 0 };
  if (!PyArg_ParseTuple (args, "OOOOOi(fff):rc2_tie_build", &o[0], &o[1], &o[2], &o[3],
                         &o[4], &in.o_class, &in.lod_dist[0], &in.lod_dist[1],
                         &in.lod_dist[2]))
    return NULL;
  PyArrayObject *a[5] = { NULL };
  PyObject *result = NULL;
  if (wk_array_arg (o[0], "positions", NPY_FLOAT32, 2, any3, FALSE, &a[0]) < 0
      || wk_array_arg (o[1], "uv", NPY_FLOAT32, 2, any2, FALSE, &a[1]) < 0
      || wk_array_arg (o[2], "indices", NPY_UINT32, 1, any1, FALSE, &a[2]) < 0
      || wk_array_arg (o[3], "strip_len", NPY_UINT32, 1, any1, FALSE, &a[3]) < 0
      || wk_array_arg (o[4], "strip_tex", NPY_UINT8, 1, any1, FALSE, &a[4]) < 0)
    goto done;
  if (PyArray_DIM (a[0], 0) != PyArray_DIM (a[1], 0)
      || PyArray_DIM (a[3], 0) != PyArray_DIM (a[4], 0))
    {
      PyErr_SetString (PyExc_ValueError, "positions and uv, strip_len and strip_tex "
                       "must have as many rows");
      goto done;
    }
  in.pos = PyArray_DATA (a[0]);
  in.uv = PyArray_DATA (a[1]);
  in.n = (guint) MIN (PyArray_DIM (a[0], 0), G_MAXINT);
  in.idx = PyArray_DATA (a[2]);
  in.nidx = (guint) MIN (PyArray_DIM (a[2], 0), G_MAXINT);
  in.strip_len = PyArray_DATA (a[3]);
  in.strip_tex = PyArray_DATA (a[4]);
  in.nstrips = (guint) MIN (PyArray_DIM (a[3], 0), G_MAXINT);
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_tie_class_build (&in, &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  wk_array_release (a, G_N_ELEMENTS (a));
  return result;
}

/* The arrays of a class of triangles (shrub, moby): positions f32 (n,3),
 * uv f32 (n,2), normals f32 (n,3), triangles u32 (t,3), texture u8 (t,);
 * -1 with the exception set. */
typedef struct {
  const gfloat *pos, *uv, *normal;
  guint n;
  const guint32 *tri;
  const guint8 *tex;
  guint ntri;
} TriangleClass;

static int
triangle_class_args (PyObject *const o[5], PyArrayObject *a[5], TriangleClass *c)
{
  if (wk_array_arg (o[0], "positions", NPY_FLOAT32, 2, any3, FALSE, &a[0]) < 0
      || wk_array_arg (o[1], "uv", NPY_FLOAT32, 2, any2, FALSE, &a[1]) < 0
      || wk_array_arg (o[2], "normals", NPY_FLOAT32, 2, any3, FALSE, &a[2]) < 0
      || wk_array_arg (o[3], "triangles", NPY_UINT32, 2, any3, FALSE, &a[3]) < 0
      || wk_array_arg (o[4], "texture", NPY_UINT8, 1, any1, FALSE, &a[4]) < 0)
    return -1;
  if (PyArray_DIM (a[0], 0) != PyArray_DIM (a[1], 0)
      || PyArray_DIM (a[0], 0) != PyArray_DIM (a[2], 0)
      || PyArray_DIM (a[3], 0) != PyArray_DIM (a[4], 0))
    {
      PyErr_SetString (PyExc_ValueError, "positions, uv and normals, triangles and "
                       "texture must have as many rows");
      return -1;
    }
  *c = (TriangleClass) { PyArray_DATA (a[0]), PyArray_DATA (a[1]), PyArray_DATA (a[2]),
                         (guint) MIN (PyArray_DIM (a[0], 0), G_MAXINT),
                         PyArray_DATA (a[3]), PyArray_DATA (a[4]),
                         (guint) MIN (PyArray_DIM (a[3], 0), G_MAXINT) };
  return 0;
}

/* rc2_shrub_build(positions, uv, normals, triangles, texture (as
 * triangle_class_args), o_class, mip_distance) -> bytes */
static PyObject *
rc2_shrub_build (PyObject *module, PyObject *args)
{
  PyObject *o[5];
  WkShrubNew in = { 0 };
  if (!PyArg_ParseTuple (args, "OOOOOif:rc2_shrub_build", &o[0], &o[1], &o[2], &o[3],
                         &o[4], &in.o_class, &in.mip_distance))
    return NULL;
  PyArrayObject *a[5] = { NULL };
  PyObject *result = NULL;
  TriangleClass c;
  if (triangle_class_args (o, a, &c) < 0)
    goto done;
  in.pos = c.pos, in.uv = c.uv, in.normal = c.normal, in.n = c.n;
  in.tri = c.tri, in.tex = c.tex, in.ntri = c.ntri;
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_shrub_class_build (&in, &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  wk_array_release (a, G_N_ELEMENTS (a));
  return result;
}

/* rc2_moby_build(positions, uv, normals, triangles, texture (as
 * triangle_class_args), class number) -> bytes */
static PyObject *
rc2_moby_build (PyObject *module, PyObject *args)
{
  PyObject *o[5];
  WkMobyNew in = { 0 };
  if (!PyArg_ParseTuple (args, "OOOOOi:rc2_moby_build", &o[0], &o[1], &o[2], &o[3],
                         &o[4], &in.o_class))
    return NULL;
  PyArrayObject *a[5] = { NULL };
  PyObject *result = NULL;
  TriangleClass c;
  if (triangle_class_args (o, a, &c) < 0)
    goto done;
  in.pos = c.pos, in.uv = c.uv, in.normal = c.normal, in.n = c.n;
  in.tri = c.tri, in.tex = c.tex, in.ntri = c.ntri;
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_moby_class_build (&in, &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  wk_array_release (a, G_N_ELEMENTS (a));
  return result;
}

/* rc2_sky_build(colour (4 bytes), clear_screen, shells [(positions f32
 * (n,3), rgba u8 (n,4), alpha i16 (n,), triangles u32 (t,3))]) -> bytes */
static PyObject *
rc2_sky_build (PyObject *module, PyObject *args)
{
  Py_buffer colour;
  int clear;
  PyObject *list;
  if (!PyArg_ParseTuple (args, "y*iO!:rc2_sky_build", &colour, &clear, &PyList_Type, &list))
    return NULL;
  PyObject *result = NULL;
  Py_ssize_t n = PyList_GET_SIZE (list);
  PyArrayObject **a = g_new0 (PyArrayObject *, 4 * (gsize) MAX (n, 1));
  WkSkyShellNew *sh = g_new0 (WkSkyShellNew, MAX (n, 1));
  if (colour.len != 4)
    {
      PyErr_SetString (PyExc_ValueError, "colour: 4 bytes RGBA");
      goto done;
    }
  for (Py_ssize_t i = 0; i < n; i++)
    {
      PyObject *o[4];
      if (!PyArg_ParseTuple (PyList_GET_ITEM (list, i), "OOOO", &o[0], &o[1], &o[2], &o[3]))
        goto done;
      char name[4][40];
      static const char *const what[4] = { "positions", "rgba", "alpha", "triangles" };
      for (int k = 0; k < 4; k++)
        g_snprintf (name[k], sizeof name[k], "shell %zd %s", i, what[k]);
      PyArrayObject **s = a + 4 * i;
      if (wk_array_arg (o[0], name[0], NPY_FLOAT32, 2, any3, FALSE, &s[0]) < 0
          || wk_array_arg (o[1], name[1], NPY_UINT8, 2, any4, FALSE, &s[1]) < 0
          || wk_array_arg (o[2], name[2], NPY_INT16, 1, any1, FALSE, &s[2]) < 0
          || wk_array_arg (o[3], name[3], NPY_UINT32, 2, any3, FALSE, &s[3]) < 0)
        goto done;
      if (PyArray_DIM (s[0], 0) != PyArray_DIM (s[1], 0)
          || PyArray_DIM (s[0], 0) != PyArray_DIM (s[2], 0))
        {
          PyErr_Format (PyExc_ValueError, "shell %zd: positions, rgba and alpha must "
                        "have as many rows", i);
          goto done;
        }
      sh[i] = (WkSkyShellNew) { PyArray_DATA (s[0]), PyArray_DATA (s[1]),
                                PyArray_DATA (s[2]),
                                (guint) MIN (PyArray_DIM (s[0], 0), G_MAXINT),
                                PyArray_DATA (s[3]),
                                (guint) MIN (PyArray_DIM (s[3], 0), G_MAXINT) };
    }
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_rc2_sky_build (colour.buf, clear, sh, (guint) MIN (n, G_MAXINT), &error);
  Py_END_ALLOW_THREADS
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  wk_array_release (a, 4 * (gsize) MAX (n, 1));
  g_free (a);
  g_free (sh);
  PyBuffer_Release (&colour);
  return result;
}

static PyMethodDef methods[] = {
  { "rc2_tie_build", rc2_tie_build, METH_VARARGS,
    "rc2_tie_build(positions, uv, indices, strip_len, strip_tex, o_class, "
    "(near, mid, far)) -> bytes: a new tie class (three LODs of the same strips)" },
  { "rc2_shrub_build", rc2_shrub_build, METH_VARARGS,
    "rc2_shrub_build(positions, uv, normals, triangles, texture, o_class, "
    "mip_distance) -> bytes: a new shrub class" },
  { "rc2_moby_build", rc2_moby_build, METH_VARARGS,
    "rc2_moby_build(positions, uv, normals, triangles, texture, class_number) "
    "-> bytes: a new moby class (one rigid mesh, both LODs the same)" },
  { "rc2_sky_build", rc2_sky_build, METH_VARARGS,
    "rc2_sky_build(colour, clear_screen, shells) -> bytes: a sky block of "
    "untextured shells [(positions, rgba, alpha, triangles)]" },
  { NULL },
};

int
wk_rc2_class_write_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, methods);
}
