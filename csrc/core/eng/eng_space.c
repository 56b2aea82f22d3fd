#include "eng_space.h"

gboolean
wk_eng_space_parse (const char *name, WkEngSpace *out)
{
  if (g_strcmp0 (name, "file") == 0 || g_strcmp0 (name, "game") == 0)
    *out = WK_ENG_SPACE_FILE;
  else if (g_strcmp0 (name, "export") == 0)
    *out = WK_ENG_SPACE_EXPORT;
  else
    return FALSE;
  return TRUE;
}

void
wk_eng_model_positions (const WkEngModel *m, WkEngSpace space, gfloat *out)
{
  const gfloat zs = wk_eng_z_from_export (space);
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
  const gfloat zs = wk_eng_z_from_export (space);
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
wk_eng_model_planes (const WkEngModel *m, WkEngSpace space, gfloat *out)
{
  const gfloat zs = wk_eng_z_from_export (space);
  for (gsize f = 0; f < m->n_faces; f++)
    {
      out[4 * f] = m->faces[f].plane[0];
      out[4 * f + 1] = m->faces[f].plane[1];
      out[4 * f + 2] = zs * m->faces[f].plane[2];
      out[4 * f + 3] = m->faces[f].plane[3];
    }
}

void
wk_eng_model_bounds (const WkEngModel *m, WkEngSpace space, gfloat box[24],
                     gfloat centre[3])
{
  const gfloat zs = wk_eng_z_from_export (space);
  for (int c = 0; c < 8; c++)
    for (int k = 0; k < 3; k++)
      box[3 * c + k] = (k == 2 ? zs : 1.0f) * m->box[c][k];
  for (int k = 0; k < 3; k++)
    centre[k] = (k == 2 ? zs : 1.0f) * m->centre[k];
}

void
wk_eng_tile_positions (const WkEngMap *map, WkEngSpace space, gfloat *out)
{
  const double zs = wk_eng_z_from_game (space);
  for (guint32 i = 0; i < map->n; i++)
    {
      out[3 * i] = (gfloat) (map->b[i][3] / (double) WK_ENG_FIXED_ONE);
      out[3 * i + 1] = (gfloat) (map->b[i][4] / (double) WK_ENG_FIXED_ONE);
      out[3 * i + 2] = (gfloat) (zs * map->b[i][5] / WK_ENG_FIXED_ONE);
    }
}

void
wk_eng_tile_game_point (const gint32 b[6], const double l[3], double w[3])
{
  double c, s;
  wk_eng_rot_cos_sin (b[1], &c, &s);
  w[0] = wk_eng_from_fixed (b[3]) + l[0] * c + l[2] * s;
  w[1] = wk_eng_from_fixed (b[4]) + l[1];
  w[2] = wk_eng_from_fixed (b[5]) - l[0] * s + l[2] * c;
}

gboolean
wk_eng_tile_place (const double pos[3], guint32 rot, gint32 b[6], WkEngTileA *a)
{
  gint32 f[3];
  for (int k = 0; k < 3; k++)
    if (!wk_eng_to_fixed (pos[k], &f[k]))
      return FALSE;
  b[1] = (gint32) rot;
  b[3] = f[0], b[4] = f[1], b[5] = f[2];
  a->x = (gfloat) wk_eng_from_fixed (f[0]);
  a->y = (gfloat) wk_eng_from_fixed (f[1]);
  a->z = (gfloat) -wk_eng_from_fixed (f[2]);
  a->rot = rot;
  return TRUE;
}

void
wk_eng_cell_tile (guint32 cx, guint32 cz, gint32 y, guint32 model, WkEngTileA *a,
                  gint32 b[6])
{
  const gint32 half = WK_ENG_FIXED_ONE / 2;
  *a = (WkEngTileA) { cx + 0.5f, (gfloat) wk_eng_from_fixed (y), -(cz + 0.5f), 0,
                      model, 0 };
  b[0] = b[1] = b[2] = 0;
  b[3] = (gint32) cx * WK_ENG_FIXED_ONE + half;
  b[4] = y;
  b[5] = (gint32) cz * WK_ENG_FIXED_ONE + half;
}
