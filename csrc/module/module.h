/* Shared declarations of the wadkit._core binding. Only binding files include
 * Python.h; the core (csrc/core) never does. */
#pragma once
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <glib.h>

typedef struct {
  PyObject *WadError;    /* base of all wadkit errors */
  PyObject *FormatError; /* (WadError, ValueError): bad input, .offset/.context */
  PyObject *LimitError;  /* (WadError, ValueError): a write the game can't load */
  PyObject *WadWarning;  /* (UserWarning): tolerated oddities in a file */
  PyObject *EngWadType;
  PyObject *EngGeomType;
  PyObject *EngTextType;
  PyObject *EngFloorWorldType;
  PyObject *Rc2LevelType;
} WkModState;

extern PyModuleDef wk_module_def;

WkModState *wk_state_from_module (PyObject *module);
WkModState *wk_state_from_type (PyTypeObject *type);

/* THE one place a GError becomes a Python exception. Frees the error,
 * returns NULL so callers can `return wk_raise (st, err);`. */
PyObject *wk_raise (WkModState *st, GError *error);

/* Issue each string of warnings as a WadWarning; -1 if a filter raised. */
int wk_warn_all (WkModState *st, GPtrArray *warnings);

/* Convert a str / os.PathLike argument to a filesystem path (new bytes ref). */
int wk_fs_path (PyObject *obj, PyObject **out);

/* Input bytes of a parser: a str/PathLike is memory-mapped (without the
 * GIL), anything with the buffer protocol is copied. NULL with a Python
 * exception set, or with *error set (map failure). */
GBytes *wk_source_bytes (PyObject *source, GError **error);

/* Decode a WAD-LZ stream into a new bytes object (lz.c). expected >= 0:
 * the size the container declares; base: the stream's file offset. */
PyObject *wk_lz_decompress_py (WkModState *st, const guint8 *src, gsize size,
                               gint64 base, Py_ssize_t max_size,
                               Py_ssize_t expected, const char *context);

/* Per-area registration, called from the exec slot. */
int wk_eng_wad_register (PyObject *module, WkModState *st);
int wk_eng_geom_register (PyObject *module, WkModState *st);
int wk_eng_text_register (PyObject *module, WkModState *st);
int wk_eng_floor_register (PyObject *module, WkModState *st);
int wk_lz_register (PyObject *module, WkModState *st);
int wk_rc2_register (PyObject *module, WkModState *st);
int wk_rc2_tfrag_register (PyObject *module, WkModState *st);
