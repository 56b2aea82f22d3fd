/* wadkit._core.detect: which format a file is, from its first bytes (the
 * signatures live with each format's parser). */
#include "module.h"

#include "../core/eng/eng_wad.h"
#include "../core/rc2/rc2_level.h"

G_STATIC_ASSERT (WK_RC2_SNIFF_SIZE >= WK_ENG_SNIFF_SIZE);

static PyObject *
detect (PyObject *module, PyObject *arg)
{
  Py_buffer head;
  if (PyObject_GetBuffer (arg, &head, PyBUF_SIMPLE) < 0)
    return NULL;
  const char *kind = wk_eng_wad_sniff (head.buf, (gsize) head.len) ? "eng"
                     : wk_rc2_level_sniff (head.buf, (gsize) head.len) ? "rc2"
                     : NULL;
  PyBuffer_Release (&head);
  if (kind == NULL)
    Py_RETURN_NONE;
  return PyUnicode_FromString (kind);
}

static PyMethodDef detect_methods[] = {
  { "detect", detect, METH_O,
    "detect(head, /) -> 'eng', 'rc2' or None: the format of a file from its "
    "first detect_size bytes" },
  { NULL },
};

int
wk_detect_register (PyObject *module, WkModState *st)
{
  if (PyModule_AddIntConstant (module, "detect_size", WK_RC2_SNIFF_SIZE) < 0)
    return -1;
  return PyModule_AddFunctions (module, detect_methods);
}
