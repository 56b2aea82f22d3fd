/* File input (memory-mapped, no copy) and atomic output. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

/* Map a file read-only; the returned GBytes keeps the mapping alive. */
GBytes *wk_file_map (const char *path, GError **error);

/* Write data to path atomically: temp file in the same folder, fsync,
 * rename. On any failure the old file at path is untouched and no temp
 * file is left behind. */
gboolean wk_file_save_atomic (const char *path, const guint8 *data, gsize size,
                              GError **error);

G_END_DECLS
