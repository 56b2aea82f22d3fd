/* File input (memory-mapped, no copy) and atomic output. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

/* Map a file read-only; the returned GBytes keeps the mapping alive. */
GBytes *wk_file_map (const char *path, GError **error);

/* Write data to path atomically. On Linux: an unnamed O_TMPFILE in the
 * target's folder, fsync, linked in under a temporary name, renamed over
 * the target, folder fsynced; where O_TMPFILE is unsupported or cannot be
 * linked in, GLib's temp file + fsync + rename.
 * A read-only target (no write bit, or not writable by us) and a folder are
 * refused. On any failure, or if the process is killed, the old file at path
 * is untouched and no temp file is left behind (fallback path: a kill can
 * leave GLib's temp file). An existing target's permissions are kept. */
gboolean wk_file_save_atomic (const char *path, const guint8 *data, gsize size,
                              GError **error);

G_END_DECLS
