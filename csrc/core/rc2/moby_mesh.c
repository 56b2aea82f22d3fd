#include "moby_mesh.h"

#include <math.h>

#include "vif.h"

enum {
  CACHE = 512,            /* VU vertex cache slots (9-bit indices) */
  INDEX_LATE = 7,         /* a vertex's own cache index sits 7 vertices on */
  LAST_EXTRA = 6,         /* indices kept in the last vertex, at +4 */
  IN_FLIGHT = 3,          /* indices before the end the VU never draws */
  VERTEX_SIZE = 16,
  TEXTURE_SIZE = 0x40,    /* 4 A+D quadwords; TEX0 data at +0x20 */
};

typedef struct {
  WkMeshVertex v;
  gboolean set;
} Slot;

typedef struct {
  const guint8 *data;
  gsize size;
  gint64 base;
  guint format;
  gfloat scale;
  gint texture;           /* kept across packets, 0 at the start */
  Slot *cache;            /* CACHE slots, kept across packets */
  WkClassMesh *mesh;
} Ctx;

static gboolean
unpacks (const Ctx *x, const guint8 *e, gint64 eabs, WkVifCode u[3], guint *n,
         GError **error)
{
  gint64 at = wk_le32 (e);
  guint64 len = wk_le16 (e + 4) * 16u;
  if (!wk_class_span (x->size, x->base, e - x->data, at, len, 1, "VIF list", error))
    return FALSE;
  if (!wk_vif_unpacks (x->data + at, len, x->base + at, u, 3, n, error))
    return FALSE;
  gboolean tex = wk_le16 (e + 6) != 0;
  if (*n != 2u + tex || u[0].vn != 1 || u[0].vl != 1 || u[1].vn != 3
      || u[1].vl != 2 || (tex && (u[2].vn != 3 || u[2].vl != 0 || u[2].count % 4)))
    {
      wk_set_error (error, WK_ERROR_FORMAT, eabs,
                    "%u unpacks (ST V2_16, indices V4_8%s expected; the entry "
                    "says %s texture unpack)", *n, tex ? ", textures V4_32 × 4k"
                    : "", tex ? "a" : "no");
      return FALSE;
    }
  const guint8 *ih = u[1].payload;
  if (ih[3] != 0 || (tex && (ih[1] != u[1].count || u[2].addr != u[1].addr + u[1].count)))
    {
      wk_set_error (error, WK_ERROR_FORMAT, (u[1].offset + 4),
                    "index header {%u, %u, %d, %u}: the pad is not 0 or the "
                    "texture offset is not the index buffer's %u quadwords",
                    ih[0], ih[1], (gint8) ih[2], ih[3], u[1].count);
      return FALSE;
    }
  return TRUE;
}

static void
set_uv (WkMeshVertex *v, const guint8 *sts, guint j)
{
  for (int a = 0; a < 2; a++)
    v->uv[a] = wk_les16 (sts + 4 * j + 2 * a) / WK_RC2_ST_ONE;
}

/* The packet's vertex table: appends its vertices and duplicates to the
 * mesh and the cache. Returns the packet's vertex count, or -1. */
static gint
vertices (Ctx *x, const guint8 *e, gint64 eabs, const WkVifCode *st, GError **error)
{
  gint64 at = wk_le32 (e + 8);
  guint64 size = e[12] * 16u;
  guint tvc = e[15];
  gsize hsize = x->format == 2 ? 16 : 32;
  if (!wk_class_span (x->size, x->base, e + 8 - x->data, at, 1, MAX (size, hsize),
                      "vertex table", error))
    return -1;
  const guint8 *h = x->data + at;
  guint f[8];
  for (int i = 0; i < 8; i++)
    f[i] = x->format == 2 ? wk_le16 (h + 2 * i) : wk_le32 (h + 4 * i);
  guint mtc = f[0], n = f[1] + f[2] + f[3], dupes = f[4], vto = f[6];
  /* Vertex slots stored from the table on: the n vertices, then 1..6 more
   * (padding and the last, which carries spare cache indices). */
  guint64 end = x->format == 2 ? size : f[7];
  guint64 epi = end >= vto && end <= size ? (end - vto) / 16 : 0;
  epi = epi > n ? epi - n : 0;
  if (f[5] != tvc || tvc != (guint64) n + dupes || e[13] != (0xf + tvc * 6) / 16
      || e[14] != (3 + tvc) / 4 || vto % 16 || epi < 1 || epi >= INDEX_LATE)
    {
      wk_set_error (error, WK_ERROR_FORMAT, x->base + at,
                    "vertex table {%u transfers, %u+%u+%u vertices, %u "
                    "duplicates, %u sent, table at 0x%x} disagrees with its "
                    "entry {%u sent, %u, %u, %" G_GUINT64_FORMAT " bytes}",
                    mtc, f[1], f[2], f[3], dupes, f[5], vto, tvc, e[13], e[14], size);
      return -1;
    }
  guint64 dup_at = (guint64) at + hsize + 2 * (guint64) mtc;
  dup_at = (dup_at + 7) & ~(guint64) 7;
  if (dup_at + 2 * (guint64) dupes > (guint64) at + vto)
    {
      wk_set_error (error, WK_ERROR_FORMAT, x->base + at,
                    "%u matrix transfers and %u duplicates overlap the "
                    "vertices at +0x%x", mtc, dupes, vto);
      return -1;
    }
  guint nst = st->count;
  if (nst < n + dupes)
    {
      wk_set_error (error, WK_ERROR_FORMAT, eabs, "%u texture coordinates for "
                    "%u vertices and %u duplicates", nst, n, dupes);
      return -1;
    }
  const guint8 *vt = h + vto, *last = vt + 16 * (n + epi - 1);
  for (guint k = 0; k < n; k++)
    {
      const guint8 *p = vt + 16 * (gsize) k;
      guint s = k + INDEX_LATE; /* its cache index: stream entry k + 7 */
      guint idx = (s < n + epi ? wk_le16 (vt + 16 * (gsize) s)
                               : wk_le16 (last + 4 + 2 * (s - n - epi))) & (CACHE - 1);
      WkMeshVertex v = { 0 };
      for (int a = 0; a < 3; a++)
        v.pos[a] = wk_les16 (p + 0xa + 2 * a) * (x->scale / WK_RC2_POS_ONE);
      gfloat az = p[8] * (gfloat) (G_PI / 128), el = p[9] * (gfloat) (G_PI / 128);
      v.normal[0] = sinf (az) * cosf (el);
      v.normal[1] = cosf (az) * cosf (el);
      v.normal[2] = sinf (el);
      x->cache[idx] = (Slot) { v, TRUE };
      set_uv (&v, st->payload, k);
      g_array_append_val (x->mesh->vertices, v);
    }
  for (guint d = 0; d < dupes; d++)
    {
      guint idx = wk_le16 (x->data + dup_at + 2 * d) >> 7;
      if (!x->cache[idx].set)
        {
          wk_set_error (error, WK_ERROR_FORMAT, x->base + (gint64) dup_at + 2 * d,
                        "duplicate %u names cache slot %u, which no vertex "
                        "filled", d, idx);
          return -1;
        }
      WkMeshVertex v = x->cache[idx].v;
      set_uv (&v, st->payload, n + d);
      g_array_append_val (x->mesh->vertices, v);
    }
  return (gint) (n + dupes);
}

/* Walk the index buffer of a packet whose vertices start at mesh row base. */
static gboolean
indices (Ctx *x, const WkVifCode u[3], guint nu, guint base, guint nverts,
         GError **error)
{
  const gint8 *e = (const gint8 *) u[1].payload + 4;
  guint len = u[1].count * 4 - 4, ntex = nu == 3 ? u[2].count / 4 : 0;
  gint64 eabs = (u[1].offset + 4) + 4;
  /* Pass 1: the end, where a zero index meets a zero secret index. */
  guint end = len, ad = 0;
  for (guint j = 0; j < len && end == len; j++)
    {
      if (e[j] != 0)
        continue;
      gint s = ad == 0 ? (gint8) u[1].payload[2] : (gint8) u[2].payload[16 * (ad - 1) + 0xc];
      if (s == 0)
        end = j;
      else if (s < 0 || ad == ntex)
        {
          wk_set_error (error, WK_ERROR_FORMAT, eabs + j, "index %u: secret "
                        "index %d for texture %u of %u", j, s, ad, ntex);
          return FALSE;
        }
      else
        {
          gint32 t = wk_les32 (u[2].payload + TEXTURE_SIZE * ad + 0x20);
          if (t < -1 || t >= 16)
            {
              wk_set_error (error, WK_ERROR_FORMAT, (u[2].offset + 4) + TEXTURE_SIZE * ad + 0x20,
                            "texture %d (-1 none, or one of 16)", t);
              return FALSE;
            }
          ad++;
        }
    }
  if (end == len || end < IN_FLIGHT || e[end - 1] <= 0 || e[end - 2] <= 0
      || e[end - 3] <= 0)
    {
      wk_set_error (error, WK_ERROR_FORMAT, eabs, "the index buffer (%u bytes) "
                    "has no end: a 0 index with a 0 secret index after three "
                    "plain ones", len);
      return FALSE;
    }
  /* Pass 2: the strips, as the VU draws them (the last three never). */
  gboolean open = FALSE;
  guint pos = 0, w[3] = { 0 }, seen = 0;
  ad = 0;
  for (guint j = 0; j < end; j++)
    {
      gint r = e[j];
      if (r == 0)
        {
          r = (ad == 0 ? (gint8) u[1].payload[2] : (gint8) u[2].payload[16 * (ad - 1) + 0xc]) - 0x80;
          x->texture = wk_les32 (u[2].payload + TEXTURE_SIZE * ad + 0x20);
          ad++;
        }
      gint v = (r & 0x7f) - 1;
      if (v < 0 || (guint) v >= nverts)
        {
          wk_set_error (error, WK_ERROR_FORMAT, eabs + j, "index %u names "
                        "vertex %d of %u", j, v, nverts);
          return FALSE;
        }
      if (j + IN_FLIGHT >= end)
        continue; /* in flight when the VU stops: never drawn */
      gboolean restart = r < 0;
      if (restart && e[j + 1] <= 0)
        {
          open = TRUE;
          pos = 0;
        }
      else if (!open)
        {
          wk_set_error (error, WK_ERROR_FORMAT, eabs + j, "index %u continues "
                        "a strip that never started (two restart indices "
                        "open one)", j);
          return FALSE;
        }
      else
        pos += restart ? 2 : 1; /* a lone restart stands for a repeated index */
      w[0] = w[1];
      w[1] = w[2];
      w[2] = base + (guint) v;
      seen++;
      if (!restart && seen >= 3)
        {
          if ((pos - 2) % 2)
            wk_class_mesh_add_tri (x->mesh, w[1], w[0], w[2], x->texture);
          else
            wk_class_mesh_add_tri (x->mesh, w[0], w[1], w[2], x->texture);
        }
    }
  return TRUE;
}

WkClassMesh *
wk_moby_mesh_parse (const guint8 *data, gsize size, gint64 base, guint lod,
                    WkMobyInfo *info, GError **error)
{
  WkMobyInfo in = { 0 };
  if (!wk_class_head (data, size, base, lod, 2, WK_MOBY_HEADER, 0x24, "moby", &in.scale,
                      error))
    return NULL;
  gint64 table = wk_les32 (data);
  for (int i = 0; i < 3; i++)
    in.packet_count[i] = data[4 + i];
  in.joint_count = data[8];
  in.format = data[0x0b] == 0 ? 2 : 1;
  for (int i = 0; i < 4; i++)
    in.bsphere[i] = wk_lef32 (data + 0x30 + 4 * i);
  in.has_mesh = table != 0;
  g_autoptr (WkClassMesh) mesh = wk_class_mesh_new (TRUE);
  if (in.has_mesh)
    {
      guint first = lod ? in.packet_count[0] : 0, count = in.packet_count[lod];
      if (!wk_class_span (size, base, 0, table, (guint64) first + count,
                          WK_MOBY_PACKET_ENTRY, "packet table", error))
        return NULL;
      g_autofree Slot *cache = g_new0 (Slot, CACHE);
      Ctx x = { data, size, base, in.format, in.scale, 0, cache, mesh };
      for (guint i = first; i < first + count; i++)
        {
          const guint8 *e = data + table + WK_MOBY_PACKET_ENTRY * i;
          gint64 eabs = base + table + WK_MOBY_PACKET_ENTRY * (gint64) i;
          WkVifCode u[3];
          guint nu, row = mesh->vertices->len;
          gint nv;
          if (!unpacks (&x, e, eabs, u, &nu, error)
              || (nv = vertices (&x, e, eabs, &u[0], error)) < 0
              || !indices (&x, u, nu, row, (guint) nv, error))
            {
              wk_error_prefix (error, "LOD %u packet %u", lod, i - first);
              return NULL;
            }
        }
    }
  if (info)
    *info = in;
  return g_steal_pointer (&mesh);
}
