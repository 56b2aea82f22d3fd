#include "shrub.h"

#include "vif.h"

enum {
  GIF_TAG_SIZE = 16,    /* GifTag12 + s32 GS offset */
  TEXTURE_SIZE = 64,    /* 4 A+D quadwords; GS offset at +0xc, TEX0 at +0x30 */
  GS_GIF_TAG = 1, GS_TEXTURE = 5, GS_VERTEX = 3,
  PRIM_TRIANGLE = 3, PRIM_STRIP = 4,
  STOP_BIT = 0x8000,
  STOP_BEFORE_END = 4,  /* the stop bit sits on the 4th vertex from the end */
};

typedef struct {
  const guint8 *data;
  gsize size;
  gint64 base;
  gfloat scale;
  const guint8 *normals;
  gint texture;         /* current texture, kept across packets; -1 none */
  WkClassMesh *mesh;
  WkShrubInfo *info;
} Ctx;

static void
add_vertex (Ctx *x, const guint8 *p1, const guint8 *p2)
{
  WkMeshVertex v = { 0 };
  const guint8 *n = x->normals + 8 * (wk_le16 (p2 + 6) & 0x7fff);
  for (int a = 0; a < 3; a++)
    {
      v.pos[a] = wk_les16 (p1 + 2 * a) * (x->scale / WK_RC2_POS_ONE);
      v.normal[a] = wk_les16 (n + 2 * a) / WK_RC2_NORMAL_ONE;
    }
  for (int a = 0; a < 2; a++)
    v.uv[a] = wk_les16 (p2 + 2 * a) / WK_RC2_ST_ONE;
  g_array_append_val (x->mesh->vertices, v);
}

/* Triangle over the last-added vertices a, b, c: dropped when two corners
 * share a position, else wound so its face normal agrees with the mean of
 * the stored vertex normals (the strips do not keep a winding). */
static void
add_tri (Ctx *x, guint a, guint b, guint c)
{
  const WkMeshVertex *v = (const WkMeshVertex *) (gpointer) x->mesh->vertices->data;
  const WkMeshVertex *p[3] = { &v[a], &v[b], &v[c] };
  for (int i = 0; i < 3; i++)
    if (!memcmp (p[i]->pos, p[(i + 1) % 3]->pos, sizeof p[i]->pos))
      {
        x->info->dropped_triangles++;
        return;
      }
  gfloat e1[3], e2[3], dot = 0;
  for (int i = 0; i < 3; i++)
    {
      e1[i] = p[1]->pos[i] - p[0]->pos[i];
      e2[i] = p[2]->pos[i] - p[0]->pos[i];
    }
  for (int i = 0; i < 3; i++)
    {
      int j = (i + 1) % 3, k = (i + 2) % 3;
      dot += (e1[j] * e2[k] - e1[k] * e2[j])
             * (p[0]->normal[i] + p[1]->normal[i] + p[2]->normal[i]);
    }
  if (dot < 0)
    wk_class_mesh_add_tri (x->mesh, c, b, a, x->texture);
  else
    wk_class_mesh_add_tri (x->mesh, a, b, c, x->texture);
}

/* Check the three unpacks against the packet header. */
static gboolean
check_unpacks (const WkVifCode u[3], gint32 h[4], GError **error)
{
  static const char *const names[3] = { "header", "position", "texture coordinate" };
  guint want_vn[3] = { 3, 3, 3 }, want_vl[3] = { 0, 1, 1 };
  for (int i = 0; i < 3; i++)
    if (u[i].vn != want_vn[i] || u[i].vl != want_vl[i])
      {
        wk_set_error (error, WK_ERROR_FORMAT, u[i].offset,
                      "the %s unpack has vn %u vl %u, not V4_%s", names[i],
                      u[i].vn, u[i].vl, i ? "16" : "32");
        return FALSE;
      }
  for (int i = 0; i < 4; i++) /* V4_32: at least one quadword */
    h[i] = wk_les32 (u[0].payload + 4 * i);
  gint32 textures = h[0], tags = h[1], verts = h[2], vofs = h[3];
  if (textures < 0 || tags < 1 || verts < STOP_BEFORE_END
      || (guint64) u[0].count != 1 + (guint64) tags + 4 * (guint64) textures
      || u[0].addr != 0 || (gint64) vofs != (gint64) u[0].count
      || u[1].count != (guint) verts || u[2].count != (guint) verts
      || u[1].addr != (guint) vofs || u[2].addr != (guint) (vofs + verts))
    {
      wk_set_error (error, WK_ERROR_FORMAT, u[0].offset + 4,
                    "header {%d textures, %d GIF tags, %d vertices at VU 0x%x} "
                    "disagrees with the unpacks: %u quadwords at 0x%x, %u at "
                    "0x%x, %u at 0x%x", textures, tags, verts, (guint32) vofs,
                    u[0].count, u[0].addr, u[1].count, u[1].addr, u[2].count,
                    u[2].addr);
      return FALSE;
    }
  for (gint32 i = 0; i < verts; i++)
    if ((wk_le16 (u[2].payload + 8 * i + 6) & STOP_BIT) != 0)
      {
        if (i == verts - STOP_BEFORE_END)
          break;
        wk_set_error (error, WK_ERROR_FORMAT, u[2].offset + 4 + 8 * i + 6,
                      "vertex %d carries the stop bit, vertex %d of %d should",
                      i, verts - STOP_BEFORE_END, verts);
        return FALSE;
      }
    else if (i == verts - STOP_BEFORE_END)
      {
        wk_set_error (error, WK_ERROR_FORMAT, u[2].offset + 4 + 8 * i + 6,
                      "vertex %d of %d lacks the stop bit", i, verts);
        return FALSE;
      }
  return TRUE;
}

static gboolean
packet (Ctx *x, const guint8 *list, gsize size, gint64 abs, GError **error)
{
  WkVifCode u[3];
  gint32 h[4];
  guint nu;
  if (!wk_vif_unpacks (list, size, abs, u, 3, &nu, error))
    return FALSE;
  if (nu != 3)
    {
      wk_set_error (error, WK_ERROR_FORMAT, abs, "%u unpacks, a packet has three", nu);
      return FALSE;
    }
  if (!check_unpacks (u, h, error))
    return FALSE;
  guint ntex = (guint) h[0], ntags = (guint) h[1], nv = (guint) h[2];
  const guint8 *tags = u[0].payload + 16, *tex = tags + GIF_TAG_SIZE * ntags;
  const guint8 *p1 = u[1].payload, *p2 = u[2].payload;
  gint64 tags_abs = u[0].offset + 4 + 16, tex_abs = tags_abs + GIF_TAG_SIZE * ntags;
  guint next = 0, gi = 0, ti = 0, vi = 0, remaining = 0, k = 0, base = 0;
  gboolean strip = FALSE;
  while (gi < ntags || ti < ntex || vi < nv)
    {
      if (gi < ntags && (guint32) wk_les32 (tags + GIF_TAG_SIZE * gi + 12) == next)
        {
          const guint8 *t = tags + GIF_TAG_SIZE * gi;
          guint64 low = (guint64) wk_le32 (t) | ((guint64) wk_le32 (t + 4) << 32);
          guint nloop = low & 0x7fff, prim = (low >> 47) & 7, nreg = low >> 60;
          if (remaining)
            goto short_prim;
          if (nreg != 3 || (prim != PRIM_TRIANGLE && prim != PRIM_STRIP)
              || nloop < 3 || (prim == PRIM_TRIANGLE && nloop % 3))
            {
              wk_set_error (error, WK_ERROR_FORMAT, tags_abs + GIF_TAG_SIZE * gi,
                            "GIF tag %u: primitive %u, %u registers, %u "
                            "vertices (triangles or a strip of 3 registers "
                            "expected)", gi, prim, nreg, nloop);
              return FALSE;
            }
          if (x->texture < 0)
            {
              wk_set_error (error, WK_ERROR_FORMAT, tags_abs + GIF_TAG_SIZE * gi,
                            "GIF tag %u comes before any texture", gi);
              return FALSE;
            }
          remaining = nloop;
          strip = prim == PRIM_STRIP;
          k = 0;
          base = x->mesh->vertices->len;
          gi++;
          next += GS_GIF_TAG;
          continue;
        }
      if (ti < ntex && (guint32) wk_les32 (tex + TEXTURE_SIZE * ti + 12) == next)
        {
          if (remaining)
            goto short_prim;
          gint32 t = wk_les32 (tex + TEXTURE_SIZE * ti + 0x30);
          if (t < 0 || t >= 16)
            {
              wk_set_error (error, WK_ERROR_FORMAT, tex_abs + TEXTURE_SIZE * ti + 0x30,
                            "texture %d, a class has 16", t);
              return FALSE;
            }
          x->texture = t;
          ti++;
          next += GS_TEXTURE;
          continue;
        }
      guint vofs = vi < nv ? wk_le16 (p1 + 8 * vi + 6) : G_MAXUINT;
      if (vofs == next)
        {
          if (remaining == 0)
            {
              wk_set_error (error, WK_ERROR_FORMAT, u[1].offset + 4 + 8 * vi,
                            "vertex %u at GS offset %u is outside every GIF tag",
                            vi, next);
              return FALSE;
            }
          guint n = wk_le16 (p2 + 8 * vi + 6) & 0x7fff;
          if (n >= WK_SHRUB_NORMALS)
            {
              wk_set_error (error, WK_ERROR_FORMAT, u[2].offset + 4 + 8 * vi + 6,
                            "vertex %u names normal %u of %u", vi, n,
                            WK_SHRUB_NORMALS);
              return FALSE;
            }
          add_vertex (x, p1 + 8 * vi, p2 + 8 * vi);
          k++;
          guint i = base + k - 1;
          if (strip ? k >= 3 : k % 3 == 0)
            add_tri (x, i - 2, i - 1, i);
          remaining--;
          vi++;
          next += GS_VERTEX;
          continue;
        }
      if (vi > 0 && vofs + GS_VERTEX == next && gi == ntags && ti == ntex
          && remaining == 0)
        { /* padding: every vertex left repeats the last offset */
          for (guint j = vi; j < nv; j++)
            if (wk_le16 (p1 + 8 * j + 6) != vofs)
              {
                wk_set_error (error, WK_ERROR_FORMAT, u[1].offset + 4 + 8 * j + 6,
                              "padding vertex %u at GS offset %u, not %u", j,
                              wk_le16 (p1 + 8 * j + 6), vofs);
                return FALSE;
              }
          x->info->padding_vertices += nv - vi;
          break;
        }
      wk_set_error (error, WK_ERROR_FORMAT, u[0].offset,
                    "the GS walk stalls at offset %u: no GIF tag, texture or "
                    "vertex there (%u of %u tags, %u of %u textures, %u of %u "
                    "vertices done)", next, gi, ntags, ti, ntex, vi, nv);
      return FALSE;
    }
  if (remaining)
    goto short_prim;
  return TRUE;
short_prim:
  wk_set_error (error, WK_ERROR_FORMAT, tags_abs + GIF_TAG_SIZE * (gi - 1),
                "GIF tag %u declares %u vertices more than follow it", gi - 1,
                remaining);
  return FALSE;
}

WkClassMesh *
wk_shrub_mesh_parse (const guint8 *data, gsize size, gint64 base,
                     WkShrubInfo *info, GError **error)
{
  WkShrubInfo in = { 0 };
  if (!wk_class_head (data, size, base, 0, 1, WK_SHRUB_HEADER, 0x20, "shrub", &in.scale,
                      error))
    return NULL;
  for (int i = 0; i < 4; i++)
    in.bsphere[i] = wk_lef32 (data + 4 * i);
  in.mip_distance = wk_lef32 (data + 0x10);
  in.mode_bits = wk_le16 (data + 0x14);
  in.billboard_offset = wk_les32 (data + 0x1c);
  in.o_class = wk_les16 (data + 0x24);
  gint packets = wk_les16 (data + 0x28);
  gint64 normals = wk_les32 (data + 0x2c);
  if (packets < 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base + 0x28, "%d packets", packets);
      return NULL;
    }
  in.packet_count = (guint) packets;
  if (!wk_class_span (size, base, 0x28, WK_SHRUB_HEADER, in.packet_count, 8,
                      "packet table", error)
      || !wk_class_span (size, base, 0x2c, normals, WK_SHRUB_NORMALS, 8,
                         "normal table", error))
    return NULL;
  g_autoptr (WkClassMesh) mesh = wk_class_mesh_new (TRUE);
  Ctx x = { data, size, base, in.scale, data + normals, -1, mesh, &in };
  for (guint i = 0; i < in.packet_count; i++)
    {
      const guint8 *e = data + WK_SHRUB_HEADER + 8 * i;
      gint64 at = wk_les32 (e), len = wk_les32 (e + 4);
      if (len < 0 || !wk_class_span (size, base, WK_SHRUB_HEADER + 8 * i, at, (guint64) len, 1,
                                        "VIF packet", error)
          || !packet (&x, data + at, (gsize) len, base + at, error))
        {
          if (len < 0)
            wk_set_error (error, WK_ERROR_FORMAT, base + WK_SHRUB_HEADER + 8 * i + 4,
                          "packet size %" G_GINT64_FORMAT, len);
          wk_error_prefix (error, "packet %u", i);
          return NULL;
        }
    }
  if (info)
    *info = in;
  return g_steal_pointer (&mesh);
}
