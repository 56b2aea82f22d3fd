#include "eng_world.h"

#include <math.h>

void
wk_eng_model_positions (const WkEngModel *m, WkEngSpace space, gfloat *out)
{
  const gfloat zs = space == WK_ENG_SPACE_FILE ? -1.0f : 1.0f;
  for (gsize i = 0; i < m->n_verts; i++)
    {
      out[3 * i] = m->verts[6 * i];
      out[3 * i + 1] = m->verts[6 * i + 1];
      out[3 * i + 2] = zs * m->verts[6 * i + 2];
    }
}

void
wk_eng_model_normals (const WkEngModel *m, WkEngSpace space, gfloat *out)
{
  const gfloat zs = space == WK_ENG_SPACE_FILE ? -1.0f : 1.0f;
  for (gsize i = 0; i < m->n_verts; i++)
    {
      out[3 * i] = m->verts[6 * i + 3];
      out[3 * i + 1] = m->verts[6 * i + 4];
      out[3 * i + 2] = zs * m->verts[6 * i + 5];
    }
}

void
wk_eng_model_triangles (const WkEngModel *m, WkEngSpace space, guint32 *out)
{
  for (gsize f = 0; f < m->n_faces; f++)
    for (guint k = 0; k < 3; k++)
      out[3 * f + k] = m->faces[f].v[wk_eng_corner (space, k)];
}

void
wk_eng_tile_point (const gint32 b[6], const gfloat v[3], WkEngSpace space,
                   gfloat out[3])
{
  const double a = (double) b[1] / 4096.0 * 2.0 * G_PI;
  const double c = cos (a), s = sin (a);
  /* -(double) b[5]: negating INT32_MIN as an int is undefined (fuzz_eng_map) */
  const double x = b[3] / 4096.0, y = b[4] / 4096.0, z = -(double) b[5] / 4096.0;
  const double X = x + v[0] * c - v[2] * s;
  const double Y = y + v[1];
  const double Z = z + v[0] * s + v[2] * c;
  out[0] = (gfloat) X;
  out[1] = (gfloat) Y;
  out[2] = (gfloat) (space == WK_ENG_SPACE_FILE ? -Z : Z);
}

void
wk_eng_world_mesh_size (const GPtrArray *models, const WkEngMap *map,
                        gsize *n_verts, gsize *n_tris)
{
  *n_verts = *n_tris = 0;
  for (guint32 i = 0; i < map->n; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, map->model[i]);
      if (m->n_faces == 0)
        continue;
      *n_verts += m->n_verts;
      *n_tris += m->n_faces;
    }
}

static void
corner_color (const guint8 *rgba, gboolean white, gfloat out[4])
{
  for (int k = 0; k < 3; k++)
    out[k] = white ? 1.0f : MIN ((gfloat) rgba[k] / 128.0f, 1.0f);
  out[3] = 1.0f;
}

gboolean
wk_eng_world_mesh_fill (const GPtrArray *models, const WkEngMap *map,
                        const WkEngTexEntry *entries, guint n_entries,
                        WkEngSpace space, guint color_set,
                        const WkEngMeshOut *out, GError **error)
{
  static const gfloat unit_rect[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
  static const guint8 grey[4] = { 0x80, 0x80, 0x80, 0x80 };
  gsize v0 = 0, t = 0;
  for (guint32 i = 0; i < map->n; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, map->model[i]);
      if (m->n_faces == 0)
        continue;
      for (gsize v = 0; v < m->n_verts; v++)
        wk_eng_tile_point (map->b[i], &m->verts[6 * v], space,
                           &out->positions[3 * (v0 + v)]);
      guint set = color_set < map->col_sets[i] ? color_set : 0;
      const guint8 *colors = map->colors
                             + 4 * ((gsize) map->col_start[i] + (gsize) set * m->n_verts);
      for (guint f = 0; f < m->n_faces; f++, t++)
        {
          const WkEngFace *face = &m->faces[f];
          gfloat rect[4];
          memcpy (rect, unit_rect, sizeof rect);
          out->page[t] = -1;
          if (entries != NULL)
            {
              if (face->tex >= n_entries)
                {
                  wk_set_error (error, WK_ERROR_FORMAT,
                                m->faces_offset < 0 ? -1
                                    : m->faces_offset + (gint64) f * WK_ENG_FACE_SIZE + 8,
                                "face %u uses texture %u, the table has %u "
                                "entries", f, face->tex, n_entries);
                  wk_error_prefix (error, "TRAK model %u (tile %u)",
                                   map->model[i], i);
                  return FALSE;
                }
              const WkEngTexEntry *e = &entries[face->tex];
              if (!(e->flags & WK_ENG_TEX_FLAT))
                out->page[t] = e->page;
              wk_eng_tex_uv_rect (e, rect);
            }
          gfloat uv[3][2];
          wk_eng_face_uvs (rect, face->flags, uv);
          const gboolean white = (face->flags & WK_ENG_FACE_NOCOLOR) != 0;
          for (guint k = 0; k < 3; k++)
            {
              guint src = wk_eng_corner (space, k);
              guint vi = face->v[src];
              out->triangles[3 * t + k] = (guint32) (v0 + vi);
              out->uv[6 * t + 2 * k] = uv[src][0];
              out->uv[6 * t + 2 * k + 1] = uv[src][1];
              corner_color (m->n_verts ? colors + 4 * (gsize) vi : grey, white,
                            &out->color[12 * t + 4 * k]);
            }
          out->texture[t] = face->tex;
          out->face_flags[t] = face->flags;
          out->tile[t] = (gint32) i;
        }
      v0 += m->n_verts;
    }
  return TRUE;
}
