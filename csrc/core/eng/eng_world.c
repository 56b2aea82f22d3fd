#include "eng_world.h"

#include <math.h>

gboolean
wk_eng_world_mesh_size (const GPtrArray *models, const WkEngMap *map,
                        gsize *n_verts, gsize *n_tris, GError **error)
{
  *n_verts = *n_tris = 0;
  for (guint32 i = 0; i < map->n; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, map->model[i]);
      if (m->n_faces == 0)
        continue;
      *n_verts += m->n_verts;
      *n_tris += m->n_faces;
      if (*n_verts > WK_ENG_WORLD_MAX || *n_tris > WK_ENG_WORLD_MAX)
        {
          /* Tiles share models, so a small file can name a huge mesh. */
          wk_set_error (error, WK_ERROR_FORMAT, -1,
                        "the tiles up to tile %u place more than %u vertices "
                        "or triangles (originals have ~30,000)", i,
                        (guint) WK_ENG_WORLD_MAX);
          wk_error_prefix (error, "MAP world mesh");
          return FALSE;
        }
    }
  return TRUE;
}

/* A tile's vertex colours as floats, once per vertex (not per corner):
 * byte/128 clamped to 1, alpha 1. */
static void
tile_colors (const guint8 *restrict rgba, gsize n, gfloat *restrict out)
{
  for (gsize v = 0; v < n; v++, rgba += 4, out += 4)
    {
      for (int k = 0; k < 3; k++)
        out[k] = MIN ((gfloat) rgba[k] / 128.0f, 1.0f);
      out[3] = 1.0f;
    }
}

void
wk_eng_colors_to_display (const guint8 *bytes, gsize n, gfloat *rgba)
{
  tile_colors (bytes, n, rgba);
}

void
wk_eng_colors_from_display (const gfloat *rgba, const guint8 *cur, gsize n,
                            guint8 *out)
{
  for (gsize v = 0; v < n; v++, rgba += 4, cur += 4, out += 4)
    {
      for (int k = 0; k < 3; k++)
        {
          const gfloat shown = MIN ((gfloat) cur[k] / 128.0f, 1.0f);
          const gfloat c = rgba[k] * 128.0f;
          /* !(c > 0) also catches NaN */
          out[k] = fabsf (rgba[k] - shown) <= 1.0f / 256.0f ? cur[k]
                   : !(c > 0.0f) ? 0 : c >= 255.0f ? 255 : (guint8) lrintf (c);
        }
      out[3] = cur[3];
    }
}

gboolean
wk_eng_world_mesh_fill (const GPtrArray *models, const WkEngMap *map,
                        const WkEngTexEntry *entries, guint n_entries,
                        WkEngSpace space, guint color_set,
                        const WkEngMeshOut *out, GError **error)
{
  static const gfloat unit_rect[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
  static const gfloat white[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
  static const gfloat grey[4] = { 1.0f, 1.0f, 1.0f, 1.0f }; /* 0x80/128 */
  /* Per entry, once: its UV rectangle and page. */
  g_autofree gfloat *rects = g_new (gfloat, 4 * (gsize) n_entries + 4);
  g_autofree gint32 *pages = g_new (gint32, (gsize) n_entries + 1);
  for (guint e = 0; e < n_entries; e++)
    {
      wk_eng_tex_uv_rect (&entries[e], &rects[4 * e]);
      pages[e] = entries[e].flags & WK_ENG_TEX_FLAT ? -1 : entries[e].page;
    }
  guint max_verts = 0;
  for (guint32 i = 0; i < map->n; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, map->model[i]);
      max_verts = MAX (max_verts, m->n_verts);
    }
  g_autofree gfloat *ctab = g_new (gfloat, 4 * (gsize) max_verts + 4);

  gfloat *restrict o_pos = out->positions, *restrict o_uv = out->uv;
  gfloat *restrict o_col = out->color;
  guint32 *restrict o_tri = out->triangles;
  gint32 *restrict o_tex = out->texture, *restrict o_page = out->page;
  gint32 *restrict o_tile = out->tile;
  guint16 *restrict o_flags = out->face_flags;
  gsize v0 = 0, t = 0;
  for (guint32 i = 0; i < map->n; i++)
    {
      const WkEngModel *m = g_ptr_array_index (models, map->model[i]);
      if (m->n_faces == 0)
        continue;
      WkEngTileXform xf;
      wk_eng_tile_xform (map->b[i], space, &xf);
      wk_eng_tile_points (&xf, m->verts, m->n_verts, &o_pos[3 * v0]);
      guint set = color_set < map->col_sets[i] ? color_set : 0;
      tile_colors (map->colors + 4 * ((gsize) map->col_start[i]
                                      + (gsize) set * m->n_verts),
                   m->n_verts, ctab);
      for (guint f = 0; f < m->n_faces; f++, t++)
        {
          const WkEngFace *face = &m->faces[f];
          const gfloat *rect = unit_rect;
          o_page[t] = -1;
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
                  wk_error_locate (error, i, map->model[i], -1);
                  return FALSE;
                }
              rect = &rects[4 * face->tex];
              o_page[t] = pages[face->tex];
            }
          gfloat uv[3][2];
          wk_eng_face_uvs (rect, face->flags, uv);
          const gboolean nocolor = (face->flags & WK_ENG_FACE_NOCOLOR) != 0;
          for (guint k = 0; k < 3; k++)
            {
              guint src = wk_eng_corner (space, k);
              guint vi = face->v[src];
              o_tri[3 * t + k] = (guint32) (v0 + vi);
              o_uv[6 * t + 2 * k] = uv[src][0];
              o_uv[6 * t + 2 * k + 1] = uv[src][1];
              memcpy (&o_col[12 * t + 4 * k],
                      nocolor ? white : m->n_verts ? &ctab[4 * vi] : grey,
                      4 * sizeof (gfloat));
            }
          o_tex[t] = face->tex;
          o_flags[t] = face->flags;
          o_tile[t] = (gint32) i;
        }
      v0 += m->n_verts;
    }
  return TRUE;
}
