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
  PyObject *MissingChunkError; /* (FormatError, KeyError): a chunk a reader needs */
  PyObject *WadWarning;  /* (UserWarning): tolerated oddities in a file */
  PyObject *EngWadType;
  PyObject *EngGeomType;
  PyObject *EngTextType;
  PyObject *EngFloorWorldType;
  PyObject *Rc2LevelType;
  PyObject *package_dir; /* str: wadkit's folder + separator, or NULL */
} WkModState;

extern PyModuleDef wk_module_def;

WkModState *wk_state_from_module (PyObject *module);

/* The parsed level an Rc2Level holds (it stays alive with o), or NULL when
 * o is no Rc2Level. */
void *wk_rc2_level_held (WkModState *st, PyObject *o);
WkModState *wk_state_from_type (PyTypeObject *type);

/* THE one place a GError becomes a Python exception. Frees the error,
 * returns NULL so callers can `return wk_raise (st, err);`. */
PyObject *wk_raise (WkModState *st, GError *error);

/* wk_raise for an error about the file at path (the caller's str or
 * PathLike): a file error becomes the OSError subclass of its errno with
 * .errno, .strerror and .filename set; other errors as wk_raise. */
PyObject *wk_raise_path (WkModState *st, GError *error, PyObject *path);

/* MissingChunkError "this level has no <chunk> chunk" (.chunk, .offset
 * None, .context = container); returns NULL. */
PyObject *wk_raise_missing (WkModState *st, const char *chunk,
                            const char *container);

/* A WadWarning at the first caller outside the wadkit package (warn.c);
 * -1 if a filter raised. wk_warn_all: one per string of warnings. */
int wk_warn_user (WkModState *st, const char *message);
int wk_warn_all (WkModState *st, GPtrArray *warnings);

/* Convert a str / os.PathLike argument to a filesystem path (new bytes ref). */
int wk_fs_path (PyObject *obj, PyObject **out);

/* Input bytes of a parser: a str/PathLike is memory-mapped (without the
 * GIL), a bytes object shared, anything else with the buffer protocol
 * copied (wk_shared_bytes). NULL with a Python exception set (a file that
 * cannot be mapped: wk_raise_path). */
GBytes *wk_source_bytes (PyObject *source);

/* Decode a WAD-LZ stream into a new bytes object (lz.c). expected >= 0:
 * the size the container declares; base: the stream's file offset. */
PyObject *wk_lz_decompress_py (WkModState *st, const guint8 *src, gsize size,
                               gint64 base, Py_ssize_t max_size,
                               Py_ssize_t expected, const char *context);

/* Per-area registration, called from the exec slot. */
int wk_eng_wad_register (PyObject *module, WkModState *st);
int wk_eng_geom_register (PyObject *module, WkModState *st);
int wk_eng_edit_register (PyObject *module, WkModState *st);
int wk_eng_text_register (PyObject *module, WkModState *st);
int wk_eng_floor_register (PyObject *module, WkModState *st);
int wk_eng_color_register (PyObject *module, WkModState *st);
int wk_eng_anim_register (PyObject *module, WkModState *st);
int wk_lz_register (PyObject *module, WkModState *st);
int wk_rc2_register (PyObject *module, WkModState *st);
int wk_rc2_tfrag_register (PyObject *module, WkModState *st);
int wk_eng_new_register (PyObject *module, WkModState *st);
int wk_rc2_build_register (PyObject *module, WkModState *st);
int wk_warn_register (PyObject *module, WkModState *st);
int wk_detect_register (PyObject *module, WkModState *st);
int wk_rc2_collision_register (PyObject *module, WkModState *st);
int wk_rc2_sky_register (PyObject *module, WkModState *st);
int wk_rc2_gameplay_register (PyObject *module, WkModState *st);
int wk_rc2_class_mesh_register (PyObject *module, WkModState *st);
int wk_rc2_save_register (PyObject *module, WkModState *st);
int wk_rc2_class_write_register (PyObject *module, WkModState *st);

/* dict[key] = value, stealing value; -1 on failure (value may be NULL, as
 * when the call that made it failed). */
int wk_dict_put (PyObject *dict, const char *key, PyObject *value);

/* A list of n items, item i made by item(data, i); NULL (with the
 * exception) when one cannot be made. wk_str_list: the strings as str. */
typedef PyObject *(*WkItemFunc) (gconstpointer data, guint i);
PyObject *wk_list_of (guint n, WkItemFunc item, gconstpointer data);
PyObject *wk_str_list (const GPtrArray *strings);

/* A core result as bytes: out copied into a new bytes object and released;
 * out == NULL raises error via wk_raise. */
PyObject *wk_bytes_result (WkModState *st, GBytes *out, GError *error);

/* bf_getbuffer of an object whose contents are the read-only bytes. */
int wk_bytes_getbuffer (PyObject *owner, GBytes *bytes, Py_buffer *view, int flags);

/* A buffer-protocol object as GBytes: shared (no copy, the buffer held
 * until the GBytes is freed) when it cannot change — bytes, an EngWad
 * (st given), or a memoryview of one — else copied. NULL with a Python
 * error set. */
GBytes *wk_shared_bytes (WkModState *st, PyObject *obj);
