/* Input buffers handed to the core as GBytes without copying them when
 * the object behind them cannot change (a bytes object, an EngWad, or a
 * memoryview of either); any other buffer is copied. */
#include "module.h"

typedef struct {
  Py_buffer view;
} Borrowed;

/* GDestroyNotify: may run wherever the last reference goes, so it takes
 * the GIL itself. */
static void
release_borrowed (gpointer data)
{
  Borrowed *b = data;
  PyGILState_STATE gil = PyGILState_Ensure ();
  PyBuffer_Release (&b->view);
  PyGILState_Release (gil);
  g_free (b);
}

static gboolean
immutable (WkModState *st, PyObject *obj)
{
  if (obj != NULL && PyMemoryView_Check (obj))
    obj = PyMemoryView_GET_BASE (obj);
  return obj != NULL
         && (PyBytes_CheckExact (obj)
             || (st != NULL
                 && Py_IS_TYPE (obj, (PyTypeObject *) st->EngWadType)));
}

GBytes *
wk_shared_bytes (WkModState *st, PyObject *obj)
{
  Borrowed *b = g_new0 (Borrowed, 1);
  if (PyObject_GetBuffer (obj, &b->view, PyBUF_SIMPLE) < 0)
    {
      g_free (b);
      return NULL;
    }
  if (immutable (st, obj))
    return g_bytes_new_with_free_func (b->view.buf, (gsize) b->view.len,
                                       release_borrowed, b);
  GBytes *copy = g_bytes_new (b->view.buf, (gsize) b->view.len);
  PyBuffer_Release (&b->view);
  g_free (b);
  return copy;
}
