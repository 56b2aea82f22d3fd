/* wadkit._core.lz_*: WAD-LZ decompression, compression and validation. */
#include "module.h"

#include "../core/common/wk_error.h"
#include "../core/lz/wk_lz.h"
#include "../core/lz/wk_lz_enc.h"

/* Decodes straight into a bytes object, grown (up to max_size) as needed;
 * expected >= 0 sizes it once and demands exactly that many bytes. (One
 * walk over the packet headers to find the size first costs as much as
 * decoding: both are bound by the chain of packet lengths.) The
 * stream lies at absolute offset base (for errors); context prefixes them. */
PyObject *
wk_lz_decompress_py (WkModState *st, const guint8 *src, gsize size, gint64 base,
                     Py_ssize_t max_size, Py_ssize_t expected,
                     const char *context)
{
  GError *error = NULL;
  PyObject *out = NULL;
  WkLzDecoder d;
  if (max_size < 0)
    {
      PyErr_SetString (PyExc_ValueError, "max_size must be >= 0");
      return NULL;
    }
  if (!wk_lz_decoder_init (&d, src, size, base, &error))
    goto fail;
  if (expected > max_size)
    {
      wk_set_error (&error, WK_ERROR_FORMAT, base, "WAD-LZ stream declared to "
                    "hold %zd bytes, more than the limit of %zd", expected,
                    max_size);
      goto fail;
    }
  Py_ssize_t declared = d.end - d.stream;
  if (expected >= 0 && (guint64) expected > wk_lz_max_output ((gsize) declared))
    {
      wk_set_error (&error, WK_ERROR_FORMAT, base, "WAD-LZ stream of %zd bytes "
                    "declared to hold %zd bytes, more than it can decode to",
                    declared, expected);
      goto fail;
    }
  /* Unknown size: level data decode to 2.5-3x their stream; grown by a
   * quarter at a time (so that the slack left at the end stays small). */
  Py_ssize_t cap = expected >= 0 ? expected
                                 : MIN (max_size, MAX (declared * 3, 1 << 16));
  out = PyBytes_FromStringAndSize (NULL, cap);
  for (;;)
    {
      if (out == NULL)
        return NULL;
      WkLzStatus status;
      guint8 *buf = (guint8 *) PyBytes_AS_STRING (out);
      Py_BEGIN_ALLOW_THREADS
      status = wk_lz_decoder_run (&d, buf, (gsize) cap, &error);
      Py_END_ALLOW_THREADS
      if (status == WK_LZ_DONE)
        break;
      if (status == WK_LZ_ERROR)
        goto fail;
      if (expected >= 0 || cap >= max_size)
        {
          wk_set_error (&error, WK_ERROR_FORMAT, d.base + (d.ip - d.stream),
                        "WAD-LZ stream decodes to more than %s %zd bytes",
                        expected >= 0 ? "the declared" : "the limit of", cap);
          goto fail;
        }
      cap = cap > max_size / 5 * 4 ? max_size : cap + cap / 4;
      if (_PyBytes_Resize (&out, cap) < 0)
        return NULL;
    }
  if (expected >= 0 && (gsize) expected != d.produced)
    {
      wk_set_error (&error, WK_ERROR_FORMAT, base, "WAD-LZ stream decodes to "
                    "%zu bytes, %zd declared", d.produced, expected);
      goto fail;
    }
  /* Trim to the decoded size. A slack of up to a quarter stays allocated
   * (the object is new and unshared, so its size may still drop): glibc
   * serves a block larger than the last one freed from fresh mmapped pages
   * and would give the trimmed one back, so a trim here made every call in
   * a loop fault in all its output pages, twice the time of a call that
   * knew the size (docs/performance.md). */
  Py_ssize_t n = (Py_ssize_t) d.produced;
  if (cap - n > n / 4)
    {
      if (_PyBytes_Resize (&out, n) < 0)
        return NULL;
    }
  else if (n != cap)
    {
      Py_SET_SIZE (out, n);
      PyBytes_AS_STRING (out)[n] = 0;
    }
  return out;
fail:
  Py_XDECREF (out);
  if (context)
    wk_error_prefix (&error, "%s", context);
  return wk_raise (st, error);
}

static PyObject *
lz_decompress (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "data", "max_size", "expected", NULL };
  Py_buffer in;
  Py_ssize_t max_size = (Py_ssize_t) 1 << 28, expected = -1;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|nn:lz_decompress", kwlist,
                                    &in, &max_size, &expected))
    return NULL;
  PyObject *out = wk_lz_decompress_py (wk_state_from_module (module), in.buf,
                                       (gsize) in.len, 0, max_size, expected,
                                       "WAD-LZ stream"); /* .context never empty */
  PyBuffer_Release (&in);
  return out;
}

static const char *const lz_levels[WK_LZ_N_MODES] = {
  [WK_LZ_GREEDY] = "greedy", [WK_LZ_LAZY] = "lazy", [WK_LZ_BEST] = "best",
  [WK_LZ_DEFAULT] = "default", [WK_LZ_MAX] = "max", [WK_LZ_FAST] = "fast",
};

static PyObject *
lz_compress (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "data", "level", "threads", "block_size", NULL };
  Py_buffer in;
  const char *level = "default";
  int threads = 1;
  Py_ssize_t block = 0;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|$sin:lz_compress", kwlist,
                                    &in, &level, &threads, &block))
    return NULL;
  int mode = -1;
  for (int m = 0; m < WK_LZ_N_MODES; m++)
    if (strcmp (level, lz_levels[m]) == 0)
      mode = m;
  const char *bad = mode < 0 ? "level is 'default', 'fast', 'max', or one of "
                               "the first encoder's 'best', 'lazy', 'greedy'"
                    : threads < 0 ? "threads must be >= 0 (0: one per processor)"
                    : block < 0 || (block > 0 && block < (Py_ssize_t) WK_LZ_WIN)
                        ? "block_size must be 0 (the level's default) or >= 32768"
                        : NULL;
  if (bad)
    {
      PyBuffer_Release (&in);
      PyErr_SetString (PyExc_ValueError, bad);
      return NULL;
    }
  GError *error = NULL;
  GBytes *res;
  Py_BEGIN_ALLOW_THREADS
  res = wk_lz_compress_full (in.buf, (gsize) in.len, (WkLzMode) mode,
                             (guint) threads, (gsize) block, &error);
  Py_END_ALLOW_THREADS
  PyBuffer_Release (&in);
  return wk_bytes_result (wk_state_from_module (module), res, error);
}

static PyObject *
lz_validate (PyObject *module, PyObject *args, PyObject *kwds)
{
  static char *kwlist[] = { "data", "limit", NULL };
  Py_buffer in;
  unsigned int limit = 1000;
  if (!PyArg_ParseTupleAndKeywords (args, kwds, "y*|I:lz_validate", kwlist, &in,
                                    &limit))
    return NULL;
  GPtrArray *v;
  Py_BEGIN_ALLOW_THREADS
  v = wk_lz_validate (in.buf, (gsize) in.len, limit);
  Py_END_ALLOW_THREADS
  PyBuffer_Release (&in);
  PyObject *list = PyList_New (v->len);
  for (guint i = 0; list && i < v->len; i++)
    {
      PyObject *s = PyUnicode_FromString (g_ptr_array_index (v, i));
      if (s == NULL)
        Py_CLEAR (list);
      else
        PyList_SET_ITEM (list, i, s);
    }
  g_ptr_array_unref (v);
  return list;
}

static PyMethodDef lz_methods[] = {
  { "lz_decompress", (PyCFunction) (void (*) (void)) lz_decompress,
    METH_VARARGS | METH_KEYWORDS,
    "lz_decompress(data, max_size=1<<28, expected=-1) -> bytes" },
  { "lz_compress", (PyCFunction) (void (*) (void)) lz_compress,
    METH_VARARGS | METH_KEYWORDS,
    "lz_compress(data, *, level='default', threads=1, block_size=0) -> bytes: "
    "a game-safe WAD-LZ stream (docs/formats/rc2-wadlz.md)" },
  { "lz_validate", (PyCFunction) (void (*) (void)) lz_validate,
    METH_VARARGS | METH_KEYWORDS,
    "lz_validate(data, limit=1000) -> [str]: rule violations, [] if clean" },
  { NULL },
};

int
wk_lz_register (PyObject *module, WkModState *st)
{
  return PyModule_AddFunctions (module, lz_methods);
}
