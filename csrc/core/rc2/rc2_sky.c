/* The RC2 sky reader. docs/formats/rc2-collision-sky.md ("Sky"). */
#include "rc2_sky.h"

#include "../common/wk_reader.h"

void
wk_rc2_sky_free (WkRc2Sky *s)
{
  if (s == NULL)
    return;
  for (int i = 0; i < WK_SKY_MAX_SHELLS; i++)
    g_clear_pointer (&s->shells[i].clusters, g_array_unref);
  g_clear_pointer (&s->textures, g_array_unref);
  g_free (s);
}

/* Does [at, at + n) lie in [0, size)? (64-bit, negative-safe) */
static gboolean
inside (gint64 at, gint64 n, gsize size)
{
  return at >= 0 && n >= 0 && (guint64) at + (guint64) n <= size;
}

static gboolean
read_cluster (const guint8 *b, gsize size, gint64 base, gint64 at,
              const WkSkyShell *sh, gint texture_count, WkSkyCluster *c,
              GError **error)
{
  const guint8 *h = b + at;
  for (int k = 0; k < 4; k++)
    c->bsphere[k] = wk_lef32 (h + 4 * k);
  c->data = wk_les32 (h + 0x10);
  c->vertex_count = wk_les16 (h + 0x14);
  c->tri_count = wk_les16 (h + 0x16);
  c->vertex_offset = wk_les16 (h + 0x18);
  c->st_offset = wk_les16 (h + 0x1a);
  c->tri_offset = wk_les16 (h + 0x1c);
  c->data_size = wk_les16 (h + 0x1e);
  gint64 t = (gint64) c->data + c->tri_offset;
  if (c->vertex_count < 0 || c->tri_count < 0 || c->data_size < 0
      || !inside (c->data, c->data_size, size)
      || c->vertex_offset < 0 || c->vertex_offset + 8 * c->vertex_count > c->data_size
      || c->st_offset < 0 || c->st_offset + 4 * c->vertex_count > c->data_size
      || c->tri_offset < 0 || c->tri_offset + 4 * c->tri_count > c->data_size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + at + 0x10,
                    "data 0x%x + 0x%x bytes with %d vertices at +0x%x, ST at "
                    "+0x%x, %d faces at +0x%x: outside the cluster's data or the "
                    "%" G_GSIZE_FORMAT "-byte block", c->data, c->data_size,
                    c->vertex_count, c->vertex_offset, c->st_offset,
                    c->tri_count, c->tri_offset, size);
      return FALSE;
    }
  for (gint i = 0; i < c->tri_count; i++)
    {
      const guint8 *f = b + t + 4 * i;
      for (int k = 0; k < 3; k++)
        if (f[k] >= c->vertex_count)
          {
            wk_set_error (error, WK_ERROR_FORMAT, base + t + 4 * i + k,
                          "face %d: vertex %u, the cluster has %d", i, f[k],
                          c->vertex_count);
            return FALSE;
          }
      gboolean none = f[3] == 0xff;
      if (sh->textured ? !none && f[3] >= texture_count : !none)
        {
          wk_set_error (error, WK_ERROR_FORMAT, base + t + 4 * i + 3,
                        "face %d: texture %u in a%s shell (%d textures)", i,
                        f[3], sh->textured ? " textured" : "n untextured",
                        texture_count);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
read_shell (WkRc2Sky *s, gsize size, gint64 base, int i, guint64 *work,
            GError **error)
{
  const guint8 *b = s->block;
  WkSkyShell *sh = &s->shells[i];
  sh->offset = s->shell_offsets[i];
  if (!inside (sh->offset, 0x10, size))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + 0x20 + 4 * i,
                    "shell %d at 0x%x: outside the %" G_GSIZE_FORMAT "-byte block",
                    i, sh->offset, size);
      return FALSE;
    }
  sh->cluster_count = wk_les32 (b + sh->offset);
  sh->flags = wk_les32 (b + sh->offset + 4);
  sh->textured = (sh->flags & 1) == 0;
  if (sh->cluster_count < 0
      || !inside ((gint64) sh->offset + 0x10, 0x20 * (gint64) sh->cluster_count, size))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + sh->offset,
                    "shell %d: %d cluster headers do not fit the block", i,
                    sh->cluster_count);
      return FALSE;
    }
  sh->clusters = g_array_sized_new (FALSE, FALSE, sizeof (WkSkyCluster),
                                    (guint) sh->cluster_count);
  for (gint k = 0; k < sh->cluster_count; k++)
    {
      WkSkyCluster c = { .first_vertex = sh->n_vertices, .first_tri = sh->n_tris };
      gint64 at = (gint64) sh->offset + 0x10 + 0x20 * k;
      if (!read_cluster (b, size, base, at, sh, s->texture_count, &c, error))
        {
          wk_error_prefix (error, "shell %d cluster %d", i, k);
          return FALSE;
        }
      *work += 12 * (guint64) c.vertex_count + 4 * (guint64) c.tri_count;
      if (*work > size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, base + at,
                        "the clusters hold more vertex and face bytes than the "
                        "%" G_GSIZE_FORMAT "-byte block (shared data)", size);
          wk_error_prefix (error, "shell %d cluster %d", i, k);
          return FALSE;
        }
      sh->n_vertices += (guint) c.vertex_count;
      sh->n_tris += (guint) c.tri_count;
      g_array_append_val (sh->clusters, c);
    }
  return TRUE;
}

WkRc2Sky *
wk_rc2_sky_parse (const guint8 *b, gsize size, gint64 base, GError **error)
{
  if (size < WK_SKY_HEADER || size > G_MAXINT32)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "sky block of %" G_GSIZE_FORMAT
                    " bytes has no 0x40-byte header", size);
      return NULL;
    }
  g_autoptr (WkRc2Sky) s = g_new0 (WkRc2Sky, 1);
  s->block = b;
  memcpy (s->colour, b, 4);
  s->clear_screen = wk_les16 (b + 4);
  s->shell_count = wk_les16 (b + 6);
  s->sprite_count = wk_les16 (b + 8);
  s->max_sprites = wk_les16 (b + 0x0a);
  s->texture_count = wk_les16 (b + 0x0c);
  s->fx_count = wk_les16 (b + 0x0e);
  s->texture_defs = wk_les32 (b + 0x10);
  s->texture_data = wk_les32 (b + 0x14);
  s->fx_list = wk_les32 (b + 0x18);
  s->sprites = wk_les32 (b + 0x1c);
  for (int i = 0; i < WK_SKY_MAX_SHELLS; i++)
    s->shell_offsets[i] = wk_les32 (b + 0x20 + 4 * i);
  if (s->shell_count < 0 || s->shell_count > WK_SKY_MAX_SHELLS)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + 6, "%d sky shells (0..8)",
                    s->shell_count);
      return NULL;
    }
  if (s->texture_count < 0 || !inside (s->texture_defs, 16 * (gint64) s->texture_count, size)
      || s->fx_count < 0 || (s->fx_count && !inside (s->fx_list, s->fx_count, size)))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + 0x0c,
                    "%d texture entries at 0x%x or %d fx at 0x%x: outside the %"
                    G_GSIZE_FORMAT "-byte block", s->texture_count, s->texture_defs,
                    s->fx_count, s->fx_list, size);
      return NULL;
    }
  s->textures = g_array_sized_new (FALSE, FALSE, sizeof (WkSkyTexture),
                                   (guint) s->texture_count);
  guint64 work = 0;
  for (gint i = 0; i < s->texture_count; i++)
    {
      const guint8 *d = b + s->texture_defs + 16 * i;
      WkSkyTexture t = { wk_les32 (d), wk_les32 (d + 4), wk_les32 (d + 8),
                         wk_les32 (d + 12) };
      gint64 pal = (gint64) s->texture_data + t.palette;
      gint64 px = (gint64) s->texture_data + t.pixels;
      if (t.width <= 0 || t.height <= 0 || t.width > 4096 || t.height > 4096
          || !inside (pal, 1024, size)
          || !inside (px, (gint64) t.width * t.height, size))
        {
          wk_set_error (error, WK_ERROR_FORMAT, base + s->texture_defs + 16 * i,
                        "sky texture %d: %dx%d pixels at 0x%" G_GINT64_MODIFIER
                        "x, palette at 0x%" G_GINT64_MODIFIER "x: outside the %"
                        G_GSIZE_FORMAT "-byte block", i, t.width, t.height, px,
                        pal, size);
          return NULL;
        }
      t.palette = (gint32) pal;
      t.pixels = (gint32) px;
      g_array_append_val (s->textures, t);
    }
  for (int i = 0; i < s->shell_count; i++)
    if (!read_shell (s, size, base, i, &work, error))
      return NULL;
  return g_steal_pointer (&s);
}

void
wk_rc2_sky_fill (const WkRc2Sky *s, guint shell, const WkSkyShellOut *out)
{
  const WkSkyShell *sh = &s->shells[shell];
  const guint8 *b = s->block;
  for (guint k = 0; k < sh->clusters->len; k++)
    {
      const WkSkyCluster *c = &g_array_index (sh->clusters, WkSkyCluster, k);
      const guint8 *v = b + c->data + c->vertex_offset;
      const guint8 *st = b + c->data + c->st_offset;
      const guint8 *f = b + c->data + c->tri_offset;
      for (gint i = 0; i < c->vertex_count; i++)
        {
          gsize r = c->first_vertex + (gsize) i;
          for (int a = 0; a < 3; a++)
            out->positions[3 * r + (gsize) a] = wk_les16 (v + 8 * i + 2 * a) / 1024.0f;
          gint16 alpha = wk_les16 (v + 8 * i + 6);
          out->alpha[r] = alpha;
          memcpy (out->st + 4 * r, st + 4 * i, 4);
          out->uv[2 * r] = wk_les16 (st + 4 * i) / 4096.0f;
          out->uv[2 * r + 1] = wk_les16 (st + 4 * i + 2) / 4096.0f;
          gfloat *col = out->color + 4 * r;
          if (sh->textured)
            {
              col[0] = col[1] = col[2] = 1.0f;
              col[3] = alpha / 128.0f;
            }
          else
            {
              for (int a = 0; a < 3; a++)
                col[a] = st[4 * i + a] / 255.0f;
              col[3] = alpha / 128.0f * (st[4 * i + 3] / 128.0f);
            }
        }
      for (gint i = 0; i < c->tri_count; i++)
        {
          gsize r = c->first_tri + (gsize) i;
          for (int a = 0; a < 3; a++) /* stored clockwise: reversed */
            out->triangles[3 * r + (gsize) a] = c->first_vertex + f[4 * i + 2 - a];
          out->texture[r] = f[4 * i + 3] == 0xff ? -1 : f[4 * i + 3];
          out->cluster[r] = (gint32) k;
        }
    }
}
