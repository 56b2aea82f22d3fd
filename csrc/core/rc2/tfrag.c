#include "tfrag.h"
#include "tfrag_priv.h"

#include "rc2_texture.h"

#include "../common/wk_reader.h"
#include "vif.h"

enum { L_LOD2, L_COMMON, L_LOD1, L_LOD01, L_LOD0, N_LISTS };
static const char *const list_names[N_LISTS] = {
  "LOD 2 list", "common list", "LOD 1 list", "LOD 0+1 list", "LOD 0 list"
};

void
wk_tfrags_free (WkTfrags *t)
{
  if (t == NULL)
    return;
  g_clear_pointer (&t->patches, g_array_unref);
  g_clear_pointer (&t->decoded, g_array_unref);
  g_free (t);
}

static gboolean
set_span (Span *s, const WkVifCode *c, const char *what, GError **error)
{
  if (s->p != NULL)
    {
      wk_set_error (error, WK_ERROR_FORMAT, c->offset, "a second %s unpack", what);
      return FALSE;
    }
  s->p = c->payload;
  s->n = c->count;
  s->abs = c->offset + 4;
  return TRUE;
}

/* Tier of a list for positions / vertex info; -1 if they do not belong. */
static int
tier_of (int list)
{
  return list == L_COMMON ? 0 : list == L_LOD01 ? 1 : list == L_LOD0 ? 2 : -1;
}

/* LOD whose strips / indices a list carries; -1 if none. */
static int
lod_of (int list)
{
  return list == L_LOD2 ? 2 : list == L_LOD1 ? 1 : list == L_LOD0 ? 0 : -1;
}

static gboolean
classify (Patch *pt, int list, const WkVifCode *c, const gint32 row[4],
          GError **error)
{
  if (c->vn == 3 && c->vl == 1 && c->usn && c->addr == 0 && list == L_COMMON
      && !pt->have_header)
    {
      if (c->count != 5)
        {
          wk_set_error (error, WK_ERROR_FORMAT, c->offset,
                        "VU header of %u quadwords, 5 expected", c->count);
          return FALSE;
        }
      pt->strips_addr = wk_le16 (c->payload + 18 * 2);
      pt->indices_addr = wk_le16 (c->payload + 13 * 2);
      pt->have_header = TRUE;
      return TRUE;
    }
  int tier = tier_of (list), lod = lod_of (list);
  if (c->vn == 3 && c->vl == 0) /* V4_32: ad-gifs, 5 quadwords each */
    {
      if (list != L_COMMON || c->count % 5)
        {
          wk_set_error (error, WK_ERROR_FORMAT, c->offset,
                        "ad-gif unpack of %u quadwords in the %s", c->count,
                        list_names[list]);
          return FALSE;
        }
      return set_span (&pt->adgifs, c, "ad-gif", error);
    }
  if (c->vn == 2 && c->vl == 1) /* V3_16: positions */
    {
      if (tier < 0)
        goto misplaced;
      memcpy (pt->origin[tier], row, sizeof pt->origin[tier]);
      return set_span (&pt->pos[tier], c, "position", error);
    }
  if (c->vn == 3 && c->vl == 1) /* V4_16: vertex info */
    {
      if (tier < 0)
        goto misplaced;
      return set_span (&pt->vinfo[tier], c, "vertex info", error);
    }
  if (c->vn == 3 && c->vl == 2) /* V4_8: strips, indices or parents */
    {
      if (!pt->have_header)
        return TRUE; /* classified once the header is known (second pass) */
      if (c->addr == pt->strips_addr || c->addr == pt->indices_addr)
        {
          if (lod < 0)
            goto misplaced;
          gboolean strips = c->addr == pt->strips_addr;
          return set_span (strips ? &pt->strips[lod] : &pt->indices[lod], c,
                           strips ? "strip" : "index", error);
        }
      return TRUE; /* LOD parents and the second index table: not drawn */
    }
  wk_set_error (error, WK_ERROR_FORMAT, c->offset,
                "unexpected unpack (vn %u, vl %u) in the %s", c->vn, c->vl,
                list_names[list]);
  return FALSE;
misplaced:
  wk_set_error (error, WK_ERROR_FORMAT, c->offset,
                "unpack (vn %u, vl %u, address 0x%x) does not belong in the %s",
                c->vn, c->vl, c->addr, list_names[list]);
  return FALSE;
}

/* Walk one list. pass 0 only looks for the VU header; pass 1 classifies. */
static gboolean
walk (Patch *pt, WkReader *r, int list, int pass, gint32 row[4], GError **error)
{
  while (wk_reader_left (r) > 0)
    {
      WkVifCode c;
      if (!wk_vif_next (r, &c, error))
        return FALSE;
      if (c.cmd == WK_VIF_STROW)
        for (int i = 0; i < 4; i++)
          row[i] = wk_les32 (c.payload + 4 * i);
      if (!c.unpack)
        continue;
      if (pass == 0)
        {
          if (list == L_COMMON && c.vn == 3 && c.vl == 1 && c.usn && c.addr == 0)
            return classify (pt, list, &c, row, error);
          continue;
        }
      if (list == L_COMMON && pt->have_header && c.vn == 3 && c.vl == 1
          && c.usn && c.addr == 0)
        continue; /* the header again, found in pass 0 */
      if (!classify (pt, list, &c, row, error))
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  guint vert_total, rgba_count, ad_gifs;
  gint texture_count;
} Ctx;

/* Vertex info v (an index into the tiers in order) of a patch. */
static const guint8 *
vinfo_at (const Patch *pt, guint v, gint64 *abs)
{
  int t = 0;
  while (t < 2 && v >= pt->vinfo[t].n)
    v -= pt->vinfo[t++].n;
  if (abs)
    *abs = pt->vinfo[t].abs + 8 * (gint64) v;
  return pt->vinfo[t].p + 8 * (gsize) v;
}

/* Check the strips of one LOD: records, ad-gifs, textures and indices;
 * with check_vertices also where each vertex info points. Returns the
 * triangle count or -1. */
static gint
strips (const Patch *pt, const Ctx *x, guint lod, gboolean check_vertices,
        GError **error)
{
  const Span *s = &pt->strips[lod], *ix = &pt->indices[lod];
  guint vinfo_n = pt->vinfo[0].n + (lod <= 1 ? pt->vinfo[1].n : 0)
                  + (lod == 0 ? pt->vinfo[2].n : 0);
  guint nidx = ix->n * 4, k = 0;
  gint tris = 0, adgif = -1;
  for (guint r = 0; r < s->n; r++)
    {
      const guint8 *rec = s->p + 4 * r;
      gint64 rec_abs = s->abs + 4 * (gint64) r;
      gint raw = (gint8) rec[0];
      if (raw == 0)
        break;
      if (r == 0 && raw > 0)
        {
          wk_set_error (error, WK_ERROR_FORMAT, rec_abs,
                        "LOD %u: the first strip record (%d) is not biased",
                        lod, raw);
          return -1;
        }
      guint n = wk_tfrag_record (rec, &adgif);
      if (adgif < 0 || (guint) adgif >= x->ad_gifs)
        {
          wk_set_error (error, WK_ERROR_FORMAT, rec_abs,
                        "LOD %u strip %u: ad-gif %d outside the %u ad-gifs",
                        lod, r, adgif, x->ad_gifs);
          return -1;
        }
      if (n < 3 || k + n > nidx)
        {
          wk_set_error (error, WK_ERROR_FORMAT, rec_abs,
                        "LOD %u strip %u: %u vertices (indices %u..%u of %u)",
                        lod, r, n, k, k + n, nidx);
          return -1;
        }
      gint32 texture = wk_les32 (pt->adgifs.p + (gsize) adgif * 80);
      if (x->texture_count >= 0 && (texture < 0 || texture >= x->texture_count))
        {
          wk_set_error (error, WK_ERROR_FORMAT, pt->adgifs.abs + adgif * 80,
                        "ad-gif %d names texture %d, the table has %d", adgif,
                        texture, x->texture_count);
          return -1;
        }
      for (guint j = 0; j < n; j++)
        {
          guint i = ix->p[k + j];
          if (i >= vinfo_n)
            {
              wk_set_error (error, WK_ERROR_FORMAT, ix->abs + k + j,
                            "LOD %u strip %u: index %u outside the %u vertex "
                            "infos of this LOD", lod, r, i, vinfo_n);
              return -1;
            }
          if (!check_vertices)
            continue;
          gint64 vabs;
          gint vertex = wk_les16 (vinfo_at (pt, i, &vabs) + 6);
          guint p = (guint) vertex / 2;
          if (vertex < 0 || p >= x->vert_total || p >= x->rgba_count)
            {
              wk_set_error (error, WK_ERROR_FORMAT, vabs + 6,
                            "vertex info %u points at position %d/2, the "
                            "patch has %u (and %u colours)", i, vertex,
                            x->vert_total, x->rgba_count);
              return -1;
            }
        }
      k += n;
      tris += (gint) n - 2;
    }
  return tris;
}

/* Write the triangles of one LOD of a checked patch from row d->tri_base. */
static void
emit (const Decoded *d, guint lod, const WkTfragOut *out)
{
  const Patch *pt = &d->pt;
  const Span *s = &pt->strips[lod], *ix = &pt->indices[lod];
  gsize t = d->tri_base;
  guint k = 0;
  gint adgif = -1;
  for (guint r = 0; r < s->n; r++)
    {
      const guint8 *rec = s->p + 4 * r;
      guint n = wk_tfrag_record (rec, &adgif);
      if (n == 0)
        break;
      gint32 texture = wk_les32 (pt->adgifs.p + (gsize) adgif * 80);
      for (guint j = 0; j + 2 < n; j++, t++)
        {
          guint corner[3];
          wk_tfrag_corners (ix->p + k, j, corner);
          for (int c = 0; c < 3; c++)
            {
              const guint8 *vi = vinfo_at (pt, corner[c], NULL);
              gint16 st[2] = { wk_les16 (vi), wk_les16 (vi + 2) };
              guint p = (guint) wk_les16 (vi + 6) / 2;
              out->triangles[3 * t + (gsize) c] = d->pos_base + p;
              for (int a = 0; a < 2; a++) /* see docs: negative halves */
                out->uv[6 * t + 2 * (gsize) c + (gsize) a]
                    = st[a] / (st[a] < 0 ? 8192.0f : 4096.0f);
              for (int a = 0; a < 4; a++)
                out->color[12 * t + 4 * (gsize) c + (gsize) a]
                    = d->rgba[4 * p + (guint) a] / 128.0f;
            }
          out->texture[t] = texture;
          out->patch[t] = d->index;
        }
      k += n;
    }
}

static gboolean
parse_patch (const guint8 *block, gsize size, gint64 base, guint32 table,
             guint index, guint lod, gint texture_count, WkTfrags *out,
             GError **error)
{
  const guint8 *h = block + table + (gsize) index * WK_TFRAG_HEADER;
  gint64 habs = base + table + (gint64) index * WK_TFRAG_HEADER;
  WkTfragPatch info = { 0 };
  for (int i = 0; i < 4; i++)
    info.bsphere[i] = wk_lef32 (h + 4 * i);
  gint32 data_rel = wk_les32 (h + 0x10);
  guint16 ofs[6];
  for (int i = 0; i < 6; i++)
    ofs[i] = wk_le16 (h + 0x14 + 2 * i);
  guint lod2 = ofs[0], shared = ofs[1], lod1 = ofs[2], lod01 = ofs[3];
  guint rgba = ofs[5];
  guint lod1_size = h[0x22], rgba_size = h[0x29];
  guint lod0 = shared + lod1_size * 16;
  info.flags = h[0x2d];
  info.occl_index = wk_le16 (h + 0x3a);
  info.vert_count = h[0x3c];
  info.tri_count = h[0x3d];
  info.mip_dist = wk_le16 (h + 0x3e);

  guint64 data = (guint64) table + (guint64) (gint64) data_rel;
  if (data_rel < 0 || data > size
      || !(lod2 <= shared && shared <= lod1 && lod1 <= lod01 && lod01 <= lod0
           && lod0 <= rgba)
      || data + rgba + (guint64) rgba_size * 16 > size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, habs + 0x10,
                    "data 0x%x + lists 0x%x/0x%x/0x%x/0x%x/0x%x, rgba 0x%x + %u "
                    "quadwords: out of order or past the %" G_GSIZE_FORMAT
                    "-byte block", data_rel, lod2, shared, lod1, lod01, lod0,
                    rgba, rgba_size, size);
      return FALSE;
    }
  info.offset = (gsize) (base + (gint64) data);
  const guint8 *d = block + data;
  guint bounds[N_LISTS][2] = { { lod2, shared }, { shared, lod1 },
                               { lod1, lod01 }, { lod01, lod0 }, { lod0, rgba } };
  Patch pt = { 0 };
  gint32 row[4] = { 0 };
  for (int pass = 0; pass < 2; pass++)
    {
      if (pass == 1 && !pt.have_header)
        {
          wk_set_error (error, WK_ERROR_FORMAT, (gint64) info.offset + shared,
                        "the common list has no VU header");
          return FALSE;
        }
      memset (row, 0, sizeof row);
      for (int l = pass ? 0 : L_COMMON; l < N_LISTS; l++)
        {
          WkReader r;
          wk_reader_init (&r, d + bounds[l][0], bounds[l][1] - bounds[l][0],
                          (gint64) info.offset + bounds[l][0]);
          if (!walk (&pt, &r, l, pass, row, error))
            {
              wk_error_prefix (error, "%s", list_names[l]);
              return FALSE;
            }
          if (pass == 0)
            break;
        }
    }
  for (int l = 0; l < 3; l++)
    if (pt.strips[l].p == NULL || pt.indices[l].p == NULL)
      {
        wk_set_error (error, WK_ERROR_FORMAT, (gint64) info.offset,
                      "LOD %d has no %s", l, pt.strips[l].p ? "indices" : "strips");
        return FALSE;
      }
  Ctx x = { .vert_total = pt.pos[0].n + pt.pos[1].n + pt.pos[2].n,
            .rgba_count = rgba_size * 4, .ad_gifs = pt.adgifs.n / 5,
            .texture_count = texture_count };
  info.ad_gifs = x.ad_gifs;
  if (x.vert_total != info.vert_count)
    {
      wk_set_error (error, WK_ERROR_FORMAT, habs + 0x3c,
                    "the lists hold %u positions (%u common, %u LOD 0+1, %u "
                    "LOD 0), the header says vert_count %u", x.vert_total,
                    pt.pos[0].n, pt.pos[1].n, pt.pos[2].n, info.vert_count);
      return FALSE;
    }
  for (int l = 0; l < 3; l++)
    {
      gint n = strips (&pt, &x, (guint) l, (guint) l == lod, error);
      if (n < 0)
        return FALSE;
      info.lod_tris[l] = (guint) n;
    }
  if (info.lod_tris[0] != info.tri_count)
    {
      wk_set_error (error, WK_ERROR_FORMAT, habs + 0x3d,
                    "the LOD 0 strips make %u triangles, the header says "
                    "tri_count %u", info.lod_tris[0], info.tri_count);
      return FALSE;
    }
  if (out->n_positions + x.vert_total > G_MAXUINT32)
    {
      wk_set_error (error, WK_ERROR_FORMAT, habs + 0x3c,
                    "more than 2^32 positions in the block");
      return FALSE;
    }
  Decoded dec = { .pt = pt, .rgba = d + rgba, .pos_base = (guint32) out->n_positions,
                  .tri_base = out->n_tris, .index = (gint32) index };
  g_array_append_val (out->decoded, dec);
  out->n_positions += x.vert_total;
  out->n_tris += info.lod_tris[lod];
  g_array_append_val (out->patches, info);
  return TRUE;
}

/* A patch whose header and data (the lists and colours, all parse_patch
 * reads) hold the bytes they hold in `old`, a block of the same size that
 * parsed: it parses as it did there. */
static gboolean
same_patch (const guint8 *block, const guint8 *old, guint32 table, guint index)
{
  const guint8 *h = block + table + (gsize) index * WK_TFRAG_HEADER;
  if (memcmp (h, old + (h - block), WK_TFRAG_HEADER) != 0)
    return FALSE;
  gsize data = table + (gsize) wk_les32 (h + 0x10);
  gsize end = data + wk_le16 (h + 0x1e) + 16 * (gsize) h[0x29];
  return memcmp (block + data, old + data, end - data) == 0;
}

static WkTfrags *
parse (const guint8 *block, gsize size, const guint8 *old, gint64 base, guint lod,
       gint texture_count, GError **error)
{
  if (lod > 2)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "LOD %u: tfrags have 0, 1, 2", lod);
      return NULL;
    }
  if (size < 12)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "tfrags block of %"
                    G_GSIZE_FORMAT " bytes has no header", size);
      return NULL;
    }
  gint32 table = wk_les32 (block), count = wk_les32 (block + 4);
  if (table < 12 || count < 0 || (guint64) table > size
      || (guint64) count > (size - (gsize) table) / WK_TFRAG_HEADER)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base,
                    "table at 0x%x with %d patches does not fit the %"
                    G_GSIZE_FORMAT "-byte block", table, count, size);
      return NULL;
    }
  if (old && memcmp (block, old, 12) != 0)
    old = NULL;                 /* another table: every patch is parsed */
  g_autoptr (WkTfrags) t = g_new0 (WkTfrags, 1);
  t->lod = lod;
  t->lod_distance = wk_lef32 (block + 8);
  t->patches = g_array_sized_new (FALSE, FALSE, sizeof (WkTfragPatch), (guint) count);
  t->decoded = g_array_sized_new (FALSE, FALSE, sizeof (Decoded), (guint) count);
  for (gint32 i = 0; i < count; i++)
    if (!(old && same_patch (block, old, (guint32) table, (guint) i))
        && !parse_patch (block, size, base, (guint32) table, (guint) i, lod,
                         texture_count, t, error))
      {
        wk_error_prefix (error, "tfrag patch %d", i);
        return NULL;
      }
  return g_steal_pointer (&t);
}

WkTfrags *
wk_tfrags_parse (const guint8 *block, gsize size, gint64 base, guint lod,
                 gint texture_count, GError **error)
{
  return parse (block, size, NULL, base, lod, texture_count, error);
}

gboolean
wk_tfrags_recheck (const guint8 *block, gsize size, const guint8 *old, gint64 base,
                   gint texture_count, GError **error)
{
  g_autoptr (WkTfrags) t = parse (block, size, old, base, 0, texture_count, error);
  return t != NULL;
}

void
wk_tfrags_fill (const WkTfrags *t, const WkTfragOut *out)
{
  for (guint i = 0; i < t->decoded->len; i++)
    {
      const Decoded *d = &g_array_index (t->decoded, Decoded, i);
      gfloat *v = out->positions + 3 * (gsize) d->pos_base;
      for (int tier = 0; tier < 3; tier++)
        for (guint j = 0; j < d->pt.pos[tier].n; j++, v += 3)
          {
            const guint8 *p = d->pt.pos[tier].p + 6 * j;
            for (int a = 0; a < 3; a++)
              v[a] = (gfloat) ((gint64) wk_les16 (p + 2 * a)
                               + d->pt.origin[tier][a]) / 1024.0f;
          }
      emit (d, t->lod, out);
    }
}

void
wk_rc2_texture_rgba (const guint8 *pixels, guint w, guint h,
                     const guint8 *palette, guint8 *out)
{
  guint8 lut[256][4];
  for (guint i = 0; i < 256; i++)
    {
      /* The GS stores a 256-colour CLUT with index bits 3 and 4 swapped. */
      guint j = wk_rc2_clut_index (i);
      memcpy (lut[i], palette + 4 * j, 4);
      guint a = lut[i][3];
      lut[i][3] = (guint8) (a < 0x80 ? a * 2 : 255);
    }
  for (gsize i = 0; i < (gsize) w * h; i++)
    memcpy (out + 4 * i, lut[pixels[i]], 4);
}
