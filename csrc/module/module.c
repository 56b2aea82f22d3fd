/* wadkit._core: multi-phase init, module state, exceptions. */
#include "module.h"

#define WK_NUMPY_IMPORT
#include "wk_numpy.h"

WkModState *
wk_state_from_module (PyObject *module)
{
  return (WkModState *) PyModule_GetState (module);
}

WkModState *
wk_state_from_type (PyTypeObject *type)
{
  PyObject *mod = PyType_GetModuleByDef (type, &wk_module_def);
  return mod ? wk_state_from_module (mod) : NULL;
}

static int
add_exception (PyObject *module, PyObject **slot, const char *name,
               PyObject *bases, const char *doc, gboolean fields_too)
{
  /* class defaults, so an error raised from Python has every field too */
  PyObject *fields = !fields_too ? NULL : Py_BuildValue (
      "{s:O,s:s,s:O,s:O,s:O,s:O}", "offset", Py_None, "context", "",
      "tile", Py_None, "model", Py_None, "vertex", Py_None, "object", Py_None);
  if (fields_too && fields == NULL)
    return -1;
  *slot = PyErr_NewExceptionWithDoc (name, doc, bases, fields);
  Py_XDECREF (fields);
  if (*slot == NULL)
    return -1;
  return PyModule_AddObjectRef (module, strrchr (name, '.') + 1, *slot);
}

/* MissingChunkError(FormatError, KeyError): caught as either; str() is the
 * message (KeyError's own str would quote it). */
static int
add_missing_chunk (PyObject *module, WkModState *st)
{
  PyObject *bases = PyTuple_Pack (2, st->FormatError, PyExc_KeyError);
  PyObject *str = PyObject_GetAttrString (PyExc_BaseException, "__str__");
  PyObject *dict = bases && str ? Py_BuildValue ("{s:O}", "__str__", str) : NULL;
  st->MissingChunkError = dict ? PyErr_NewExceptionWithDoc (
      "wadkit.MissingChunkError",
      "The level has no chunk of the kind asked for (a FormatError and a "
      "KeyError). .chunk names it; .offset is None, .context the container.",
      bases, dict) : NULL;
  Py_XDECREF (bases);
  Py_XDECREF (str);
  Py_XDECREF (dict);
  if (st->MissingChunkError == NULL)
    return -1;
  return PyModule_AddObjectRef (module, "MissingChunkError", st->MissingChunkError);
}

static int
wk_exec (PyObject *module)
{
  WkModState *st = wk_state_from_module (module);
  if (PyArray_ImportNumPyAPI () < 0)
    return -1;
  if (add_exception (module, &st->WadError, "wadkit.WadError", NULL,
                     "Base class of every wadkit error.", FALSE) < 0)
    return -1;
  PyObject *bases = PyTuple_Pack (2, st->WadError, PyExc_ValueError);
  if (bases == NULL)
    return -1;
  int rc = add_exception (module, &st->FormatError, "wadkit.FormatError", bases,
                          "The input breaks its format. .offset is the byte "
                          "offset (or None), .context where it was found; "
                          ".tile, .model, .vertex (int or None) and .object "
                          "(the name the caller gave, or None) where known.", TRUE);
  if (rc == 0)
    rc = add_exception (module, &st->LimitError, "wadkit.LimitError", bases,
                        "A write the game could not load; nothing was written. "
                        "Fields as FormatError (.offset, .context, .tile, "
                        ".model, .vertex, .object).", TRUE);
  Py_DECREF (bases);
  if (rc < 0 || add_missing_chunk (module, st) < 0)
    return -1;
  if (add_exception (module, &st->WadWarning, "wadkit.WadWarning",
                     PyExc_UserWarning,
                     "A tolerated oddity in a file (kept as it is).", FALSE) < 0)
    return -1;
  PyObject *glib = Py_BuildValue ("(III)", glib_major_version,
                                  glib_minor_version, glib_micro_version);
  rc = glib ? PyModule_AddObjectRef (module, "glib_version", glib) : -1;
  Py_XDECREF (glib);
  if (rc < 0)
    return -1;
  if (wk_eng_wad_register (module, st) < 0)
    return -1;
  if (wk_eng_geom_register (module, st) < 0)
    return -1;
  if (wk_eng_edit_register (module, st) < 0)
    return -1;
  if (wk_eng_text_register (module, st) < 0)
    return -1;
  if (wk_eng_floor_register (module, st) < 0)
    return -1;
  if (wk_eng_color_register (module, st) < 0)
    return -1;
  if (wk_eng_anim_register (module, st) < 0)
    return -1;
  if (wk_lz_register (module, st) < 0)
    return -1;
  if (wk_rc2_register (module, st) < 0)
    return -1;
  if (wk_eng_new_register (module, st) < 0)
    return -1;
  if (wk_rc2_build_register (module, st) < 0)
    return -1;
  if (wk_rc2_collision_register (module, st) < 0)
    return -1;
  if (wk_rc2_save_register (module, st) < 0)
    return -1;
  if (wk_rc2_sky_register (module, st) < 0)
    return -1;
  if (wk_rc2_gameplay_register (module, st) < 0)
    return -1;
  if (wk_rc2_class_write_register (module, st) < 0)
    return -1;
  if (wk_rc2_class_mesh_register (module, st) < 0)
    return -1;
  if (wk_warn_register (module, st) < 0 || wk_detect_register (module, st) < 0)
    return -1;
  return wk_rc2_tfrag_register (module, st);
}

static int
wk_traverse (PyObject *module, visitproc visit, void *arg)
{
  WkModState *st = wk_state_from_module (module);
  Py_VISIT (st->WadError);
  Py_VISIT (st->FormatError);
  Py_VISIT (st->LimitError);
  Py_VISIT (st->MissingChunkError);
  Py_VISIT (st->WadWarning);
  Py_VISIT (st->EngWadType);
  Py_VISIT (st->EngGeomType);
  Py_VISIT (st->EngTextType);
  Py_VISIT (st->EngFloorWorldType);
  Py_VISIT (st->Rc2LevelType);
  Py_VISIT (st->package_dir);
  return 0;
}

static int
wk_clear (PyObject *module)
{
  WkModState *st = wk_state_from_module (module);
  Py_CLEAR (st->WadError);
  Py_CLEAR (st->FormatError);
  Py_CLEAR (st->LimitError);
  Py_CLEAR (st->MissingChunkError);
  Py_CLEAR (st->WadWarning);
  Py_CLEAR (st->EngWadType);
  Py_CLEAR (st->EngGeomType);
  Py_CLEAR (st->EngTextType);
  Py_CLEAR (st->EngFloorWorldType);
  Py_CLEAR (st->Rc2LevelType);
  Py_CLEAR (st->package_dir);
  return 0;
}

static void
wk_free (void *module)
{
  wk_clear ((PyObject *) module);
}

static PyModuleDef_Slot wk_slots[] = {
  { Py_mod_exec, wk_exec },
#ifdef Py_mod_multiple_interpreters
  { Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED },
#endif
  { 0, NULL },
};

PyModuleDef wk_module_def = {
  PyModuleDef_HEAD_INIT,
  .m_name = "wadkit._core",
  .m_doc = "wadkit's C core: parsers and writers for ENG and RC2 level files.",
  .m_size = sizeof (WkModState),
  .m_slots = wk_slots,
  .m_traverse = wk_traverse,
  .m_clear = wk_clear,
  .m_free = wk_free,
};

PyMODINIT_FUNC
PyInit__core (void)
{
  return PyModuleDef_Init (&wk_module_def);
}
