/* wadkit._core.EngGeometry: TRAK, STPC models/animations and the MAP tile
 * part of an ENG level, parsed once, read out as NumPy arrays, rebuilt.
 * This file: the type, its parse, attributes and build_*; the readers and
 * the write path are in eng_geom_*.c (eng_geom.h lists them). */
#include "eng_geom.h"

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

int
geom_texture_table (PyObject *table, WkEngTexEntry **entries, guint *n_entries)
{
  *entries = NULL;
  *n_entries = 0;
  if (table == Py_None)
    return 0;
  Py_buffer view;
  if (PyObject_GetBuffer (table, &view, PyBUF_SIMPLE) < 0)
    return -1;
  /* a u16 face index reaches no further entry */
  if (view.len % WK_ENG_TEX_ENTRY_SIZE != 0
      || view.len / WK_ENG_TEX_ENTRY_SIZE > WK_ENG_TEX_MAX_ENTRIES)
    {
      PyBuffer_Release (&view);
      g_autofree gchar *msg = g_strdup_printf (
          "texture_table: %zd bytes, not n × %d (n ≤ 65536)", view.len,
          WK_ENG_TEX_ENTRY_SIZE);
      PyErr_SetString (PyExc_ValueError, msg);
      return -1;
    }
  *n_entries = (guint) (view.len / WK_ENG_TEX_ENTRY_SIZE);
  *entries = g_new (WkEngTexEntry, *n_entries + 1);
  for (guint i = 0; i < *n_entries; i++)
    wk_eng_tex_entry_decode ((const guint8 *) view.buf + WK_ENG_TEX_ENTRY_SIZE * i,
                             &(*entries)[i]);
  PyBuffer_Release (&view);
  return 0;
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
    return no_chunk (g, names[part]);
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

/* ---- attributes ---- */

static PyObject *
geom_flags (EngGeomObject *g, void *closure)
{
  return PyLong_FromUnsignedLong (g->wfpc);
}

static PyObject *
geom_warnings (EngGeomObject *g, void *closure)
{
  return wk_str_list (g->warnings);
}

static PyObject *
geom_animation_layout (EngGeomObject *g, void *closure)
{
  if (g->stpc == NULL)
    Py_RETURN_NONE;
  return PyUnicode_FromString (g->stpc->layout == WK_ENG_ANIM_LAYOUT_CROC2
                                   ? "croc2" : "spec");
}

static PyObject *
geom_counts (EngGeomObject *g, void *closure)
{
  return Py_BuildValue ("(II)", g->trak ? g->trak->len : 0u, g->map ? g->map->n : 0u);
}

static PyGetSetDef geom_getset[] = {
  { "flags", (getter) geom_flags, NULL, "WFPC feature flags (0 without WFPC)", NULL },
  { "counts", (getter) geom_counts, NULL,
    "(TRAK models, MAP tiles) as parsed (0 for an absent chunk)", NULL },
  { "warnings", (getter) geom_warnings, NULL, "oddities found while parsing", NULL },
  { "animation_layout", (getter) geom_animation_layout, NULL,
    "'spec' or 'croc2': the STPC animation layout that fitted (None: no STPC)", NULL },
  { NULL },
};

static PyMethodDef geom_methods[] = {
  { "models", (PyCFunction) (void (*) (void)) geom_models, METH_VARARGS | METH_KEYWORDS,
    "models(space='file', objects=False) -> [dict]: TRAK (or STPC) models" },
  { "model_counts", (PyCFunction) geom_model_counts, METH_NOARGS,
    "model_counts() -> dict: vertices, faces, collision (records) per TRAK model, uint32" },
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
