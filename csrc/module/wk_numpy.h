/* Include NumPy's C API the same way in every binding file: one API table
 * (imported in module.c's exec slot), no deprecated API. */
#pragma once
#define NPY_NO_DEPRECATED_API NPY_1_23_API_VERSION
#define NPY_TARGET_VERSION NPY_1_23_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL wadkit_ARRAY_API
#ifndef WK_NUMPY_IMPORT
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>
