/* The EngGeometry object, shared by the files of its binding (one file
 * per group of methods the Python user sees):
 *   eng_geom.c         the type: parse, attributes, rebuild (build_*)
 *   eng_geom_models.c  models(), animations()
 *   eng_geom_map.c     tiles(), zones()
 *   eng_geom_mesh.c    world_mesh()
 *   eng_geom_import.c  import_mesh() (the write path) */
#pragma once
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

static inline int
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

static inline void
release_buf (Buf *b)
{
  if (b->has)
    PyBuffer_Release (&b->view);
  b->has = FALSE;
}

/* ---- helpers ---- */

static inline PyObject *
new_array (int nd, npy_intp d0, npy_intp d1, npy_intp d2, npy_intp d3, int type)
{
  npy_intp dims[4] = { d0, d1, d2, d3 };
  return PyArray_SimpleNew (nd, dims, type);
}

static inline PyObject *
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

static inline int
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

static inline WkModState *
geom_state (EngGeomObject *g)
{
  return wk_state_from_type (Py_TYPE (g));
}

static inline PyObject *
no_map (void)
{
  PyErr_SetString (PyExc_KeyError, "this level has no MAP chunk");
  return NULL;
}

/* Methods, one group per file (see the top of this header). */
PyObject *geom_models (EngGeomObject *g, PyObject *args, PyObject *kwds);
PyObject *geom_animations (EngGeomObject *g, PyObject *unused);
PyObject *geom_tiles (EngGeomObject *g, PyObject *args, PyObject *kwds);
PyObject *geom_zones (EngGeomObject *g, PyObject *unused);
PyObject *geom_world_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds);
PyObject *geom_import_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds);
