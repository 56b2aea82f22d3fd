/* wadkit._core.EngGeometry: import_mesh(), the ENG write path. */
#include "eng_geom.h"

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

PyObject *
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
