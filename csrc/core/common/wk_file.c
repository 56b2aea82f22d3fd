#include "wk_file.h"

GBytes *
wk_file_map (const char *path, GError **error)
{
  GMappedFile *mf = g_mapped_file_new (path, FALSE, error);
  if (mf == NULL)
    return NULL;
  GBytes *bytes = g_mapped_file_get_bytes (mf);
  g_mapped_file_unref (mf);
  return bytes;
}

gboolean
wk_file_save_atomic (const char *path, const guint8 *data, gsize size,
                     GError **error)
{
  /* In-memory sizes never exceed G_MAXSSIZE. */
  return g_file_set_contents_full (path, (const gchar *) data, (gssize) size,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0666, error);
}
