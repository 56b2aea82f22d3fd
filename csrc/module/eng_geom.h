/* The EngGeometry object, shared by the files of its binding (one file
 * per group of methods the Python user sees):
 *   eng_geom.c         the type: parse, attributes, rebuild (build_*)
 *   eng_geom_models.c  models(), model_counts(), animations()
 *   eng_geom_map.c     tiles(), zones()
 *   eng_geom_mesh.c    world_mesh()
 *   eng_geom_import.c  import_mesh() (the write path) */
#pragma once
#include "module.h"
#include "eng_space_arg.h"
#include "wk_array.h"

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

static inline WkModState *
geom_state (EngGeomObject *g)
{
  return wk_state_from_type (Py_TYPE (g));
}

static inline PyObject *
no_chunk (EngGeomObject *g, const char *chunk)
{
  WkModState *st = geom_state (g);
  return st ? wk_raise_missing (st, chunk, "ENG WAD") : NULL;
}

/* texture_table (None, or a buffer of n raw 8-byte entries) decoded into a
 * new array (g_free; NULL for None). -1 with ValueError for a bad size. */
int geom_texture_table (PyObject *table, WkEngTexEntry **entries,
                        guint *n_entries);

/* The arrays of a mesh for the write path, in this order (import_mesh,
 * EngEdit.add_mesh): positions (V,3) f32, triangles (T,3) u32, uv (T,3,2)
 * f32, texture (T,) i32, then the optional color (T,3,4) f32, face_flags
 * (T,) u16, c_positions (CV,3) f32, c_polygons (P,4) i32, c_material (P,)
 * u8 (None each). Taken by wk_array_arg into a[] (wk_array_release them)
 * and set in *in (its mesh fields; the rest is the caller's). */
enum { GEOM_MESH_ARRAYS = 9 };
int geom_mesh_args (PyObject *const o[GEOM_MESH_ARRAYS],
                    PyArrayObject *a[GEOM_MESH_ARRAYS], WkEngMeshIn *in);

/* Methods, one group per file (see the top of this header). */
PyObject *geom_models (EngGeomObject *g, PyObject *args, PyObject *kwds);
PyObject *geom_animations (EngGeomObject *g, PyObject *unused);
PyObject *geom_model_counts (EngGeomObject *g, PyObject *unused);
PyObject *geom_tiles (EngGeomObject *g, PyObject *args, PyObject *kwds);
PyObject *geom_zones (EngGeomObject *g, PyObject *unused);
PyObject *geom_world_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds);
PyObject *geom_import_mesh (EngGeomObject *g, PyObject *args, PyObject *kwds);
