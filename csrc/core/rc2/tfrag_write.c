/* The tfrag writer: one patch per mesh, every vertex in the common tier,
 * the same strips for all three LODs, lists laid out as the game's. */
#include "tfrag.h"

#include <math.h>

#include "../common/wk_num.h"
#include "../common/wk_reader.h"

static void
put_code (GByteArray *o, guint cmd, guint num, guint imm)
{
  wk_put_u32 (o, imm | (num << 16) | (cmd << 24));
}

static void
put_unpack (GByteArray *o, guint vn, guint vl, const guint8 *data, gsize size,
            guint addr, gboolean usn)
{
  guint elem = ((32u >> vl) * (vn + 1)) / 8;
  guint n = (guint) (size / elem);
  put_code (o, 0x60 | (vn << 2) | vl, n & 0xff, addr | (usn ? 1u << 14 : 0));
  wk_put_bytes (o, data, size);
  static const guint8 zero[4] = { 0 };
  wk_put_bytes (o, zero, (4 - size % 4) % 4);
}

static void
put_strow (GByteArray *o, gint32 a, gint32 b, gint32 c, gint32 d)
{
  put_code (o, 0x30, 0, 0);
  wk_put_u32 (o, (guint32) a);
  wk_put_u32 (o, (guint32) b);
  wk_put_u32 (o, (guint32) c);
  wk_put_u32 (o, (guint32) d);
}

static void
pad16 (GByteArray *o, gsize start)
{
  while ((o->len - start) % 16)
    wk_put_u8 (o, 0);
}

#define LIMIT(...)                                                      \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    wk_error_prefix (error, "%s %u", what, m);                          \
    return FALSE;                                                       \
  } G_STMT_END

/* Append patch m's data to o (16-aligned already); fill its header h. */
static gboolean
write_patch (GByteArray *o, const WkTfragMesh *x, guint m, const char *what,
             guint8 *h, GError **error)
{
  if (x->n == 0 || x->n > 255)
    LIMIT ("%u vertices (a patch holds 1..255)", x->n);
  /* Origin: the rounded centre of the bounding box, in 1/1024 units. */
  gdouble lo[3], hi[3];
  for (int a = 0; a < 3; a++)
    lo[a] = hi[a] = x->pos[a];
  for (guint i = 0; i < x->n; i++)
    for (int a = 0; a < 3; a++)
      {
        gdouble v = x->pos[3 * i + a];
        if (!isfinite (v))
          LIMIT ("vertex %u is not finite", i);
        lo[a] = MIN (lo[a], v);
        hi[a] = MAX (hi[a], v);
      }
  gint32 origin[3];
  for (int a = 0; a < 3; a++)
    {
      gdouble c = round ((lo[a] + hi[a]) / 2 * 1024);
      if (fabs (c) > 2e9 || (hi[a] - lo[a]) * 1024 / 2 > 32000)
        LIMIT ("extent %g..%g on axis %d does not fit s16 around an s32 origin",
               lo[a], hi[a], a);
      origin[a] = (gint32) c;
    }
  /* Triangles, textures, strip lengths. */
  guint tris = 0, used = 0;
  g_autoptr (GArray) textures = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr (GArray) strip_ad = g_array_new (FALSE, FALSE, sizeof (gint));
  for (guint s = 0; s < x->nstrips; s++)
    {
      guint n = x->strip_len[s];
      if (n < 3 || n > 127)
        LIMIT ("strip %u has %u vertices (3..127)", s, n);
      if (used + n > x->nidx)
        LIMIT ("strip %u runs past the %u indices", s, x->nidx);
      for (guint j = 0; j < n; j++)
        if (x->idx[used + j] >= x->n)
          LIMIT ("strip %u: index %u of %u vertices", s, x->idx[used + j], x->n);
      used += n;
      tris += n - 2;
      gint ad = -1;
      for (guint t = 0; t < textures->len; t++)
        if (g_array_index (textures, gint32, t) == x->strip_tex[s])
          ad = (gint) t;
      if (ad < 0)
        {
          ad = (gint) textures->len;
          g_array_append_val (textures, x->strip_tex[s]);
        }
      if (ad > 25)
        LIMIT ("more than 26 textures in one patch");
      g_array_append_val (strip_ad, ad);
    }
  if (x->nstrips == 0 || tris > 255)
    LIMIT ("%u triangles (a patch holds 1..255)", tris);

  guint nad = textures->len, nq_idx = (used + 3) / 4;
  guint a_adgif = 9, a_pos = a_adgif + 5 * nad, a_vinfo = a_pos + 2 * x->n;
  guint a_ind = a_vinfo + x->n, a_strip = a_ind + nq_idx;
  guint vu_end = a_strip + x->nstrips + 1;
  if (nq_idx > 256 || x->nstrips + 1 > 256)
    LIMIT ("%u indices / %u strips do not fit one unpack", used, x->nstrips);
  if (vu_end > WK_TFRAG_VU_LIMIT)
    LIMIT ("needs %u quadwords of VU memory, the limit is %u", vu_end,
           WK_TFRAG_VU_LIMIT);

  /* Payloads. */
  g_autoptr (GByteArray) pos = g_byte_array_new ();
  g_autoptr (GByteArray) vinfo = g_byte_array_new ();
  for (guint i = 0; i < x->n; i++)
    {
      for (int a = 0; a < 3; a++)
        wk_put_u16 (pos, (guint16) (gint16) (lround (x->pos[3 * i + a] * 1024.0)
                                             - origin[a]));
      for (int a = 0; a < 2; a++)
        {
          gdouble u = x->uv[2 * i + a];
          gdouble q = round (u * (u < 0 ? 8192.0 : 4096.0));
          if (!(q >= -32768 && q <= 32767))
            LIMIT ("vertex %u: UV %g outside -4..8", i, u);
          wk_put_u16 (vinfo, (guint16) (gint16) q);
        }
      wk_put_u16 (vinfo, 4096);          /* no LOD parent */
      wk_put_u16 (vinfo, (guint16) (2 * i));
    }
  g_autoptr (GByteArray) ind = g_byte_array_new ();
  for (guint i = 0; i < used; i++)
    wk_put_u8 (ind, (guint8) x->idx[i]);
  while (ind->len % 4)
    wk_put_u8 (ind, 0);
  g_autoptr (GByteArray) strips = g_byte_array_new ();
  gint prev_ad = -1;
  for (guint s = 0; s < x->nstrips; s++)
    {
      gint ad = g_array_index (strip_ad, gint, s);
      guint n = x->strip_len[s];
      gboolean bind = ad != prev_ad;
      wk_put_u8 (strips, (guint8) (bind ? (gint) n - 128 : (gint) n));
      wk_put_u8 (strips, 0);
      wk_put_u8 (strips, (guint8) (bind ? ad * 5 : -1));
      wk_put_u8 (strips, 0);
      prev_ad = ad;
    }
  wk_put_u32 (strips, 0);
  g_autoptr (GByteArray) adgifs = g_byte_array_new ();
  static const guint8 regs[5] = { 0x06, 0x14, 0x08, 0x34, 0x36 };
  for (guint t = 0; t < nad; t++)
    for (int r = 0; r < 5; r++)
      {
        wk_put_u32 (adgifs, (guint32) (r == 0 ? g_array_index (textures, gint32, t) : 0));
        wk_put_u32 (adgifs, 0);
        wk_put_u32 (adgifs, regs[r]);
        wk_put_u32 (adgifs, 0);
      }
  guint16 vu[20] = { 0 };
  vu[0] = (guint16) x->n;
  vu[6] = (guint16) a_pos;
  vu[7] = (guint16) a_vinfo;
  vu[13] = (guint16) a_ind;
  vu[18] = (guint16) a_strip;
  vu[19] = (guint16) a_adgif;
  guint8 vu_bytes[40];
  for (int i = 0; i < 20; i++)
    {
      guint16 le = GUINT16_TO_LE (vu[i]);
      memcpy (vu_bytes + 2 * i, &le, 2);
    }

  /* Lists, in the game's order. */
  gsize start = o->len;
  put_strow (o, (gint32) a_vinfo, (gint32) a_vinfo, (gint32) a_vinfo, (gint32) a_vinfo);
  put_code (o, 0x05, 0, 1);
  put_unpack (o, 3, 2, ind->data, ind->len, a_ind, TRUE);
  put_code (o, 0x05, 0, 0);
  put_unpack (o, 3, 2, strips->data, strips->len, a_strip, FALSE);
  pad16 (o, start);
  gsize shared = o->len - start;
  put_unpack (o, 3, 1, vu_bytes, 40, 0, TRUE);
  gsize tex = o->len - start + 4;
  put_unpack (o, 3, 0, adgifs->data, adgifs->len, a_adgif, FALSE);
  put_strow (o, 0x45000000, 0x45000000, 0, (gint32) a_pos);
  put_code (o, 0x05, 0, 1);
  put_unpack (o, 3, 1, vinfo->data, vinfo->len, a_vinfo, FALSE);
  put_strow (o, origin[0], origin[1], origin[2], 0);
  put_code (o, 0x01, 0, 0x0102);
  put_unpack (o, 2, 1, pos->data, pos->len, a_pos, FALSE);
  put_code (o, 0x01, 0, 0x0404);
  put_code (o, 0x05, 0, 0);
  pad16 (o, start);
  gsize lod1 = o->len - start;
  put_unpack (o, 3, 2, strips->data, strips->len, a_strip, FALSE);
  put_strow (o, (gint32) a_vinfo, (gint32) a_vinfo, (gint32) a_vinfo, (gint32) a_vinfo);
  put_code (o, 0x05, 0, 1);
  put_unpack (o, 3, 2, ind->data, ind->len, a_ind, TRUE);
  pad16 (o, start);
  gsize lod01 = o->len - start;
  put_code (o, 0x05, 0, 1);
  put_strow (o, origin[0], origin[1], origin[2], 0);
  put_code (o, 0x01, 0, 0x0102);
  pad16 (o, start);
  gsize lod0 = o->len - start;
  put_code (o, 0x05, 0, 0);
  put_code (o, 0x01, 0, 0x0404);
  put_unpack (o, 3, 2, strips->data, strips->len, a_strip, FALSE);
  put_strow (o, (gint32) a_vinfo, (gint32) a_vinfo, (gint32) a_vinfo, (gint32) a_vinfo);
  put_code (o, 0x05, 0, 1);
  put_unpack (o, 3, 2, ind->data, ind->len, a_ind, TRUE);
  put_code (o, 0x05, 0, 0);
  pad16 (o, start);
  gsize rgba = o->len - start;
  for (guint i = 0; i < x->n; i++)
    for (int a = 0; a < 4; a++)
      wk_put_u8 (o, wk_round_byte ((gdouble) x->color[4 * i + a] * 128.0));
  pad16 (o, start);
  if (o->len - start > 0xffff)
    LIMIT ("patch data of %u bytes exceeds the 16-bit offsets", o->len - (guint) start);

  /* Header. */
  gfloat centre[3], radius = 0;
  for (int a = 0; a < 3; a++)
    centre[a] = (gfloat) ((lo[a] + hi[a]) / 2);
  for (guint i = 0; i < x->n; i++)
    {
      gdouble d = 0;
      for (int a = 0; a < 3; a++)
        d += (x->pos[3 * i + a] - centre[a]) * (x->pos[3 * i + a] - centre[a]);
      radius = MAX (radius, (gfloat) sqrt (d));
    }
  memset (h, 0, WK_TFRAG_HEADER);
  for (int a = 0; a < 3; a++)
    memcpy (h + 4 * a, &centre[a], 4);
  memcpy (h + 12, &radius, 4);
  guint16 ofs[6] = { 0, (guint16) shared, (guint16) lod1, (guint16) lod01,
                     (guint16) tex, (guint16) rgba };
  for (int i = 0; i < 6; i++)
    {
      guint16 le = GUINT16_TO_LE (ofs[i]);
      memcpy (h + 0x14 + 2 * i, &le, 2);
    }
  h[0x20] = (guint8) ((lod1 - shared) / 16);
  h[0x21] = (guint8) MIN (lod1 / 16, 255);
  h[0x22] = (guint8) ((lod0 - shared) / 16);
  h[0x23] = (guint8) MIN ((rgba - lod01) / 16, 255);
  h[0x28] = (guint8) nad;
  h[0x29] = (guint8) ((x->n + 3) / 4);
  h[0x3c] = (guint8) x->n;
  h[0x3d] = (guint8) tris;
  return TRUE;
}

GBytes *
wk_tfrags_build (const WkTfragMesh *meshes, guint count, gfloat lod_distance,
                 GError **error)
{
  const guint table = 0x40;
  if (count > 100000)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "%u patches", count);
      return NULL;
    }
  g_autoptr (GByteArray) o = g_byte_array_new ();
  wk_put_u32 (o, table);
  wk_put_u32 (o, count);
  wk_put_f32 (o, lod_distance);
  while (o->len < table + count * WK_TFRAG_HEADER)
    wk_put_u8 (o, 0);
  for (guint m = 0; m < count; m++)
    {
      guint8 h[WK_TFRAG_HEADER];
      guint32 data = o->len - table;
      if (!write_patch (o, &meshes[m], m, "tfrag mesh", h, error))
        return NULL;
      guint32 le = GUINT32_TO_LE (data);
      memcpy (h + 0x10, &le, 4);
      memcpy (o->data + table + m * WK_TFRAG_HEADER, h, WK_TFRAG_HEADER);
    }
  GBytes *out = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  gsize size;
  const guint8 *p = g_bytes_get_data (out, &size);
  WkTfrags *check = wk_tfrags_parse (p, size, 0, 0, -1, error);
  if (check == NULL)
    {
      wk_error_prefix (error, "written tfrags do not read back");
      g_bytes_unref (out);
      return NULL;
    }
  wk_tfrags_free (check);
  return out;
}

gboolean
wk_tfrag_patch_write (GByteArray *o, const WkTfragMesh *mesh, guint index,
                      guint8 header[WK_TFRAG_HEADER], GError **error)
{
  g_return_val_if_fail (o->len % 16 == 0, FALSE);
  return write_patch (o, mesh, index, "tfrag patch", header, error);
}
