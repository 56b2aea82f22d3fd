/* wadkit._core.tie_mesh / shrub_mesh / moby_mesh: RC2 class meshes to NumPy
 * (csrc/core/rc2/tie.c, shrub.c, moby_mesh.c). */
#include "module.h"

#include "wk_numpy.h"
#include "../core/common/wk_error.h"
#include "../core/rc2/moby_mesh.h"
#include "../core/rc2/shrub.h"
#include "../core/rc2/tie.h"

enum { TIE, SHRUB, MOBY };
static const char *const kind_names[] = { "tie", "shrub", "moby" };

typedef union {
  WkTieInfo tie;
  WkShrubInfo shrub;
  WkMobyInfo moby;
} Info;

static PyObject *
sphere (const gfloat s[4])
{
  return Py_BuildValue ("(ffff)", s[0], s[1], s[2], s[3]);
}

/* | not ||: every value is made and put (wk_dict_put takes it), also
 * after a put failed, so none is left over (lods). */
static int
put_info (PyObject *d, int kind, const Info *in)
{
  switch (kind)
    {
    case TIE:
      {
        const WkTieInfo *t = &in->tie;
        PyObject *lods = PyTuple_New (3);
        for (int i = 0; lods && i < 3; i++)
          {
            PyObject *l = Py_BuildValue ("{sisisi}", "vert_count", t->lod_header[i][0],
                                         "tri_count", t->lod_header[i][1],
                                         "strip_count", t->lod_header[i][2]);
            if (l == NULL)
              Py_CLEAR (lods);
            else
              PyTuple_SET_ITEM (lods, i, l);
          }
        return (wk_dict_put (d, "o_class", PyLong_FromLong (t->o_class))
               | wk_dict_put (d, "scale", PyFloat_FromDouble (t->scale))
               | wk_dict_put (d, "bsphere", sphere (t->bsphere))
               | wk_dict_put (d, "lod_distances", Py_BuildValue (
                       "(fff)", t->dist[0], t->dist[1], t->dist[2]))
               | wk_dict_put (d, "mip_dist", PyFloat_FromDouble (t->mip_dist))
               | wk_dict_put (d, "texture_count", PyLong_FromUnsignedLong (t->texture_count))
               | wk_dict_put (d, "packet_counts", Py_BuildValue (
                       "(III)", t->packet_count[0], t->packet_count[1], t->packet_count[2]))
               | wk_dict_put (d, "lod_headers", lods)
               | wk_dict_put (d, "strips", PyLong_FromUnsignedLong (t->strips))) < 0 ? -1 : 0;
      }
    case SHRUB:
      {
        const WkShrubInfo *s = &in->shrub;
        return (wk_dict_put (d, "o_class", PyLong_FromLong (s->o_class))
               | wk_dict_put (d, "scale", PyFloat_FromDouble (s->scale))
               | wk_dict_put (d, "bsphere", sphere (s->bsphere))
               | wk_dict_put (d, "mip_distance", PyFloat_FromDouble (s->mip_distance))
               | wk_dict_put (d, "mode_bits", PyLong_FromUnsignedLong (s->mode_bits))
               | wk_dict_put (d, "packet_count", PyLong_FromUnsignedLong (s->packet_count))
               | wk_dict_put (d, "billboard_offset", PyLong_FromLong (s->billboard_offset))
               | wk_dict_put (d, "padding_vertices", PyLong_FromUnsignedLong (s->padding_vertices))
               | wk_dict_put (d, "dropped_triangles", PyLong_FromUnsignedLong (s->dropped_triangles))) < 0 ? -1 : 0;
      }
    default:
      {
        const WkMobyInfo *m = &in->moby;
        return (wk_dict_put (d, "scale", PyFloat_FromDouble (m->scale))
               | wk_dict_put (d, "bsphere", sphere (m->bsphere))
               | wk_dict_put (d, "joint_count", PyLong_FromUnsignedLong (m->joint_count))
               | wk_dict_put (d, "packet_counts", Py_BuildValue (
                       "(III)", m->packet_count[0], m->packet_count[1], m->packet_count[2]))
               | wk_dict_put (d, "format", PyLong_FromUnsignedLong (m->format))
               | wk_dict_put (d, "has_mesh", PyBool_FromLong (m->has_mesh))) < 0 ? -1 : 0;
      }
    }
}

/* The decoded mesh as a dict of new arrays filled by the core. */
static PyObject *
mesh_dict (const WkClassMesh *m)
{
  npy_intp nv = (npy_intp) wk_class_mesh_vertices (m);
  npy_intp nt = (npy_intp) wk_class_mesh_triangles (m);
  npy_intp d3[2] = { nv, 3 }, d2[2] = { nv, 2 }, dt[2] = { nt, 3 }, d1[1] = { nt };
  enum { N = 5 };
  PyObject *arr[N] = {
    PyArray_SimpleNew (2, d3, NPY_FLOAT32), PyArray_SimpleNew (2, dt, NPY_UINT32),
    PyArray_SimpleNew (2, d2, NPY_FLOAT32), PyArray_SimpleNew (1, d1, NPY_INT32),
    m->has_normals ? PyArray_SimpleNew (2, d3, NPY_FLOAT32) : NULL,
  };
  static const char *const keys[N] = { "positions", "triangles", "uv", "texture",
                                       "normals" };
  PyObject *d = NULL;
  for (int i = 0; i < N - !m->has_normals; i++)
    if (arr[i] == NULL)
      goto done;
  WkClassMeshOut out = {
    PyArray_DATA ((PyArrayObject *) arr[0]), PyArray_DATA ((PyArrayObject *) arr[2]),
    m->has_normals ? PyArray_DATA ((PyArrayObject *) arr[4]) : NULL,
    PyArray_DATA ((PyArrayObject *) arr[1]), PyArray_DATA ((PyArrayObject *) arr[3]),
  };
  Py_BEGIN_ALLOW_THREADS
  wk_class_mesh_fill (m, &out);
  Py_END_ALLOW_THREADS
  d = PyDict_New ();
  for (int i = 0; d && i < N - !m->has_normals; i++)
    {
      PyObject *a = arr[i];
      arr[i] = NULL;
      if (wk_dict_put (d, keys[i], a) < 0)
        Py_CLEAR (d);
    }
done:
  for (int i = 0; i < N; i++)
    Py_XDECREF (arr[i]);
  return d;
}

static PyObject *
class_mesh (PyObject *module, PyObject *args, PyObject *kwds, int kind)
{
  static char *kw_lod[] = { "data", "lod", "offset", "class_id", NULL };
  static char *kw_nolod[] = { "data", "offset", "class_id", NULL };
  Py_buffer in;
  unsigned int lod = 0;
  long long offset = 0;
  int class_id = -1;
  int ok = kind == SHRUB
    ? PyArg_ParseTupleAndKeywords (args, kwds, "y*|Li:shrub_mesh", kw_nolod, &in,
                                   &offset, &class_id)
    : PyArg_ParseTupleAndKeywords (args, kwds, kind == TIE ? "y*|ILi:tie_mesh"
                                   : "y*|ILi:moby_mesh", kw_lod, &in, &lod,
                                   &offset, &class_id);
  if (!ok)
    return NULL;
  if (offset < 0)
    {
      PyBuffer_Release (&in);
      return PyErr_Format (PyExc_ValueError, "offset %lld is negative", offset);
    }
  /* The core checks a value and uses it later: a buffer another thread
   * could change meanwhile is decoded from a copy. */
  g_autofree guint8 *copy = in.readonly ? NULL : g_memdup2 (in.buf, (gsize) in.len);
  const guint8 *data = copy ? copy : in.buf;
  gsize size = (gsize) in.len;
  GError *error = NULL;
  WkClassMesh *m = NULL;
  Info info;
  memset (&info, 0, sizeof info);
  Py_BEGIN_ALLOW_THREADS
  switch (kind)
    {
    case TIE: m = wk_tie_mesh_parse (data, size, offset, lod, &info.tie, &error); break;
    case SHRUB: m = wk_shrub_mesh_parse (data, size, offset, &info.shrub, &error); break;
    default: m = wk_moby_mesh_parse (data, size, offset, lod, &info.moby, &error); break;
    }
  Py_END_ALLOW_THREADS
  PyBuffer_Release (&in);
  if (m == NULL)
    {
      /* Name the class: the id the caller gave, else the one in the header. */
      gint id = class_id;
      if (id < 0 && kind != MOBY && size >= (kind == TIE ? 0x46u : 0x26u))
        id = wk_les16 (data + (kind == TIE ? 0x44 : 0x24));
      if (id >= 0)
        wk_error_prefix (&error, "RC2 %s class %d", kind_names[kind], id);
      else
        wk_error_prefix (&error, "RC2 %s class", kind_names[kind]);
      return wk_raise (wk_state_from_module (module), error);
    }
  PyObject *d = mesh_dict (m);
  wk_class_mesh_free (m);
  if (d && put_info (d, kind, &info) < 0)
    Py_CLEAR (d);
  return d;
}

static PyObject *
tie_mesh (PyObject *module, PyObject *args, PyObject *kwds)
{
  return class_mesh (module, args, kwds, TIE);
}

static PyObject *
shrub_mesh (PyObject *module, PyObject *args, PyObject *kwds)
{
  return class_mesh (module, args, kwds, SHRUB);
}

static PyObject *
moby_mesh (PyObject *module, PyObject *args, PyObject *kwds)
{
  return class_mesh (module, args, kwds, MOBY);
}

static PyMethodDef class_mesh_methods[] = {
  { "tie_mesh", (PyCFunction) (void (*) (void)) tie_mesh, METH_VARARGS | METH_KEYWORDS,
    "tie_mesh(data, lod=0, offset=0, class_id=-1) -> dict of arrays" },
  { "shrub_mesh", (PyCFunction) (void (*) (void)) shrub_mesh, METH_VARARGS | METH_KEYWORDS,
    "shrub_mesh(data, offset=0, class_id=-1) -> dict of arrays" },
  { "moby_mesh", (PyCFunction) (void (*) (void)) moby_mesh, METH_VARARGS | METH_KEYWORDS,
    "moby_mesh(data, lod=0, offset=0, class_id=-1) -> dict of arrays" },
  { NULL },
};

int
wk_rc2_class_mesh_register (PyObject *module, WkModState *st)
{
  return PyModule_AddFunctions (module, class_mesh_methods);
}
