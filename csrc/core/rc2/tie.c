#include "tie.h"

#include <stdlib.h>

/* Packet body (docs/formats/rc2-classes.md, "Tie classes"). */
enum {
  BODY_AD_DEST = 0x00,  /* s32[4]: GS offsets of ad-gifs 1..3 (0 = none) */
  BODY_AD_SRC = 0x10,   /* s32[4]: class ad-gif byte offsets of ad-gifs 0..3 */
  BODY_UNPACK = 0x20,   /* u8[12]; [3] strips, [8] 2 * regular + 4, [10]
                           regular count, [11] morphing count */
  BODY_STRIPS = 0x2c,   /* 4-byte strip records */
  REGULAR_SIZE = 16,
  MORPH_SIZE = 24,
  GS_AD_GIF = 6,        /* GS packet quadwords of an ad-gif */
  GS_STRIP = 1,         /* of a strip's GIF tag */
  GS_VERTEX = 3,        /* of a vertex (ST, RGBAQ, XYZ) */
  TIE_Q_ONE = 4096,
};

typedef struct {
  guint ofs;            /* GS packet offset */
  guint order;          /* rank, for a stable sort */
  const guint8 *rec;    /* vertex record */
  gboolean morph;
} Slot;

static int
slot_cmp (const void *a, const void *b)
{
  const Slot *x = a, *y = b;
  if (x->ofs != y->ofs)
    return x->ofs < y->ofs ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

typedef struct {
  const guint8 *data;
  gsize size;
  gint64 base;
  gfloat scale;
  guint texture_count;
  WkClassMesh *mesh;
  guint strips;
} Ctx;

/* The ad-gif that packet slot k names (its source offset), or -1. */
static gint
ad_gif (const Ctx *x, const guint8 *body, gint64 body_abs, guint k,
        GError **error)
{
  gint32 src = wk_les32 (body + BODY_AD_SRC + 4 * k);
  if (src < 0 || src % WK_TIE_AD_GIF || (guint32) src / WK_TIE_AD_GIF >= x->texture_count)
    {
      wk_set_error (error, WK_ERROR_FORMAT, body_abs + BODY_AD_SRC + 4 * k,
                    "ad-gif source offset 0x%x is not one of the %u ad-gifs "
                    "(0x50 bytes each)", (guint32) src, x->texture_count);
      return -1;
    }
  return src / (gint) WK_TIE_AD_GIF;
}

static void
add_vertex (Ctx *x, const Slot *s)
{
  const guint8 *r = s->rec;
  const guint8 *xyz = s->morph ? r + 8 : r, *st = s->morph ? r + 0x10 : r + 8;
  WkMeshVertex v = { 0 };
  for (int a = 0; a < 3; a++)
    v.pos[a] = wk_les16 (xyz + 2 * a) * (x->scale / WK_RC2_POS_ONE);
  for (int a = 0; a < 2; a++)
    v.uv[a] = wk_les16 (st + 2 * a) / WK_RC2_ST_ONE;
  g_array_append_val (x->mesh->vertices, v);
}

/* Collect, check, sort and deduplicate a packet's vertex slots. */
static Slot *
slots_of (const guint8 *verts, gint64 verts_abs, guint nreg, guint nmorph,
          guint *n_out, GError **error)
{
  Slot *s = g_new (Slot, 2 * (gsize) (nreg + nmorph) + 1);
  guint n = 0;
  for (guint i = 0; i < nreg + nmorph; i++)
    {
      gboolean morph = i >= nreg;
      gsize at = morph ? nreg * REGULAR_SIZE + (i - nreg) * MORPH_SIZE
                       : i * REGULAR_SIZE;
      const guint8 *r = verts + at;
      guint q = wk_le16 (r + (morph ? 0x14 : 0x0c));
      if (q != TIE_Q_ONE)
        {
          wk_set_error (error, WK_ERROR_FORMAT, verts_abs + (gint64) at,
                        "%s vertex %u has q = %u, not %u", morph ? "morphing"
                        : "regular", morph ? i - nreg : i, q, TIE_Q_ONE);
          g_free (s);
          return NULL;
        }
      guint o1 = wk_le16 (r + 6), o2 = wk_le16 (r + (morph ? 0x16 : 0x0e));
      s[n] = (Slot) { o1, n, r, morph };
      n++;
      if (o2 != 0 && o2 != o1) /* the same vertex written twice */
        {
          s[n] = (Slot) { o2, n, r, morph };
          n++;
        }
    }
  qsort (s, n, sizeof *s, slot_cmp);
  /* Small packets repeat a vertex at the same offset as padding: keep the
   * first of each offset. */
  guint m = 0;
  for (guint i = 0; i < n; i++)
    if (m == 0 || s[i].ofs != s[m - 1].ofs)
      s[m++] = s[i];
  *n_out = m;
  return s;
}

/* Replay the GS packet of one checked packet. */
static gboolean
walk (Ctx *x, const guint8 *body, gint64 body_abs, const guint8 *strips,
      guint nstrips, Slot *slots, guint nslots, GError **error)
{
  guint next = 0, si = 0, vi = 0, ad = 1;
  gint material = ad_gif (x, body, body_abs, 0, error);
  if (material < 0)
    return FALSE;
  next += GS_AD_GIF; /* the first ad-gif opens every GS packet */
  guint remaining = 0, k = 0, base = 0;
  gboolean flip = FALSE, open = FALSE;
  gint strip_material = material;
  while (si < nstrips || vi < nslots)
    {
      const guint8 *rec = strips + 4 * si;
      if (si < nstrips && rec[2] == next)
        {
          if (remaining)
            goto short_strip;
          guint n = rec[0];
          if (n < 3)
            {
              wk_set_error (error, WK_ERROR_FORMAT, body_abs + BODY_STRIPS + 4 * si,
                            "strip %u has %u vertices", si, n);
              return FALSE;
            }
          remaining = n;
          k = 0;
          base = x->mesh->vertices->len;
          flip = rec[3] != 0;
          strip_material = material;
          open = TRUE;
          si++;
          x->strips++;
          next += GS_STRIP;
          continue;
        }
      if (vi < nslots && slots[vi].ofs == next)
        {
          if (!open || remaining == 0)
            {
              wk_set_error (error, WK_ERROR_FORMAT, body_abs,
                            "a vertex at GS offset %u is outside every strip "
                            "(strip %u declares fewer vertices)", next,
                            si ? si - 1 : 0);
              return FALSE;
            }
          add_vertex (x, &slots[vi]);
          if (k >= 2)
            {
              guint i = base + k;
              if (k % 2 == (guint) flip)
                wk_class_mesh_add_tri (x->mesh, i - 2, i - 1, i, strip_material);
              else
                wk_class_mesh_add_tri (x->mesh, i, i - 1, i - 2, strip_material);
            }
          k++;
          remaining--;
          vi++;
          next += GS_VERTEX;
          continue;
        }
      if (ad < 4 && (guint32) wk_les32 (body + BODY_AD_DEST + 4 * (ad - 1)) == next)
        {
          if (remaining)
            goto short_strip;
          material = ad_gif (x, body, body_abs, ad, error);
          if (material < 0)
            return FALSE;
          ad++;
          next += GS_AD_GIF;
          continue;
        }
      wk_set_error (error, WK_ERROR_FORMAT, body_abs,
                    "the GS walk stalls at offset %u: no strip, vertex or "
                    "ad-gif there (%u of %u strips, %u of %u vertices done)",
                    next, si, nstrips, vi, nslots);
      return FALSE;
    }
  if (remaining)
    goto short_strip;
  for (; ad < 4; ad++)
    if (wk_les32 (body + BODY_AD_DEST + 4 * (ad - 1)) != 0)
      {
        wk_set_error (error, WK_ERROR_FORMAT, body_abs + BODY_AD_DEST + 4 * (ad - 1),
                      "ad-gif %u at GS offset %d is never reached", ad,
                      wk_les32 (body + BODY_AD_DEST + 4 * (ad - 1)));
        return FALSE;
      }
  return TRUE;
short_strip:
  wk_set_error (error, WK_ERROR_FORMAT, body_abs + BODY_STRIPS + 4 * (si - 1),
                "strip %u declares %u vertices more than the GS packet holds",
                si - 1, remaining);
  return FALSE;
}

static gboolean
packet (Ctx *x, gint64 table, guint j, GError **error)
{
  const guint8 *h = x->data + table + (gsize) j * WK_TIE_PACKET_HEADER;
  gint64 habs = x->base + table + (gint64) j * WK_TIE_PACKET_HEADER;
  gint64 body_at = table + wk_les32 (h);
  guint vert_ofs = h[8] * 16u, vert_size = h[9] * 16u;
  if (!wk_class_span (x->size, x->base, habs - x->base, body_at, 1, BODY_STRIPS,
                      "packet body", error))
    return FALSE;
  const guint8 *body = x->data + body_at;
  gint64 body_abs = x->base + body_at;
  const guint8 *u = body + BODY_UNPACK;
  guint nstrips = u[3], nreg = u[10], nmorph = u[11];
  guint strips_end = BODY_STRIPS + 4 * nstrips;
  if (vert_ofs != ((strips_end + 15) & ~15u))
    {
      wk_set_error (error, WK_ERROR_FORMAT, habs + 8,
                    "vertices at 0x%x, but %u strips end at 0x%x", vert_ofs,
                    nstrips, strips_end);
      return FALSE;
    }
  if (u[8] < 4 || (u[8] - 4u) / 2 != nreg
      || nreg * REGULAR_SIZE + nmorph * MORPH_SIZE > vert_size
      || (vert_size - nreg * REGULAR_SIZE) / MORPH_SIZE != nmorph)
    {
      wk_set_error (error, WK_ERROR_FORMAT, body_abs + BODY_UNPACK,
                    "vertex counts disagree: %u regular (size field %u), %u "
                    "morphing, %u bytes of vertices", nreg, u[8], nmorph, vert_size);
      return FALSE;
    }
  if (!wk_class_span (x->size, x->base, habs + 8 - x->base, body_at + vert_ofs, 1, vert_size,
                      "packet vertices", error))
    return FALSE;
  guint nslots;
  g_autofree Slot *slots = slots_of (body + vert_ofs, body_abs + vert_ofs, nreg,
                                     nmorph, &nslots, error);
  if (slots == NULL)
    return FALSE;
  return walk (x, body, body_abs, body + BODY_STRIPS, nstrips, slots, nslots, error);
}

WkClassMesh *
wk_tie_mesh_parse (const guint8 *data, gsize size, gint64 base, guint lod,
                   WkTieInfo *info, GError **error)
{
  WkTieInfo in = { 0 };
  if (!wk_class_head (data, size, base, lod, 3, WK_TIE_HEADER, 0x40, "tie", &in.scale, error))
    return NULL;
  for (int i = 0; i < 3; i++)
    {
      in.packet_count[i] = data[0x0c + i];
      in.dist[i] = wk_lef32 (data + 0x10 + 4 * i);
      for (int c = 0; c < 3; c++)
        in.lod_header[i][c] = wk_les16 (data + 0x60 + 8 * i + 2 * c);
    }
  in.texture_count = data[0x0f];
  in.o_class = wk_les16 (data + 0x44);
  in.mip_dist = wk_lef32 (data + 0x48);
  for (int i = 0; i < 4; i++)
    in.bsphere[i] = wk_lef32 (data + 0x50 + 4 * i);
  if (in.texture_count > 16
      || !wk_class_span (size, base, 0x1c, wk_les32 (data + 0x1c), in.texture_count,
                         WK_TIE_AD_GIF, "ad-gif table", error))
    {
      if (in.texture_count > 16)
        wk_set_error (error, WK_ERROR_FORMAT, base + 0x0f,
                      "%u textures, a class has at most 16", in.texture_count);
      return NULL;
    }
  gint64 table = wk_les32 (data + 4 * lod);
  if (!wk_class_span (size, base, 4 * lod, table, in.packet_count[lod],
                      WK_TIE_PACKET_HEADER, "packet table", error))
    {
      wk_error_prefix (error, "LOD %u", lod);
      return NULL;
    }
  g_autoptr (WkClassMesh) mesh = wk_class_mesh_new (FALSE);
  Ctx x = { data, size, base, in.scale, in.texture_count, mesh, 0 };
  for (guint j = 0; j < in.packet_count[lod]; j++)
    if (!packet (&x, table, j, error))
      {
        wk_error_prefix (error, "LOD %u packet %u", lod, j);
        return NULL;
      }
  in.strips = x.strips;
  if (info)
    *info = in;
  return g_steal_pointer (&mesh);
}
