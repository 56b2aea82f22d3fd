/* The `space` argument of the ENG bindings, parsed one way. */
#pragma once
#include "module.h"

#include "../core/eng/eng_space.h"

/* name (NULL: the default "file") -> space; -1 with ValueError. */
static inline int
wk_space_arg (const char *name, WkEngSpace *space)
{
  if (wk_eng_space_parse (name ? name : "file", space))
    return 0;
  PyErr_Format (PyExc_ValueError, "space must be 'file' (= game) or 'export', "
                "not '%s'", name);
  return -1;
}
