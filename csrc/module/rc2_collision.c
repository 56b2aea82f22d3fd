/* wadkit._core.collision_parse / collision_build / collision_build_octants:
 * RC2 collision to and from NumPy (core: csrc/core/rc2/rc2_collision*.c).
 * Python glue: wadkit.rc2.Level.collision(), collision_octants(),
 * wadkit.rc2.build_collision(), build_collision_octants(). */
#include "module.h"

#include "wk_array.h"
#include "../core/common/wk_error.h"
#include "../core/rc2/rc2_collision.h"

/* dict[key] = a new C-contiguous array; its data pointer in *data. */
static int
put_array (PyObject *d, const char *key, int nd, npy_intp d0, npy_intp d1,
           int type, void **data)
{
  npy_intp dims[2] = { d0, d1 };
  PyObject *a = PyArray_SimpleNew (nd, dims, type);
  if (a == NULL)
    return -1;
  *data = PyArray_DATA ((PyArrayObject *) a);
  return wk_dict_put (d, key, a);
}

static PyObject *
node_tuple (const WkCollNode *n)
{
  return Py_BuildValue ("(iII)", n->coord, n->count, n->offset);
}

static int
put_nodes (PyObject *d, const char *key, const GArray *nodes)
{
  gint32 *p;
  if (put_array (d, key, 2, nodes->len, 3, NPY_INT32, (void **) &p) < 0)
    return -1;
  for (guint i = 0; i < nodes->len; i++)
    {
      const WkCollNode *n = &g_array_index (nodes, WkCollNode, i);
      p[3 * i] = (gint32) n->offset;
      p[3 * i + 1] = n->coord;
      p[3 * i + 2] = (gint32) n->count;
    }
  return 0;
}

/* The octants as stored: tree nodes, octant records, vertices, faces. */
static PyObject *
octants_dict (const WkRc2Collision *c, const guint8 *block, gsize size)
{
  PyObject *d = PyDict_New ();
  if (d == NULL)
    return NULL;
  guint n = c->octants->len;
  gint32 *coord;
  guint32 *offset, *counts;
  guint8 *sz, *faces, *tags;
  gint16 *verts;
  gsize hero = c->hero_groups > 0 ? size - (gsize) c->hero_groups : 0;
  const guint8 *hero_p = block + (c->hero_groups > 0 ? c->hero_groups : 0);
  if (wk_dict_put (d, "mesh_offset", PyLong_FromLong (c->mesh_offset)) < 0
      || wk_dict_put (d, "hero_groups", PyLong_FromLong (c->hero_groups)) < 0
      || wk_dict_put (d, "hero", PyBytes_FromStringAndSize ((const char *) hero_p,
                                                            (Py_ssize_t) hero)) < 0
      || wk_dict_put (d, "z_node", node_tuple (&c->z)) < 0
      || put_nodes (d, "y_nodes", c->y_nodes) < 0
      || put_nodes (d, "x_nodes", c->x_nodes) < 0
      || put_array (d, "coord", 2, n, 3, NPY_INT32, (void **) &coord) < 0
      || put_array (d, "offset", 1, n, 0, NPY_UINT32, (void **) &offset) < 0
      || put_array (d, "size", 1, n, 0, NPY_UINT8, (void **) &sz) < 0
      || put_array (d, "counts", 2, n, 3, NPY_UINT32, (void **) &counts) < 0
      || put_array (d, "vertices", 2, c->vertices->len, 3, NPY_INT16,
                    (void **) &verts) < 0
      || put_array (d, "faces", 2, c->faces->len, 4, NPY_UINT8, (void **) &faces) < 0
      || put_array (d, "face_tag", 1, c->faces->len, 0, NPY_UINT8, (void **) &tags) < 0)
    {
      Py_DECREF (d);
      return NULL;
    }
  for (guint i = 0; i < n; i++)
    {
      const WkCollOctant *o = &g_array_index (c->octants, WkCollOctant, i);
      coord[3 * i] = o->x;
      coord[3 * i + 1] = o->y;
      coord[3 * i + 2] = o->z;
      offset[i] = o->offset;
      sz[i] = (guint8) o->size16;
      counts[3 * i] = o->n_vertices;
      counts[3 * i + 1] = o->n_faces;
      counts[3 * i + 2] = o->n_quads;
    }
  if (c->vertices->len)
    memcpy (verts, c->vertices->data, c->vertices->len * 3 * sizeof (gint16));
  for (guint i = 0; i < c->faces->len; i++)
    {
      const WkCollFace *f = &g_array_index (c->faces, WkCollFace, i);
      memcpy (faces + 4 * (gsize) i, f->v, 4);
      tags[i] = f->tag;
    }
  return d;
}

/* collision_parse(block, base=0) -> {positions, triangles, tag, quad, quads,
 * quad_tag, folded, octants: {...}} */
static PyObject *
collision_parse (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "block", "base", NULL };
  Py_buffer in;
  long long base = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|L:collision_parse", kwlist,
                                    &in, &base))
    return NULL;
  GError *error = NULL;
  WkRc2Collision *c;
  g_autofree guint8 *copy = in.readonly ? NULL : g_memdup2 (in.buf, (gsize) in.len);
  const guint8 *block = copy ? copy : in.buf;
  Py_BEGIN_ALLOW_THREADS
  c = wk_rc2_collision_parse (block, (gsize) in.len, base, &error);
  Py_END_ALLOW_THREADS
  if (c == NULL)
    {
      PyBuffer_Release (&in);
      wk_error_prefix (&error, "RC2 collision");
      return wk_raise (wk_state_from_module (module), error);
    }
  npy_intp nv = c->positions->len, nq = c->quads->len;
  npy_intp nt = (npy_intp) c->tris->len + 2 * nq;
  WkCollMeshOut out;
  PyObject *d = PyDict_New ();
  if (d == NULL
      || put_array (d, "positions", 2, nv, 3, NPY_FLOAT32, (void **) &out.positions) < 0
      || put_array (d, "triangles", 2, nt, 3, NPY_UINT32, (void **) &out.triangles) < 0
      || put_array (d, "tag", 1, nt, 0, NPY_UINT8, (void **) &out.tag) < 0
      || put_array (d, "quad", 1, nt, 0, NPY_BOOL, (void **) &out.quad) < 0
      || put_array (d, "quads", 2, nq, 4, NPY_UINT32, (void **) &out.quads) < 0
      || put_array (d, "quad_tag", 1, nq, 0, NPY_UINT8, (void **) &out.quad_tag) < 0
      || wk_dict_put (d, "folded", PyLong_FromUnsignedLong (c->folded)) < 0
      || wk_dict_put (d, "octants", octants_dict (c, block, (gsize) in.len)) < 0)
    Py_CLEAR (d);
  else
    {
      Py_BEGIN_ALLOW_THREADS
      wk_rc2_collision_fill (c, &out);
      Py_END_ALLOW_THREADS
    }
  wk_rc2_collision_free (c);
  PyBuffer_Release (&in);
  return d;
}

/* collision_build(positions f32 (V,3), tris u32 (T,3), tri_tags u8 (T,),
 * quads u32 (Q,4), quad_tags u8 (Q,)) -> bytes */
static PyObject *
collision_build (PyObject *module, PyObject *args)
{
  PyObject *o[5];
  if (!PyArg_ParseTuple (args, "OOOOO:collision_build", &o[0], &o[1], &o[2],
                         &o[3], &o[4]))
    return NULL;
  enum { POS, TRI, TTAG, QUAD, QTAG, N_ARR };
  PyArrayObject *a[N_ARR] = { NULL };
  PyObject *result = NULL;
  static const npy_intp any3[2] = { WK_ANY, 3 }, any4[2] = { WK_ANY, 4 };
  if (wk_array_arg (o[0], "positions", NPY_FLOAT32, 2, any3, FALSE, &a[POS]) < 0
      || wk_array_arg (o[1], "triangles", NPY_UINT32, 2, any3, FALSE, &a[TRI]) < 0
      || wk_array_arg (o[3], "quads", NPY_UINT32, 2, any4, FALSE, &a[QUAD]) < 0)
    goto done;
  const npy_intp t1[1] = { PyArray_DIM (a[TRI], 0) }, q1[1] = { PyArray_DIM (a[QUAD], 0) };
  if (wk_array_arg (o[2], "triangle tags", NPY_UINT8, 1, t1, FALSE, &a[TTAG]) < 0
      || wk_array_arg (o[4], "quad tags", NPY_UINT8, 1, q1, FALSE, &a[QTAG]) < 0)
    goto done;
  WkCollMesh m = {
    .positions = wk_array_data (a[POS]), .n_positions = (gsize) PyArray_DIM (a[POS], 0),
    .tris = wk_array_data (a[TRI]), .tri_tags = wk_array_data (a[TTAG]),
    .n_tris = (gsize) t1[0], .quads = wk_array_data (a[QUAD]),
    .quad_tags = wk_array_data (a[QTAG]), .n_quads = (gsize) q1[0],
  };
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_rc2_collision_build (&m, &error);
  Py_END_ALLOW_THREADS
  if (out == NULL)
    wk_error_prefix (&error, "RC2 collision writer");
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  wk_array_release (a, N_ARR);
  return result;
}

/* collision_build_octants(mesh_offset, (z_coord, z_count), y_nodes i32
 * (Z,3), x_nodes i32 (X,3), coord i32 (N,3), counts u32 (N,3), vertices
 * i16 (V,3), faces u8 (F,4), face_tag u8 (F,), hero bytes) -> bytes */
static PyObject *
collision_build_octants (PyObject *module, PyObject *args)
{
  int mesh_offset, zc;
  unsigned int zn;
  PyObject *o[7];
  Py_buffer hero;
  if (!PyArg_ParseTuple (args, "i(iI)OOOOOOOy*:collision_build_octants",
                         &mesh_offset, &zc, &zn, &o[0], &o[1], &o[2], &o[3],
                         &o[4], &o[5], &o[6], &hero))
    return NULL;
  enum { YN, XN, COORD, COUNTS, VERTS, FACES, FTAG, N_ARR };
  PyArrayObject *a[N_ARR] = { NULL };
  PyObject *result = NULL;
  WkRc2Collision c = { .mesh_offset = mesh_offset, .z = { zc, zn, 1 } };
  static const npy_intp any3[2] = { WK_ANY, 3 }, any4[2] = { WK_ANY, 4 };
  if (wk_array_arg (o[0], "y_nodes", NPY_INT32, 2, any3, FALSE, &a[YN]) < 0
      || wk_array_arg (o[1], "x_nodes", NPY_INT32, 2, any3, FALSE, &a[XN]) < 0
      || wk_array_arg (o[2], "coord", NPY_INT32, 2, any3, FALSE, &a[COORD]) < 0)
    goto done;
  const npy_intp n3[2] = { PyArray_DIM (a[COORD], 0), 3 };
  if (wk_array_arg (o[3], "counts", NPY_UINT32, 2, n3, FALSE, &a[COUNTS]) < 0
      || wk_array_arg (o[4], "vertices", NPY_INT16, 2, any3, FALSE, &a[VERTS]) < 0
      || wk_array_arg (o[5], "faces", NPY_UINT8, 2, any4, FALSE, &a[FACES]) < 0)
    goto done;
  const npy_intp f1[1] = { PyArray_DIM (a[FACES], 0) };
  if (wk_array_arg (o[6], "face_tag", NPY_UINT8, 1, f1, FALSE, &a[FTAG]) < 0)
    goto done;
  const gsize ny = (gsize) PyArray_DIM (a[YN], 0), nx = (gsize) PyArray_DIM (a[XN], 0);
  const gsize no = (gsize) n3[0], nv = (gsize) PyArray_DIM (a[VERTS], 0);
  const gsize nf = (gsize) f1[0];
  if (no > G_MAXUINT || nv > G_MAXUINT || nf > G_MAXUINT || ny > G_MAXUINT
      || nx > G_MAXUINT)
    {
      PyErr_SetString (PyExc_ValueError, "more than 2^32 octants, nodes, vertices "
                       "or faces");
      goto done;
    }
  c.y_nodes = g_array_sized_new (FALSE, FALSE, sizeof (WkCollNode), (guint) ny);
  c.x_nodes = g_array_sized_new (FALSE, FALSE, sizeof (WkCollNode), (guint) nx);
  c.octants = g_array_sized_new (FALSE, FALSE, sizeof (WkCollOctant), (guint) no);
  c.vertices = g_array_sized_new (FALSE, FALSE, 6, (guint) nv);
  c.faces = g_array_sized_new (FALSE, FALSE, sizeof (WkCollFace), (guint) nf);
  for (int k = 0; k < 2; k++)
    {
      const gint32 *p = wk_array_data (a[k ? XN : YN]);
      for (gsize i = 0; i < (k ? nx : ny); i++)
        {
          WkCollNode n = { p[3 * i + 1], (guint32) p[3 * i + 2], (guint32) p[3 * i] };
          g_array_append_val (k ? c.x_nodes : c.y_nodes, n);
        }
    }
  const gint32 *co = wk_array_data (a[COORD]);
  const guint32 *cn = wk_array_data (a[COUNTS]);
  guint64 fv = 0, ff = 0;
  for (gsize i = 0; i < no; i++)
    {
      WkCollOctant t = { co[3 * i], co[3 * i + 1], co[3 * i + 2], 0, 0, cn[3 * i],
                         cn[3 * i + 1], cn[3 * i + 2], (guint32) fv, (guint32) ff };
      fv += t.n_vertices;
      ff += t.n_faces;
      if (fv > nv || ff > nf)
        {
          PyErr_Format (PyExc_ValueError, "octant %zu: counts run past the %zu "
                        "vertices / %zu faces", (size_t) i, nv, nf);
          goto done;
        }
      g_array_append_val (c.octants, t);
    }
  g_array_append_vals (c.vertices, wk_array_data (a[VERTS]), (guint) nv);
  const guint8 *fp = wk_array_data (a[FACES]), *tp = wk_array_data (a[FTAG]);
  for (gsize i = 0; i < nf; i++)
    {
      WkCollFace f = { { fp[4 * i], fp[4 * i + 1], fp[4 * i + 2], fp[4 * i + 3] }, tp[i] };
      g_array_append_val (c.faces, f);
    }
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = wk_rc2_collision_build_octants (&c, hero.buf, (gsize) hero.len, &error);
  Py_END_ALLOW_THREADS
  if (out == NULL)
    wk_error_prefix (&error, "RC2 collision writer");
  result = wk_bytes_result (wk_state_from_module (module), out, error);
done:
  GArray **arrays[] = { &c.y_nodes, &c.x_nodes, &c.octants, &c.vertices, &c.faces };
  for (gsize i = 0; i < G_N_ELEMENTS (arrays); i++)
    if (*arrays[i])
      g_array_unref (*arrays[i]);
  wk_array_release (a, N_ARR);
  PyBuffer_Release (&hero);
  return result;
}

static PyMethodDef collision_methods[] = {
  { "collision_parse", (PyCFunction) (void (*) (void)) collision_parse,
    METH_VARARGS | METH_KEYWORDS,
    "collision_parse(block, base=0) -> dict: the deduplicated world mesh and "
    "the octants as stored" },
  { "collision_build", collision_build, METH_VARARGS,
    "collision_build(positions, tris, tri_tags, quads, quad_tags) -> bytes" },
  { "collision_build_octants", collision_build_octants, METH_VARARGS,
    "collision_build_octants(mesh_offset, z_node, y_nodes, x_nodes, coord, "
    "counts, vertices, faces, face_tag, hero) -> bytes" },
  { NULL },
};

int
wk_rc2_collision_register (PyObject *module, WkModState *st)
{
  (void) st;
  return PyModule_AddFunctions (module, collision_methods);
}
