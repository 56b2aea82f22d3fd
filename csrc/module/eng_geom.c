/* wadkit._core.EngGeometry: TRAK, STPC models/animations and the MAP tile
 * part of an ENG level, parsed once, read out as NumPy arrays, rebuilt. */
#include "module.h"
#include "wk_numpy.h"

#include "../core/eng/eng_import.h"
#include "../core/eng/eng_map.h"
#include "../core/eng/eng_stpc.h"
#include "../core/eng/eng_trak.h"
#include "../core/eng/eng_world.h"

typedef struct {
  PyObject_HEAD
  guint32 wfpc;
  GPtrArray *trak;   /* WkEngModel, or NULL without TRAK */
  WkEngStpc *stpc;   /* or NULL */
  WkEngMap *map;     /* or NULL */
  GPtrArray *warnings;
} EngGeomObject;

typedef struct {
  Py_buffer view;
  gboolean has;
} Buf;

static int
get_buf (PyObject *obj, Buf *b, gboolean optional, const char *name)
{
  b->has = FALSE;
  if (obj == Py_None && optional)
    return 0;
  if (PyObject_GetBuffer (obj, &b->view, PyBUF_C_CONTIGUOUS) < 0)
    return -1;
  b->has = TRUE;
  return 0;
}

static void
release_buf (Buf *b)
{
  if (b->has)
    PyBuffer_Release (&b->view);
  b->has = FALSE;
}

/* A chunk payload and its file offset (for error messages). TRAK and
 * MAP are also held as GBytes (shared when the buffer cannot change,
 * else copied): their parses view it in place. */
typedef struct {
  Buf buf;
  long long base;
  GBytes *bytes;
} Chunk;

static int
get_chunk (PyObject *obj, long long base, Chunk *c)
{
  c->base = base;
  return get_buf (obj, &c->buf, TRUE, NULL);
}

static int
get_chunk_bytes (WkModState *st, PyObject *obj, long long base, Chunk *c)
{
  c->base = base;
  c->buf.has = FALSE;
  if (obj == Py_None)
    return 0;
  c->bytes = wk_shared_bytes (st, obj);
  if (c->bytes == NULL)
    return -1;
  c->buf.has = TRUE;
  return 0;
}

/* With the GIL: a shared GBytes releases its buffer on the last unref. */
static void
release_chunk (Chunk *c)
{
  if (c->bytes != NULL)
    {
      g_clear_pointer (&c->bytes, g_bytes_unref);
      c->buf.has = FALSE;
    }
  else
    release_buf (&c->buf);
}

/* The parse, without the GIL. */
static gboolean
parse_all (EngGeomObject *g, Chunk *wfpc, Chunk *trak, Chunk *map, Chunk *stpc,
           GError **error)
{
  if (wfpc->buf.has)
    {
      WkReader r;
      wk_reader_init (&r, wfpc->buf.view.buf, (gsize) wfpc->buf.view.len, wfpc->base);
      if (!wk_read_u32 (&r, &g->wfpc, "flags", error))
        {
          wk_error_prefix (error, "WFPC");
          return FALSE;
        }
    }
  if (trak->buf.has)
    {
      g->trak = wk_eng_trak_parse_bytes (trak->bytes, trak->base, error);
      if (g->trak == NULL)
        return FALSE;
    }
  if (stpc->buf.has)
    {
      g->stpc = wk_eng_stpc_parse (stpc->buf.view.buf, (gsize) stpc->buf.view.len,
                                   stpc->base, error);
      if (g->stpc == NULL)
        return FALSE;
    }
  if (map->buf.has)
    {
      if (g->trak == NULL)
        {
          wk_set_error (error, WK_ERROR_FORMAT, map->base,
                        "a MAP chunk needs a TRAK chunk (colour counts)");
          wk_error_prefix (error, "MAP");
          return FALSE;
        }
      g->map = wk_eng_map_parse_bytes (map->bytes, map->base, g->wfpc, g->trak,
                                       error);
      if (g->map == NULL)
        return FALSE;
      for (guint i = 0; i < g->map->warnings->len; i++)
        g_ptr_array_add (g->warnings,
                         g_strdup (g_ptr_array_index (g->map->warnings, i)));
    }
  if (g->stpc && g->stpc->layout == WK_ENG_ANIM_LAYOUT_CROC2)
    g_ptr_array_add (g->warnings, g_strdup (
        "STPC: animations read in the Croc 2 layout (two extra nFrames-word "
        "arrays), not the layout of our record"));
  return TRUE;
}

static PyObject *
geom_new (PyTypeObject *type, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "wfpc", "trak", "trak_base", "map", "map_base",
                            "stpc", "stpc_base", "wfpc_base", NULL };
  PyObject *o_wfpc, *o_trak, *o_map, *o_stpc;
  long long b_trak, b_map, b_stpc, b_wfpc = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "OOLOLOL|L:EngGeometry", kwlist,
                                    &o_wfpc, &o_trak, &b_trak, &o_map, &b_map,
                                    &o_stpc, &b_stpc, &b_wfpc))
    return NULL;
  WkModState *st = wk_state_from_type (type);
  if (st == NULL)
    return NULL;
  EngGeomObject *g = (EngGeomObject *) type->tp_alloc (type, 0);
  if (g == NULL)
    return NULL;
  g->warnings = g_ptr_array_new_with_free_func (g_free);
  Chunk wfpc = { 0 }, trak = { 0 }, map = { 0 }, stpc = { 0 };
  if (get_chunk (o_wfpc, b_wfpc, &wfpc) < 0
      || get_chunk_bytes (st, o_trak, b_trak, &trak) < 0
      || get_chunk_bytes (st, o_map, b_map, &map) < 0
      || get_chunk (o_stpc, b_stpc, &stpc) < 0)
    goto fail;
  GError *error = NULL;
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  ok = parse_all (g, &wfpc, &trak, &map, &stpc, &error);
  Py_END_ALLOW_THREADS
  if (!ok)
    {
      wk_raise (st, error);
      goto fail;
    }
  release_buf (&wfpc.buf);
  release_chunk (&trak);
  release_chunk (&map);
  release_buf (&stpc.buf);
  return (PyObject *) g;
fail:
  release_buf (&wfpc.buf);
  release_chunk (&trak);
  release_chunk (&map);
  release_buf (&stpc.buf);
  Py_DECREF (g);
  return NULL;
}

static void
geom_dealloc (EngGeomObject *g)
{
  PyTypeObject *tp = Py_TYPE (g);
  g_clear_pointer (&g->trak, g_ptr_array_unref);
  g_clear_pointer (&g->stpc, wk_eng_stpc_free);
  g_clear_pointer (&g->map, wk_eng_map_free);
  g_clear_pointer (&g->warnings, g_ptr_array_unref);
  tp->tp_free ((PyObject *) g);
  Py_DECREF (tp);
}

/* ---- helpers ---- */

static PyObject *
new_array (int nd, npy_intp d0, npy_intp d1, npy_intp d2, npy_intp d3, int type)
{
  npy_intp dims[4] = { d0, d1, d2, d3 };
  return PyArray_SimpleNew (nd, dims, type);
}

static PyObject *
array_copy (int nd, npy_intp d0, npy_intp d1, npy_intp d2, int type,
            const void *src, gsize elem_size)
{
  PyObject *a = new_array (nd, d0, d1, d2, 1, type);
  if (a == NULL)
    return NULL;
  gsize n = (gsize) PyArray_SIZE ((PyArrayObject *) a);
  if (n)
    memcpy (PyArray_DATA ((PyArrayObject *) a), src, n * elem_size);
  return a;
}

static int
parse_space (const char *s, WkEngSpace *space)
{
  if (strcmp (s, "file") == 0)
    *space = WK_ENG_SPACE_FILE;
  else if (strcmp (s, "export") == 0)
    *space = WK_ENG_SPACE_EXPORT;
  else
    {
      PyErr_Format (PyExc_ValueError,
                    "space must be 'file' or 'export', not '%s'", s);
      return -1;
    }
  return 0;
}

static WkModState *
geom_state (EngGeomObject *g)
{
  return wk_state_from_type (Py_TYPE (g));
}

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
  const gfloat zs = space == WK_ENG_SPACE_FILE ? -1.0f : 1.0f;
  guint16 *fl = PyArray_DATA ((PyArrayObject *) flags);
  gint32 *tx = PyArray_DATA ((PyArrayObject *) tex);
  gfloat *pl = PyArray_DATA ((PyArrayObject *) planes);
  for (npy_intp f = 0; f < nf; f++)
    {
      fl[f] = m->faces[f].flags;
      tx[f] = m->faces[f].tex;
      pl[4 * f] = m->faces[f].plane[0];
      pl[4 * f + 1] = m->faces[f].plane[1];
      pl[4 * f + 2] = zs * m->faces[f].plane[2];
      pl[4 * f + 3] = m->faces[f].plane[3];
    }
  gfloat *bx = PyArray_DATA ((PyArrayObject *) box);
  gfloat *ce = PyArray_DATA ((PyArrayObject *) centre);
  for (int c = 0; c < 8; c++)
    for (int k = 0; k < 3; k++)
      bx[3 * c + k] = (k == 2 ? zs : 1.0f) * m->box[c][k];
  for (int k = 0; k < 3; k++)
    ce[k] = (k == 2 ? zs : 1.0f) * m->centre[k];
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

static PyObject *
geom_models (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "space", "objects", NULL };
  const char *s = "file";
  int objects = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "|sp:models", kwlist, &s, &objects))
    return NULL;
  WkEngSpace space;
  if (parse_space (s, &space) < 0)
    return NULL;
  const GPtrArray *models = objects ? (g->stpc ? g->stpc->models : NULL) : g->trak;
  if (models == NULL)
    return PyList_New (0);
  PyObject *list = PyList_New (models->len);
  for (guint i = 0; list && i < models->len; i++)
    {
      PyObject *d = model_dict (g_ptr_array_index (models, i), space);
      if (d == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, d);
    }
  return list;
}

/* ---- tiles and zones ---- */

static PyObject *
no_map (void)
{
  PyErr_SetString (PyExc_KeyError, "this level has no MAP chunk");
  return NULL;
}

static PyObject *
geom_tiles (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "space", NULL };
  const char *s = "file";
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "|s:tiles", kwlist, &s))
    return NULL;
  WkEngSpace space;
  if (parse_space (s, &space) < 0)
    return NULL;
  const WkEngMap *m = g->map;
  if (m == NULL)
    return no_map ();
  npy_intp n = m->n;
  PyObject *d = PyDict_New ();
  if (d == NULL)
    return NULL;
  PyObject *pos = new_array (2, n, 3, 1, 1, NPY_FLOAT32);
  PyObject *apos = new_array (2, n, 3, 1, 1, NPY_FLOAT32);
  PyObject *rot = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *arot = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *amodel = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *anim = new_array (1, n, 1, 1, 1, NPY_UINT32);
  PyObject *cellxz = new_array (2, n, 2, 1, 1, NPY_INT32);
  PyObject *swaps = new_array (2, m->n_swaps, 5, 1, 1, NPY_UINT32);
  if (!pos || !apos || !rot || !arot || !amodel || !anim || !cellxz || !swaps)
    {
      Py_XDECREF (pos); Py_XDECREF (apos); Py_XDECREF (rot); Py_XDECREF (arot);
      Py_XDECREF (amodel); Py_XDECREF (anim); Py_XDECREF (cellxz); Py_XDECREF (swaps);
      Py_DECREF (d);
      return NULL;
    }
  gfloat *p = PyArray_DATA ((PyArrayObject *) pos);
  gfloat *ap = PyArray_DATA ((PyArrayObject *) apos);
  guint32 *r = PyArray_DATA ((PyArrayObject *) rot);
  guint32 *ar = PyArray_DATA ((PyArrayObject *) arot);
  guint32 *am = PyArray_DATA ((PyArrayObject *) amodel);
  guint32 *an = PyArray_DATA ((PyArrayObject *) anim);
  gint32 *cx = PyArray_DATA ((PyArrayObject *) cellxz);
  const gfloat zs = space == WK_ENG_SPACE_FILE ? -1.0f : 1.0f;
  for (npy_intp i = 0; i < n; i++)
    {
      /* B is game (= file) space */
      p[3 * i] = (gfloat) (m->b[i][3] / 4096.0);
      p[3 * i + 1] = (gfloat) (m->b[i][4] / 4096.0);
      p[3 * i + 2] = (gfloat) (-zs * m->b[i][5] / 4096.0);
      ap[3 * i] = m->a[i].x;
      ap[3 * i + 1] = m->a[i].y;
      ap[3 * i + 2] = m->a[i].z;
      r[i] = (guint32) m->b[i][1];
      ar[i] = m->a[i].rot;
      am[i] = m->a[i].model;
      an[i] = m->a[i].anim;
      cx[2 * i] = m->cell[i] % (gint32) MAX (m->w, 1);
      cx[2 * i + 1] = m->cell[i] / (gint32) MAX (m->w, 1);
    }
  guint32 *sw = PyArray_DATA ((PyArrayObject *) swaps);
  for (guint32 k = 0; k < m->n_swaps; k++)
    {
      sw[5 * k] = m->swaps[k].cell_x;
      sw[5 * k + 1] = m->swaps[k].y;
      sw[5 * k + 2] = m->swaps[k].cell_z;
      sw[5 * k + 3] = m->swaps[k].model_a;
      sw[5 * k + 4] = m->swaps[k].model_b;
    }
  /* | not ||: every put must run, each steals its value */
  if ((wk_dict_put (d, "position", pos) | wk_dict_put (d, "a_position", apos)
      | wk_dict_put (d, "rotation", rot) | wk_dict_put (d, "a_rotation", arot)
      | wk_dict_put (d, "a_model", amodel) | wk_dict_put (d, "anim_flag", anim)
      | wk_dict_put (d, "cell_xz", cellxz) | wk_dict_put (d, "swaps", swaps)
      | wk_dict_put (d, "model", array_copy (1, n, 1, 1, NPY_UINT32, m->model, 4))
      | wk_dict_put (d, "b", array_copy (2, n, 6, 1, NPY_INT32, m->b, 4))
      | wk_dict_put (d, "cell", array_copy (1, n, 1, 1, NPY_INT32, m->cell, 4))
      | wk_dict_put (d, "swap", array_copy (1, n, 1, 1, NPY_INT32, m->swap_of_tile, 4))
      | wk_dict_put (d, "colors", array_copy (2, m->n_colors, 4, 1, NPY_UINT8, m->colors, 1))
      | wk_dict_put (d, "color_start", array_copy (1, n, 1, 1, NPY_UINT32, m->col_start, 4))
      | wk_dict_put (d, "color_sets", array_copy (1, n, 1, 1, NPY_UINT32, m->col_sets, 4))
      | wk_dict_put (d, "color_b_start", array_copy (1, n, 1, 1, NPY_UINT32, m->colb_start, 4))
      | wk_dict_put (d, "color_b_sets", array_copy (1, n, 1, 1, NPY_UINT32, m->colb_sets, 4))
      | wk_dict_put (d, "width", PyLong_FromUnsignedLong (m->w))
      | wk_dict_put (d, "height", PyLong_FromUnsignedLong (m->h))
      | wk_dict_put (d, "has_swap_block", PyBool_FromLong (m->has_swaps))) < 0)
    {
      Py_DECREF (d);
      return NULL;
    }
  return d;
}

static PyObject *
geom_zones (EngGeomObject *g, PyObject *unused)
{
  const WkEngMap *m = g->map;
  if (m == NULL)
    return no_map ();
  PyObject *d = PyDict_New ();
  PyObject *mask = new_array (1, WK_ENG_ZONES, 1, 1, 1, NPY_UINT32);
  PyObject *height = new_array (1, WK_ENG_ZONES, 1, 1, 1, NPY_INT32);
  if (d == NULL || mask == NULL || height == NULL)
    {
      Py_XDECREF (d); Py_XDECREF (mask); Py_XDECREF (height);
      return NULL;
    }
  for (int k = 0; k < WK_ENG_ZONES; k++)
    {
      ((guint32 *) PyArray_DATA ((PyArrayObject *) mask))[k] = m->zone_table[2 * k];
      ((gint32 *) PyArray_DATA ((PyArrayObject *) height))[k] = (gint32) m->zone_table[2 * k + 1];
    }
  if (wk_dict_put (d, "mask", mask) < 0 || wk_dict_put (d, "height", height) < 0
      || wk_dict_put (d, "grid", array_copy (2, m->h, m->w, 1, NPY_UINT32, m->zone_grid, 4)) < 0)
    {
      Py_DECREF (d);
      return NULL;
    }
  return d;
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
  guint64 nd = a->n_delta > G_MAXINT32 ? 0 : a->n_delta;
  PyObject *mats = new_array (4, nf, nb, 4, 4, NPY_FLOAT32);
  PyObject *deltas = PyList_New (0);
  if (mats == NULL || deltas == NULL)
    goto fail;
  gfloat *mp = PyArray_DATA ((PyArrayObject *) mats);
  for (guint32 f = 0; f < a->n_frames; f++)
    {
      gsize off = wk_eng_anim_frame_offset (a, f);
      gsize dsz = (gsize) wk_eng_anim_delta_size (a, f); /* fits: parsed */
      PyObject *arr = f == 0 ? new_array (2, (npy_intp) nd, 4, 1, 1, NPY_INT16)
                             : new_array (1, (npy_intp) nd, 1, 1, 1, NPY_INT16);
      if (arr == NULL)
        goto fail;
      gint16 *dp = PyArray_DATA ((PyArrayObject *) arr);
      for (guint64 k = 0; k < (f == 0 ? nd * 4 : nd); k++)
        dp[k] = wk_les16 (p + off + 2 * k);
      int rc = PyList_Append (deltas, arr);
      Py_DECREF (arr);
      if (rc < 0)
        goto fail;
      for (gsize k = 0; k < (gsize) nb * 16; k++)
        mp[(gsize) f * nb * 16 + k] = wk_lef32 (p + off + dsz + 4 * k);
    }
  PyObject *aw = new_array (1, a->n_a, 1, 1, 1, NPY_UINT32);
  if (aw == NULL)
    goto fail;
  for (guint32 k = 0; k < a->n_a; k++)
    ((guint32 *) PyArray_DATA ((PyArrayObject *) aw))[k] = wk_le32 (p + a->a_off + 4 * k);
  PyObject *fw = Py_NewRef (Py_None);
  if (a->flag == 0)
    {
      Py_DECREF (fw);
      fw = new_array (2, nf, 4, 1, 1, NPY_INT16);
      if (fw == NULL)
        {
          Py_DECREF (aw);
          goto fail;
        }
      for (gsize k = 0; k < (gsize) nf * 4; k++)
        ((gint16 *) PyArray_DATA ((PyArrayObject *) fw))[k]
            = wk_les16 (p + a->frame_words_off + 2 * k);
    }
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
  Py_DECREF (d);
  return NULL;
}

static PyObject *
geom_animations (EngGeomObject *g, PyObject *unused)
{
  if (g->stpc == NULL)
    return PyList_New (0);
  GArray *anims = g->stpc->anims;
  PyObject *list = PyList_New (anims->len);
  for (guint i = 0; list && i < anims->len; i++)
    {
      PyObject *d = anim_dict (g->stpc, &g_array_index (anims, WkEngAnim, i));
      if (d == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, d);
    }
  return list;
}

/* ---- world mesh ---- */

static PyObject *
geom_world_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "space", "texture_table", "color_set", NULL };
  const char *s = "file";
  PyObject *table = Py_None;
  unsigned int color_set = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "|sOI:world_mesh", kwlist, &s,
                                    &table, &color_set))
    return NULL;
  WkEngSpace space;
  if (parse_space (s, &space) < 0)
    return NULL;
  if (g->map == NULL)
    return no_map ();
  WkModState *st = geom_state (g);
  if (st == NULL)
    return NULL;
  g_autofree WkEngTexEntry *entries = NULL;
  guint n_entries = 0;
  if (table != Py_None)
    {
      Py_buffer view;
      if (PyObject_GetBuffer (table, &view, PyBUF_SIMPLE) < 0)
        return NULL;
      if (view.len % WK_ENG_TEX_ENTRY_SIZE != 0 || view.len / 8 > G_MAXUINT16 + 1)
        {
          PyBuffer_Release (&view);
          PyErr_SetString (PyExc_ValueError,
                           "texture_table must be n×8 bytes (n ≤ 65536)");
          return NULL;
        }
      n_entries = (guint) (view.len / WK_ENG_TEX_ENTRY_SIZE);
      entries = g_new (WkEngTexEntry, n_entries + 1);
      for (guint i = 0; i < n_entries; i++)
        wk_eng_tex_entry_decode ((const guint8 *) view.buf + 8 * i, &entries[i]);
      PyBuffer_Release (&view);
    }
  gsize nv, nt;
  GError *size_error = NULL;
  if (!wk_eng_world_mesh_size (g->trak, g->map, &nv, &nt, &size_error))
    return wk_raise (st, size_error);
  PyObject *arr[8] = {
    new_array (2, (npy_intp) nv, 3, 1, 1, NPY_FLOAT32),
    new_array (2, (npy_intp) nt, 3, 1, 1, NPY_UINT32),
    new_array (3, (npy_intp) nt, 3, 2, 1, NPY_FLOAT32),
    new_array (3, (npy_intp) nt, 3, 4, 1, NPY_FLOAT32),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_INT32),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_INT32),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_UINT16),
    new_array (1, (npy_intp) nt, 1, 1, 1, NPY_INT32),
  };
  static const char *const names[8] = { "positions", "triangles", "uv", "color",
                                        "texture", "page", "face_flags", "tile" };
  PyObject *d = PyDict_New ();
  for (int k = 0; k < 8; k++)
    if (arr[k] == NULL || d == NULL)
      goto fail;
  WkEngMeshOut out = {
    PyArray_DATA ((PyArrayObject *) arr[0]), PyArray_DATA ((PyArrayObject *) arr[1]),
    PyArray_DATA ((PyArrayObject *) arr[2]), PyArray_DATA ((PyArrayObject *) arr[3]),
    PyArray_DATA ((PyArrayObject *) arr[4]), PyArray_DATA ((PyArrayObject *) arr[5]),
    PyArray_DATA ((PyArrayObject *) arr[6]), PyArray_DATA ((PyArrayObject *) arr[7]),
  };
  GError *error = NULL;
  gboolean ok;
  Py_BEGIN_ALLOW_THREADS
  ok = wk_eng_world_mesh_fill (g->trak, g->map, entries, n_entries, space,
                               color_set, &out, &error);
  Py_END_ALLOW_THREADS
  if (!ok)
    {
      wk_raise (st, error);
      goto fail;
    }
  for (int k = 0; k < 8; k++)
    {
      int rc = PyDict_SetItemString (d, names[k], arr[k]);
      Py_CLEAR (arr[k]);
      if (rc < 0)
        goto fail;
    }
  return d;
fail:
  for (int k = 0; k < 8; k++)
    Py_XDECREF (arr[k]);
  Py_XDECREF (d);
  return NULL;
}

/* ---- rebuild ---- */

typedef enum { PART_TRAK, PART_MAP, PART_STPC } Part;

/* One chunk payload rebuilt from the parsed fields, without the GIL. */
static PyObject *
geom_build (EngGeomObject *g, Part part)
{
  WkModState *st = geom_state (g);
  if (st == NULL)
    return NULL;
  static const char *const names[] = { "TRAK", "MAP", "STPC" };
  if ((part == PART_TRAK && g->trak == NULL) || (part == PART_MAP && g->map == NULL)
      || (part == PART_STPC && g->stpc == NULL))
    {
      PyErr_Format (PyExc_KeyError, "this level has no %s chunk", names[part]);
      return NULL;
    }
  GError *error = NULL;
  GBytes *out;
  Py_BEGIN_ALLOW_THREADS
  out = part == PART_TRAK ? wk_eng_trak_build (g->trak, &error)
        : part == PART_MAP ? wk_eng_map_build (g->map, g->trak, &error)
        : wk_eng_stpc_build (g->stpc, &error);
  Py_END_ALLOW_THREADS
  return wk_bytes_result (st, out, error);
}

static PyObject *
geom_build_trak (EngGeomObject *g, PyObject *unused)
{
  return geom_build (g, PART_TRAK);
}

static PyObject *
geom_build_map (EngGeomObject *g, PyObject *unused)
{
  return geom_build (g, PART_MAP);
}

static PyObject *
geom_build_stpc (EngGeomObject *g, PyObject *unused)
{
  return geom_build (g, PART_STPC);
}

/* ---- write path ---- */

static int
check_len (const Buf *b, gsize want, const char *name)
{
  if (!b->has || (gsize) b->view.len == want)
    return 0;
  PyErr_Format (PyExc_ValueError, "%s has %zd bytes, expected %zu", name,
                b->view.len, (size_t) want);
  return -1;
}

static PyObject *
import_result (WkEngImport *imp, GBytes *trak, GBytes *map, GPtrArray *warnings)
{
  gsize ts, ms;
  const void *td = g_bytes_get_data (trak, &ts);
  const void *md = g_bytes_get_data (map, &ms);
  GByteArray *entries = g_byte_array_new ();
  for (guint i = 0; i < imp->new_entries->len; i++)
    {
      guint8 raw[8];
      wk_eng_tex_entry_encode (&g_array_index (imp->new_entries, WkEngTexEntry, i), raw);
      g_byte_array_append (entries, raw, 8);
    }
  PyObject *warn = PyList_New (0);
  for (guint i = 0; warn && i < warnings->len; i++)
    {
      PyObject *w = PyUnicode_FromString (g_ptr_array_index (warnings, i));
      if (w == NULL || PyList_Append (warn, w) < 0)
        Py_CLEAR (warn);
      Py_XDECREF (w);
    }
  PyObject *r = warn == NULL ? NULL : Py_BuildValue (
      "{s:y#,s:y#,s:y#,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:N}",
      "trak", td, (Py_ssize_t) ts, "map", md, (Py_ssize_t) ms,
      "new_entries", entries->data, (Py_ssize_t) entries->len,
      "report", "tiles", imp->models->len,
      "dropped_degenerate", imp->dropped_degenerate,
      "dropped_collision", imp->dropped_coll,
      "uv_inexact", imp->uv_inexact, "uv_nearest_entry", imp->uv_nearest,
      "collision_records", imp->n_coll_records, "collision_split", imp->coll_split,
      "warnings", warn);
  if (r == NULL)
    Py_XDECREF (warn);
  g_byte_array_unref (entries);
  return r;
}

static PyObject *
geom_import_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "positions", "triangles", "uv", "texture", "color",
                            "face_flags", "c_positions", "c_polygons",
                            "c_material", "texture_table", "allow_new_entries",
                            "keep_tiles", "zones_flat", NULL };
  PyObject *o[10];
  int allow_new = 1, keep_tiles = 0, zones_flat = 1;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "OOOOOOOOOO|ppp:import_mesh",
                                    kwlist, &o[0], &o[1], &o[2], &o[3], &o[4],
                                    &o[5], &o[6], &o[7], &o[8], &o[9], &allow_new,
                                    &keep_tiles, &zones_flat))
    return NULL;
  WkModState *st = geom_state (g);
  if (st == NULL)
    return NULL;
  if (g->map == NULL || g->trak == NULL)
    return no_map ();
  static const char *const names[10] = { "positions", "triangles", "uv", "texture",
                                         "color", "face_flags", "c_positions",
                                         "c_polygons", "c_material", "texture_table" };
  Buf b[10] = { 0 };
  PyObject *result = NULL;
  WkEngTexEntry *entries = NULL;
  for (int k = 0; k < 10; k++)
    if (get_buf (o[k], &b[k], k >= 4, names[k]) < 0)
      goto done;
  gsize nv = (gsize) b[0].view.len / 12, nt = (gsize) b[1].view.len / 12;
  gsize ncv = b[6].has ? (gsize) b[6].view.len / 12 : 0;
  gsize np_ = b[7].has ? (gsize) b[7].view.len / 16 : 0;
  if (check_len (&b[0], nv * 12, "positions") < 0
      || check_len (&b[1], nt * 12, "triangles") < 0
      || check_len (&b[2], nt * 24, "uv") < 0 || check_len (&b[3], nt * 4, "texture") < 0
      || check_len (&b[4], nt * 48, "color") < 0
      || check_len (&b[5], nt * 2, "face_flags") < 0
      || check_len (&b[6], ncv * 12, "c_positions") < 0
      || check_len (&b[7], np_ * 16, "c_polygons") < 0
      || check_len (&b[8], np_, "c_material") < 0)
    goto done;
  if (b[9].has && (b[9].view.len % 8 || b[9].view.len / 8 > G_MAXUINT16 + 1))
    {
      /* as world_mesh: a u16 face index reaches no further entry */
      PyErr_SetString (PyExc_ValueError,
                       "texture_table must be n×8 bytes (n ≤ 65536)");
      goto done;
    }
  guint n_entries = b[9].has ? (guint) (b[9].view.len / 8) : 0;
  entries = b[9].has ? g_new (WkEngTexEntry, n_entries + 1) : NULL;
  for (guint i = 0; i < n_entries; i++)
    wk_eng_tex_entry_decode ((const guint8 *) b[9].view.buf + 8 * i, &entries[i]);
  WkEngMeshIn in = {
    nv, b[0].view.buf, nt, b[1].view.buf, b[2].view.buf, b[3].view.buf,
    b[4].has ? b[4].view.buf : NULL, b[5].has ? b[5].view.buf : NULL,
    ncv, b[6].has ? b[6].view.buf : NULL, np_, b[7].has ? b[7].view.buf : NULL,
    b[8].has ? b[8].view.buf : NULL, entries, n_entries, allow_new,
  };
  GError *error = NULL;
  WkEngImport *imp = NULL;
  GBytes *trak = NULL, *map = NULL;
  GPtrArray *models = NULL;
  GPtrArray *warnings = g_ptr_array_new_with_free_func (g_free);
  Py_BEGIN_ALLOW_THREADS
  imp = wk_eng_import_mesh (&in, &error);
  if (imp)
    map = wk_eng_import_map (g->map, g->trak, imp, keep_tiles, zones_flat,
                             &models, warnings, &error);
  if (map)
    trak = wk_eng_trak_build (models, &error);
  Py_END_ALLOW_THREADS
  if (trak == NULL)
    wk_raise (st, error);
  else
    result = import_result (imp, trak, map, warnings);
  g_clear_pointer (&models, g_ptr_array_unref);
  g_clear_pointer (&trak, g_bytes_unref);
  g_clear_pointer (&map, g_bytes_unref);
  g_clear_pointer (&imp, wk_eng_import_free);
  g_ptr_array_unref (warnings);
done:
  for (int k = 0; k < 10; k++)
    release_buf (&b[k]);
  g_free (entries);
  return result;
}

/* ---- attributes ---- */

static PyObject *
geom_flags (EngGeomObject *g, void *closure)
{
  return PyLong_FromUnsignedLong (g->wfpc);
}

static PyObject *
geom_warnings (EngGeomObject *g, void *closure)
{
  PyObject *list = PyList_New (g->warnings->len);
  for (guint i = 0; list && i < g->warnings->len; i++)
    {
      PyObject *s = PyUnicode_FromString (g_ptr_array_index (g->warnings, i));
      if (s == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, s);
    }
  return list;
}

static PyObject *
geom_animation_layout (EngGeomObject *g, void *closure)
{
  if (g->stpc == NULL)
    Py_RETURN_NONE;
  return PyUnicode_FromString (g->stpc->layout == WK_ENG_ANIM_LAYOUT_CROC2
                                   ? "croc2" : "spec");
}

static PyGetSetDef geom_getset[] = {
  { "flags", (getter) geom_flags, NULL, "WFPC feature flags (0 without WFPC)", NULL },
  { "warnings", (getter) geom_warnings, NULL, "oddities found while parsing", NULL },
  { "animation_layout", (getter) geom_animation_layout, NULL,
    "'spec' or 'croc2': the STPC animation layout that fitted (None: no STPC)", NULL },
  { NULL },
};

static PyMethodDef geom_methods[] = {
  { "models", (PyCFunction) (void (*) (void)) geom_models, METH_VARARGS | METH_KEYWORDS,
    "models(space='file', objects=False) -> [dict]: TRAK (or STPC) models" },
  { "tiles", (PyCFunction) (void (*) (void)) geom_tiles, METH_VARARGS | METH_KEYWORDS,
    "tiles(space='file') -> dict of arrays: the MAP tile part" },
  { "zones", (PyCFunction) geom_zones, METH_NOARGS,
    "zones() -> dict: mask (32,), height (32,), grid (H, W)" },
  { "animations", (PyCFunction) geom_animations, METH_NOARGS,
    "animations() -> [dict]: STPC animation blocks" },
  { "world_mesh", (PyCFunction) (void (*) (void)) geom_world_mesh,
    METH_VARARGS | METH_KEYWORDS,
    "world_mesh(space='file', texture_table=None, color_set=0) -> dict" },
  { "import_mesh", (PyCFunction) (void (*) (void)) geom_import_mesh,
    METH_VARARGS | METH_KEYWORDS,
    "import_mesh(positions, triangles, uv, texture, color, face_flags, "
    "c_positions, c_polygons, c_material, texture_table, allow_new_entries=True, "
    "keep_tiles=False, zones_flat=True) -> dict: new TRAK and MAP payloads, "
    "texture entries to append, report" },
  { "build_trak", (PyCFunction) geom_build_trak, METH_NOARGS, "TRAK payload from the models" },
  { "build_map", (PyCFunction) geom_build_map, METH_NOARGS, "MAP payload from the tiles" },
  { "build_stpc", (PyCFunction) geom_build_stpc, METH_NOARGS, "STPC payload" },
  { NULL },
};

static PyType_Slot geom_slots[] = {
  { Py_tp_new, geom_new },
  { Py_tp_dealloc, geom_dealloc },
  { Py_tp_getset, geom_getset },
  { Py_tp_methods, geom_methods },
  { Py_tp_doc, "EngGeometry(wfpc, trak, trak_base, map, map_base, stpc, "
               "stpc_base, wfpc_base=0): the geometry chunks of an ENG level (each a "
               "bytes-like payload or None; *_base = its absolute file offset)." },
  { 0, NULL },
};

static PyType_Spec geom_spec = {
  .name = "wadkit._core.EngGeometry",
  .basicsize = sizeof (EngGeomObject),
  .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
  .slots = geom_slots,
};

int
wk_eng_geom_register (PyObject *module, WkModState *st)
{
  st->EngGeomType = PyType_FromModuleAndSpec (module, &geom_spec, NULL);
  if (st->EngGeomType == NULL)
    return -1;
  return PyModule_AddObjectRef (module, "EngGeometry", st->EngGeomType);
}
