#include "eng_model.h"

#include <math.h>
#include <string.h>

#include "eng_coll_record.h"
#include "../common/wk_vec.h"

WkEngModel *
wk_eng_model_new (gboolean stpc)
{
  WkEngModel *m = g_new0 (WkEngModel, 1);
  m->stpc = stpc;
  m->offset = -1;
  m->faces_offset = -1;
  return m;
}

void
wk_eng_model_free (WkEngModel *m)
{
  if (m == NULL)
    return;
  if (m->backing != NULL)
    g_bytes_unref (m->backing);
  else
    {
      g_free (m->verts);
      g_free (m->faces);
      g_free (m->coll);
    }
  g_free (m->bone_counts);
  g_free (m);
}

gboolean
wk_eng_model_read_header (WkReader *r, WkEngModel *m, GError **error)
{
  gsize size = m->stpc ? WK_ENG_STPC_HEADER_SIZE : WK_ENG_TRAK_HEADER_SIZE;
  m->offset = wk_reader_abs (r);
  const guint8 *p;
  if (!wk_reader_bytes (r, size, &p, "model header", error))
    return FALSE;
  for (int k = 0; k < 3; k++)
    m->centre[k] = wk_lef32 (p + 4 * k);
  for (int c = 0; c < 8; c++)
    for (int k = 0; k < 3; k++)
      m->box[c][k] = wk_lef32 (p + 0x0c + 12 * c + 4 * k);
  m->n_verts = wk_le16 (p + 0x6c);
  m->n_faces = wk_le16 (p + 0x6e);
  m->ptr_verts = wk_le32 (p + 0x70);
  m->ptr_faces = wk_le32 (p + 0x74);
  for (int g = 0; g < 3; g++)
    m->coll_groups[g] = wk_le16 (p + 0x78 + 2 * g);
  m->pad7e = wk_le16 (p + 0x7e);
  m->ptr_coll = wk_le32 (p + 0x80);
  m->n_coll = (guint) m->coll_groups[0] + m->coll_groups[1] + m->coll_groups[2];
  if (m->stpc)
    {
      m->rigid_verts = wk_le16 (p + 0x84);
      m->n_bones = wk_le16 (p + 0x86);
      m->ptr_bones = wk_le32 (p + 0x88);
    }
  return TRUE;
}

/* Can the bytes at p be used in place as floats / WkEngFace records? */
static inline gboolean
viewable (GBytes *backing, const guint8 *p)
{
  return backing != NULL && G_BYTE_ORDER == G_LITTLE_ENDIAN
         && ((guintptr) p & 3) == 0;
}

gboolean
wk_eng_model_read_data_in (WkReader *r, WkEngModel *m, GBytes *backing,
                           GError **error)
{
  const guint8 *p;
  if (m->stpc && m->n_bones > 0)
    {
      gint64 at = wk_reader_abs (r);
      if (!wk_reader_need (r, m->n_bones, 2, "bone vertex counts", error)
          || !wk_reader_bytes (r, (gsize) m->n_bones * 2, &p, "bone vertex counts", error))
        return FALSE;
      m->bone_counts = g_new (guint16, m->n_bones);
      guint sum = 0;
      for (guint b = 0; b < m->n_bones; b++)
        sum += m->bone_counts[b] = wk_le16 (p + 2 * b);
      if (sum != m->n_verts)
        {
          wk_set_error (error, WK_ERROR_FORMAT, at,
                        "bone vertex counts add up to %u, the model has %u "
                        "vertices", sum, m->n_verts);
          return FALSE;
        }
    }

  /* All three blocks are checked before the model takes any of them, so
   * a model is either all views or all copies. */
  const guint8 *pv, *pf, *pc;
  if (!wk_reader_need (r, m->n_verts, WK_ENG_VERTEX_SIZE, "vertex", error)
      || !wk_reader_bytes (r, (gsize) m->n_verts * WK_ENG_VERTEX_SIZE, &pv,
                           "vertices", error))
    return FALSE;
  gint64 faces_at = m->faces_offset = wk_reader_abs (r);
  if (!wk_reader_need (r, m->n_faces, WK_ENG_FACE_SIZE, "face", error)
      || !wk_reader_bytes (r, (gsize) m->n_faces * WK_ENG_FACE_SIZE, &pf,
                           "faces", error))
    return FALSE;
  if (!wk_reader_need (r, m->n_coll, WK_ENG_COLL_RECORD_SIZE, "collision record", error)
      || !wk_reader_bytes (r, (gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE, &pc,
                           "collision records", error))
    return FALSE;

  /* Face corners must name vertices of this model. */
  for (guint f = 0; f < m->n_faces; f++)
    {
      const guint8 *q = pf + (gsize) f * WK_ENG_FACE_SIZE + 2;
      for (int k = 0; k < 3; k++)
        {
          guint v = wk_le16 (q + 2 * k);
          if (v >= m->n_verts)
            {
              wk_set_error (error, WK_ERROR_FORMAT,
                            faces_at + (gint64) f * WK_ENG_FACE_SIZE + 2 + 2 * k,
                            "face %u: corner %d uses vertex %u, the model has %u",
                            f, k, v, m->n_verts);
              return FALSE;
            }
        }
    }

  if (viewable (backing, pv) && viewable (backing, pf) && viewable (backing, pc))
    {
      /* Read-only views; wk_eng_model_own() copies them before an edit. */
      m->verts = (gfloat *) (gpointer) pv;
      m->faces = (WkEngFace *) (gpointer) pf;
      m->coll = (guint8 *) pc;
      m->backing = g_bytes_ref (backing);
      return TRUE;
    }

  m->verts = g_new (gfloat, (gsize) m->n_verts * 6 + 1);
  for (gsize i = 0; i < (gsize) m->n_verts * 6; i++)
    m->verts[i] = wk_lef32 (pv + 4 * i);
  m->faces = g_new (WkEngFace, m->n_faces + 1);
  for (guint f = 0; f < m->n_faces; f++)
    {
      const guint8 *q = pf + (gsize) f * WK_ENG_FACE_SIZE;
      WkEngFace *face = &m->faces[f];
      face->flags = wk_le16 (q);
      for (int k = 0; k < 3; k++)
        face->v[k] = wk_le16 (q + 2 + 2 * k);
      face->tex = wk_le16 (q + 8);
      face->pad = wk_le16 (q + 10);
      for (int k = 0; k < 4; k++)
        face->plane[k] = wk_lef32 (q + 12 + 4 * k);
    }
  /* one spare byte so an empty block is not a NULL pointer; copying it too
   * read one byte past the input (found by fuzz_eng_trak) */
  m->coll = g_malloc ((gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE + 1);
  memcpy (m->coll, pc, (gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE);
  return TRUE;
}

gboolean
wk_eng_model_read_data (WkReader *r, WkEngModel *m, GError **error)
{
  return wk_eng_model_read_data_in (r, m, NULL, error);
}

void
wk_eng_model_own (WkEngModel *m)
{
  if (m->backing == NULL)
    return;
  gfloat *verts = g_new (gfloat, (gsize) m->n_verts * 6 + 1);
  memcpy (verts, m->verts, (gsize) m->n_verts * WK_ENG_VERTEX_SIZE);
  m->verts = verts;
  WkEngFace *faces = g_new (WkEngFace, (gsize) m->n_faces + 1);
  memcpy (faces, m->faces, (gsize) m->n_faces * sizeof (WkEngFace));
  m->faces = faces;
  guint8 *coll = g_malloc ((gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE + 1);
  memcpy (coll, m->coll, (gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE);
  m->coll = coll;
  g_clear_pointer (&m->backing, g_bytes_unref);
}

void
wk_eng_model_write_header (const WkEngModel *m, GByteArray *out)
{
  for (int k = 0; k < 3; k++)
    wk_put_f32 (out, m->centre[k]);
  for (int c = 0; c < 8; c++)
    for (int k = 0; k < 3; k++)
      wk_put_f32 (out, m->box[c][k]);
  wk_put_u16 (out, (guint16) m->n_verts);
  wk_put_u16 (out, (guint16) m->n_faces);
  wk_put_u32 (out, m->ptr_verts);
  wk_put_u32 (out, m->ptr_faces);
  for (int g = 0; g < 3; g++)
    wk_put_u16 (out, m->coll_groups[g]);
  wk_put_u16 (out, m->pad7e);
  wk_put_u32 (out, m->ptr_coll);
  if (m->stpc)
    {
      wk_put_u16 (out, m->rigid_verts);
      wk_put_u16 (out, m->n_bones);
      wk_put_u32 (out, m->ptr_bones);
    }
}

void
wk_eng_model_write_data (const WkEngModel *m, GByteArray *out)
{
  if (m->stpc)
    for (guint b = 0; b < m->n_bones; b++)
      wk_put_u16 (out, m->bone_counts[b]);
  if (G_BYTE_ORDER == G_LITTLE_ENDIAN)
    {
      /* the in-memory vertices and faces are the file's layout here
       * (WkEngFace is static-asserted to the 28-byte record) */
      wk_put_bytes (out, (const guint8 *) m->verts, (gsize) m->n_verts * WK_ENG_VERTEX_SIZE);
      wk_put_bytes (out, (const guint8 *) m->faces, (gsize) m->n_faces * WK_ENG_FACE_SIZE);
      wk_put_bytes (out, m->coll, (gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE);
      return;
    }
  for (gsize i = 0; i < (gsize) m->n_verts * 6; i++)
    wk_put_f32 (out, m->verts[i]);
  for (guint f = 0; f < m->n_faces; f++)
    {
      const WkEngFace *face = &m->faces[f];
      wk_put_u16 (out, face->flags);
      for (int k = 0; k < 3; k++)
        wk_put_u16 (out, face->v[k]);
      wk_put_u16 (out, face->tex);
      wk_put_u16 (out, face->pad);
      for (int k = 0; k < 4; k++)
        wk_put_f32 (out, face->plane[k]);
    }
  wk_put_bytes (out, m->coll, (gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE);
}

gboolean
wk_eng_model_check_limits (const WkEngModel *m, GError **error)
{
  if (m->n_verts > G_MAXUINT16 || m->n_faces > G_MAXUINT16)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "%u vertices / %u faces: a model holds at most 65535 of each",
                    m->n_verts, m->n_faces);
      return FALSE;
    }
  if (m->n_coll != (guint) m->coll_groups[0] + m->coll_groups[1] + m->coll_groups[2])
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                    "%u collision records but group counts %u+%u+%u",
                    m->n_coll, m->coll_groups[0], m->coll_groups[1],
                    m->coll_groups[2]);
      return FALSE;
    }
  return TRUE;
}

/* (p1 - p0) × (p2 - p0) in double. */
static void
face_cross (const gfloat p0[3], const gfloat p1[3], const gfloat p2[3],
            double n[3])
{
  double e1[3], e2[3];
  for (int k = 0; k < 3; k++)
    {
      e1[k] = (double) p1[k] - p0[k];
      e2[k] = (double) p2[k] - p0[k];
    }
  wk_vec_cross (e1, e2, n);
}

void
wk_eng_face_plane (const gfloat p0[3], const gfloat p1[3], const gfloat p2[3],
                   gfloat plane[4])
{
  double n[3];
  face_cross (p0, p1, p2, n);
  double len = wk_vec_norm (n);
  if (len > 0)
    for (int k = 0; k < 3; k++)
      n[k] /= len;
  for (int k = 0; k < 3; k++)
    plane[k] = (gfloat) n[k];
  plane[3] = (gfloat) (n[0] * p0[0] + n[1] * p0[1] + n[2] * p0[2]);
}

void
wk_eng_model_recompute (WkEngModel *m)
{
  wk_eng_model_own (m);
  double lo[3] = { 0, 0, 0 }, hi[3] = { 0, 0, 0 };
  for (guint i = 0; i < m->n_verts; i++)
    for (int k = 0; k < 3; k++)
      {
        double v = m->verts[6 * i + k];
        if (i == 0 || v < lo[k])
          lo[k] = v;
        if (i == 0 || v > hi[k])
          hi[k] = v;
      }
  for (int k = 0; k < 3; k++)
    {
      lo[k] -= WK_ENG_BOX_MARGIN;
      hi[k] += WK_ENG_BOX_MARGIN;
      m->centre[k] = (gfloat) ((lo[k] + hi[k]) / 2);
    }
  /* corner c: bit0 -> +x, bit1 -> +y, bit2 -> -z */
  for (int c = 0; c < 8; c++)
    {
      m->box[c][0] = (gfloat) ((c & 1) ? hi[0] : lo[0]);
      m->box[c][1] = (gfloat) ((c & 2) ? hi[1] : lo[1]);
      m->box[c][2] = (gfloat) ((c & 4) ? lo[2] : hi[2]);
    }

  g_autofree double *acc = g_new0 (double, (gsize) m->n_verts * 3 + 1);
  for (guint f = 0; f < m->n_faces; f++)
    {
      WkEngFace *face = &m->faces[f];
      const gfloat *p[3];
      for (int k = 0; k < 3; k++)
        p[k] = &m->verts[6 * (gsize) face->v[k]];
      wk_eng_face_plane (p[0], p[1], p[2], face->plane);
      /* area-weighted: the unnormalised cross product */
      double n[3];
      face_cross (p[0], p[1], p[2], n);
      for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
          acc[3 * (gsize) face->v[c] + k] += n[k];
    }
  for (guint i = 0; i < m->n_verts; i++)
    {
      double *n = &acc[3 * (gsize) i];
      double len = wk_vec_norm (n);
      for (int k = 0; k < 3; k++)
        m->verts[6 * (gsize) i + 3 + k] = len > 0 ? (gfloat) (n[k] / len)
                                                  : (k == 1 ? 1.0f : 0.0f);
    }
}
