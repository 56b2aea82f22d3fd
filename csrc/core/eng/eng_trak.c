#include "eng_trak.h"

GPtrArray *
wk_eng_trak_parse (const guint8 *data, gsize size, gint64 base, GError **error)
{
  return wk_eng_trak_parse_in (data, size, NULL, base, error);
}

GPtrArray *
wk_eng_trak_parse_bytes (GBytes *bytes, gint64 base, GError **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  return wk_eng_trak_parse_in (data, size, bytes, base, error);
}

GPtrArray *
wk_eng_trak_parse_in (const guint8 *data, gsize size, GBytes *backing,
                      gint64 base, GError **error)
{
  WkReader r;
  wk_reader_init (&r, data, size, base);
  guint32 n;
  if (!wk_read_u32 (&r, &n, "model count", error)
      || !wk_reader_need (&r, n, WK_ENG_TRAK_HEADER_SIZE, "model header", error))
    {
      wk_error_prefix (error, "TRAK");
      return NULL;
    }
  g_autoptr (GPtrArray) models
      = g_ptr_array_new_full (n, (GDestroyNotify) wk_eng_model_free);
  for (guint32 i = 0; i < n; i++)
    {
      WkEngModel *m = wk_eng_model_new (FALSE);
      g_ptr_array_add (models, m);
      wk_eng_model_read_header (&r, m, error); /* fits: checked above */
    }
  for (guint32 i = 0; i < n; i++)
    if (!wk_eng_model_read_data_in (&r, g_ptr_array_index (models, i), backing,
                                     error))
      {
        wk_error_prefix (error, "TRAK model %u", i);
        wk_error_locate (error, -1, i, -1);
        return NULL;
      }
  if (wk_reader_left (&r) != 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, wk_reader_abs (&r),
                    "%" G_GSIZE_FORMAT " bytes after the last model",
                    wk_reader_left (&r));
      wk_error_prefix (error, "TRAK");
      return NULL;
    }
  return g_steal_pointer (&models);
}

GBytes *
wk_eng_trak_build (const GPtrArray *models, GError **error)
{
  for (guint i = 0; i < models->len; i++)
    if (!wk_eng_model_check_limits (g_ptr_array_index (models, i), error))
      {
        wk_error_prefix (error, "TRAK model %u", i);
        wk_error_locate (error, -1, i, -1);
        return NULL;
      }
  gsize size = 4;
  for (guint i = 0; i < models->len; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, i);
      size += WK_ENG_TRAK_HEADER_SIZE + (gsize) m->n_verts * WK_ENG_VERTEX_SIZE
              + (gsize) m->n_faces * WK_ENG_FACE_SIZE + (gsize) m->n_coll * 32;
    }
  GByteArray *out = g_byte_array_sized_new ((guint) MIN (size, G_MAXUINT));
  wk_put_u32 (out, models->len);
  for (guint i = 0; i < models->len; i++)
    wk_eng_model_write_header (g_ptr_array_index (models, i), out);
  for (guint i = 0; i < models->len; i++)
    wk_eng_model_write_data (g_ptr_array_index (models, i), out);
  return g_byte_array_free_to_bytes (out);
}
