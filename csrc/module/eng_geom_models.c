/* wadkit._core.EngGeometry: models() and animations() (TRAK and STPC). */
#include "eng_geom.h"

/* ---- models ---- */

static PyObject *
model_dict (const WkEngModel *m, WkEngSpace space)
{
  PyObject *d = PyDict_New ();
  if (d == NULL)
    return NULL;
  npy_intp nv = m->n_verts, nf = m->n_faces;
  PyObject *pos = new_array (2, nv, 3, 1, 1, NPY_FLOAT32);
  PyObject *nrm = new_array (2, nv, 3, 1, 1, NPY_FLOAT32);
  PyObject *tri = new_array (2, nf, 3, 1, 1, NPY_UINT32);
  PyObject *flags = new_array (1, nf, 1, 1, 1, NPY_UINT16);
  PyObject *tex = new_array (1, nf, 1, 1, 1, NPY_INT32);
  PyObject *planes = new_array (2, nf, 4, 1, 1, NPY_FLOAT32);
  PyObject *box = new_array (2, 8, 3, 1, 1, NPY_FLOAT32);
  PyObject *centre = new_array (1, 3, 1, 1, 1, NPY_FLOAT32);
  if (!pos || !nrm || !tri || !flags || !tex || !planes || !box || !centre)
    goto fail;
  wk_eng_model_positions (m, space, PyArray_DATA ((PyArrayObject *) pos));
  wk_eng_model_normals (m, space, PyArray_DATA ((PyArrayObject *) nrm));
  wk_eng_model_triangles (m, space, PyArray_DATA ((PyArrayObject *) tri));
  wk_eng_model_planes (m, space, PyArray_DATA ((PyArrayObject *) planes));
  wk_eng_model_bounds (m, space, PyArray_DATA ((PyArrayObject *) box),
                       PyArray_DATA ((PyArrayObject *) centre));
  guint16 *fl = PyArray_DATA ((PyArrayObject *) flags);
  gint32 *tx = PyArray_DATA ((PyArrayObject *) tex);
  for (npy_intp f = 0; f < nf; f++)
    {
      fl[f] = m->faces[f].flags;
      tx[f] = m->faces[f].tex;
    }
  /* | not ||: every put must run, each steals its value */
  if ((wk_dict_put (d, "positions", pos) | wk_dict_put (d, "normals", nrm)
      | wk_dict_put (d, "triangles", tri) | wk_dict_put (d, "face_flags", flags)
      | wk_dict_put (d, "face_texture", tex) | wk_dict_put (d, "face_planes", planes)
      | wk_dict_put (d, "box", box) | wk_dict_put (d, "centre", centre)) < 0)
    {
      pos = nrm = tri = flags = tex = planes = box = centre = NULL;
      goto fail_d;
    }
  if (wk_dict_put (d, "collision_raw",
           PyBytes_FromStringAndSize ((const char *) m->coll,
                                      (Py_ssize_t) m->n_coll * 32)) < 0
      || wk_dict_put (d, "collision_groups",
              Py_BuildValue ("(III)", m->coll_groups[0], m->coll_groups[1],
                             m->coll_groups[2])) < 0
      || wk_dict_put (d, "offset", PyLong_FromLongLong (m->offset)) < 0)
    goto fail_d;
  if (m->stpc
      && (wk_dict_put (d, "bone_counts", array_copy (1, m->n_bones, 1, 1, NPY_UINT16,
                                             m->bone_counts, 2)) < 0
          || wk_dict_put (d, "rigid_vertex_count", PyLong_FromLong (m->rigid_verts)) < 0))
    goto fail_d;
  return d;
fail:
  Py_XDECREF (pos);
  Py_XDECREF (nrm);
  Py_XDECREF (tri);
  Py_XDECREF (flags);
  Py_XDECREF (tex);
  Py_XDECREF (planes);
  Py_XDECREF (box);
  Py_XDECREF (centre);
fail_d:
  Py_DECREF (d);
  return NULL;
}

typedef struct {
  const GPtrArray *models;
  WkEngSpace space;
} ModelsIn;

static PyObject *
model_item (gconstpointer data, guint i)
{
  const ModelsIn *in = data;
  return model_dict (g_ptr_array_index (in->models, i), in->space);
}

PyObject *
geom_models (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "space", "objects", NULL };
  const char *s = "file";
  int objects = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "|sp:models", kwlist, &s, &objects))
    return NULL;
  WkEngSpace space;
  if (wk_space_arg (s, &space) < 0)
    return NULL;
  const GPtrArray *models = objects ? (g->stpc ? g->stpc->models : NULL) : g->trak;
  if (models == NULL)
    return PyList_New (0);
  ModelsIn in = { models, space };
  return wk_list_of (models->len, model_item, &in);
}

/* models' sizes without their arrays: what a caller that only asks "how
   many vertices / faces / collision records" needs (the export of an
   unchanged scene), at a few bytes per model */
PyObject *
geom_model_counts (EngGeomObject *g, PyObject *unused)
{
  const GPtrArray *models = g->trak;
  npy_intp n = models ? models->len : 0;
  PyObject *nv = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *nf = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *nc = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *d = PyDict_New ();
  if (!nv || !nf || !nc || !d)
    goto fail;
  guint32 *v = PyArray_DATA ((PyArrayObject *) nv);
  guint32 *f = PyArray_DATA ((PyArrayObject *) nf);
  guint32 *c = PyArray_DATA ((PyArrayObject *) nc);
  for (npy_intp i = 0; i < n; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, i);
      v[i] = m->n_verts;
      f[i] = m->n_faces;
      c[i] = m->coll_groups[0] + m->coll_groups[1] + m->coll_groups[2];
    }
  if ((wk_dict_put (d, "vertices", nv) | wk_dict_put (d, "faces", nf)
       | wk_dict_put (d, "collision", nc)) < 0)
    {
      Py_DECREF (d);
      return NULL;
    }
  return d;
fail:
  Py_XDECREF (nv);
  Py_XDECREF (nf);
  Py_XDECREF (nc);
  Py_XDECREF (d);
  return NULL;
}

/* ---- animations ---- */

static PyObject *
anim_dict (const WkEngStpc *s, const WkEngAnim *a)
{
  const guint8 *p = g_bytes_get_data (s->payload, NULL);
  PyObject *d = PyDict_New ();
  if (d == NULL)
    return NULL;
  npy_intp nf = a->n_frames, nb = a->n_bones;
  npy_intp nd = wk_eng_anim_delta_count (a);
  PyObject *mats = new_array (4, nf, nb, 4, 4, NPY_FLOAT32);
  PyObject *deltas = PyList_New (0);
  PyObject *aw = new_array (1, a->n_a, 1, 1, 1, NPY_UINT32);
  PyObject *fw = a->flag == 0 ? new_array (2, nf, 4, 1, 1, NPY_INT16)
                              : Py_NewRef (Py_None);
  if (mats == NULL || deltas == NULL || aw == NULL || fw == NULL)
    goto fail;
  gfloat *mp = PyArray_DATA ((PyArrayObject *) mats);
  for (guint32 f = 0; f < a->n_frames; f++)
    {
      PyObject *arr = f == 0 ? new_array (2, nd, 4, 1, 1, NPY_INT16)
                             : new_array (1, nd, 1, 1, 1, NPY_INT16);
      if (arr == NULL)
        goto fail;
      wk_eng_anim_frame (s, a, f, PyArray_DATA ((PyArrayObject *) arr),
                         mp + (gsize) f * nb * 16);
      int rc = PyList_Append (deltas, arr);
      Py_DECREF (arr);
      if (rc < 0)
        goto fail;
    }
  wk_eng_anim_words (s, a, PyArray_DATA ((PyArrayObject *) aw),
                     fw == Py_None ? NULL : PyArray_DATA ((PyArrayObject *) fw));
  /* | not ||: every put must run, each steals its value */
  if ((wk_dict_put (d, "n_frames", PyLong_FromUnsignedLong (a->n_frames))
      | wk_dict_put (d, "n_bones", PyLong_FromUnsignedLong (a->n_bones))
      | wk_dict_put (d, "n_delta", PyLong_FromUnsignedLong (a->n_delta))
      | wk_dict_put (d, "flag", PyLong_FromUnsignedLong (a->flag))
      | wk_dict_put (d, "a", aw) | wk_dict_put (d, "frame_words", fw)
      | wk_dict_put (d, "matrices", mats) | wk_dict_put (d, "deltas", deltas)
      | wk_dict_put (d, "offset", PyLong_FromLongLong (s->base + (gint64) a->offset))
      | wk_dict_put (d, "raw", PyBytes_FromStringAndSize ((const char *) p + a->offset,
                                                   (Py_ssize_t) a->size))) < 0)
    {
      Py_DECREF (d);
      return NULL;
    }
  return d;
fail:
  Py_XDECREF (mats);
  Py_XDECREF (deltas);
  Py_XDECREF (aw);
  Py_XDECREF (fw);
  Py_DECREF (d);
  return NULL;
}

static PyObject *
anim_item (gconstpointer stpc, guint i)
{
  const WkEngStpc *s = stpc;
  return anim_dict (s, &g_array_index (s->anims, WkEngAnim, i));
}

PyObject *
geom_animations (EngGeomObject *g, PyObject *unused)
{
  if (g->stpc == NULL)
    return PyList_New (0);
  return wk_list_of (g->stpc->anims->len, anim_item, g->stpc);
}
