/* The tie class writer: strips cut into packets, one record per GS vertex
 * in GS order, the same packets for all three LODs. Layout and choices:
 * docs/formats/rc2-classes.md ("Tie classes"), docs/formats/rc2-writers.md ("Tie
 * classes"). */
#include "class_write.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"
#include "class_mesh.h"
#include "tie.h"

enum {
  LODS = 3,
  GS_AD_GIF = 6, GS_STRIP = 1, GS_VERTEX = 3,   /* GS packet quadwords */
  GS_END = 256,          /* [assumed] every GS offset of a packet in a byte */
  MAX_CHANGES = 3,       /* ad-gif changes in a packet (4 ad-gifs) */
  MAX_REGULAR = 125,     /* byte 8 = 2 · regular + 4 is a u8 */
  BODY_STRIPS = 0x2c,
  REGULAR = 16,
  Q_ONE = 4096,
  RGBA_INDEX = 64,       /* [assumed] noclip: RGBA index byte − 64 */
};

/* TEX0, TEX1, MIPTBP1, CLAMP, MIPTBP2 of one ad-gif (GS register numbers) */
static const guint8 ad_gif_regs[5] = { 0x06, 0x14, 0x34, 0x08, 0x36 };

#define LIMIT(...)                                                      \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    wk_error_prefix (error, "tie class %d", in->o_class);               \
    return NULL;                                                        \
  } G_STMT_END

typedef struct {
  guint first, count;    /* strips */
} Packet;

/* GS quadwords strip s adds to a packet whose current ad-gif is cur. */
static guint
strip_cost (const WkTieNew *in, guint s, gint cur)
{
  return (in->strip_tex[s] != cur ? GS_AD_GIF : 0) + GS_STRIP + GS_VERTEX * in->strip_len[s];
}

/* One packet body: ad-gif offsets, counts, strip records, vertices, the
 * normal and RGBA index bytes. */
static void
put_body (const WkTieNew *in, const Packet *p, const guint *strip_start,
          const gint16 *q, const gint16 *st, GByteArray *o, guint *vert_ofs,
          guint *vert_size, guint *shaders)
{
  gsize at = o->len;
  g_byte_array_set_size (o, at + BODY_STRIPS + 4 * p->count);
  memset (o->data + at, 0, o->len - at);
  guint next = GS_AD_GIF, changes = 0, regular = 0;
  gint cur = in->strip_tex[p->first];
  wk_set_u32 (o, at + 0x10, (guint32) cur * WK_TIE_AD_GIF);
  *shaders = 1;
  g_autoptr (GByteArray) verts = g_byte_array_new ();
  for (guint k = 0; k < p->count; k++)
    {
      guint s = p->first + k;
      if (in->strip_tex[s] != cur)
        {
          cur = in->strip_tex[s];
          wk_set_u32 (o, at + 4 * changes, next);
          wk_set_u32 (o, at + 0x10 + 4 * (changes + 1), (guint32) cur * WK_TIE_AD_GIF);
          changes++;
          (*shaders)++;
          next += GS_AD_GIF;
        }
      guint8 *rec = o->data + at + BODY_STRIPS + 4 * k;
      rec[0] = (guint8) in->strip_len[s];
      rec[2] = (guint8) next;        /* rec[1], rec[3] (winding) stay 0 */
      next += GS_STRIP;
      for (guint j = 0; j < in->strip_len[s]; j++)
        {
          guint v = in->idx[strip_start[s] + j];
          for (int a = 0; a < 3; a++)
            wk_put_u16 (verts, (guint16) q[3 * v + a]);
          wk_put_u16 (verts, (guint16) next);
          wk_put_u16 (verts, (guint16) st[2 * v]);
          wk_put_u16 (verts, (guint16) st[2 * v + 1]);
          wk_put_u16 (verts, Q_ONE);
          wk_put_u16 (verts, 0);     /* no second GS offset */
          regular++;
          next += GS_VERTEX;
        }
    }
  guint8 *u = o->data + at + 0x20;
  u[3] = (guint8) p->count;
  u[8] = (guint8) (2 * regular + 4);
  u[9] = 4;                          /* 3 · morphing + 4, none */
  u[10] = (guint8) regular;
  wk_put_pad (o, 16);
  *vert_ofs = (guint) (o->len - at) / 16;
  g_byte_array_append (o, verts->data, verts->len);
  *vert_size = verts->len / 16;
  for (guint i = 0; i < regular; i++)
    wk_put_u8 (o, 0);                /* normal indices [assumed: noclip] */
  wk_put_pad (o, 16);
  for (guint i = 0; i < regular; i++)
    wk_put_u8 (o, RGBA_INDEX);
  wk_put_pad (o, 16);
}

/* Read every LOD back with our reader: the strips' vertices and triangles. */
static gboolean
verify (const WkTieNew *in, GBytes *bytes, guint tris, GError **error)
{
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  for (guint lod = 0; lod < LODS; lod++)
    {
      g_autoptr (WkClassMesh) m = wk_tie_mesh_parse (d, size, 0, lod, NULL, error);
      if (m == NULL)
        return FALSE;
      if (wk_class_mesh_vertices (m) != in->nidx || wk_class_mesh_triangles (m) != tris)
        {
          wk_set_error (error, WK_ERROR_FORMAT, 0, "LOD %u reads back as %u vertices "
                        "and %u triangles, not %u and %u", lod,
                        (guint) wk_class_mesh_vertices (m),
                        (guint) wk_class_mesh_triangles (m), in->nidx, tris);
          return FALSE;
        }
    }
  return TRUE;
}

GBytes *
wk_tie_class_build (const WkTieNew *in, GError **error)
{
  if (in->o_class < G_MININT16 || in->o_class > G_MAXINT16)
    LIMIT ("the class number is not an s16");
  if (in->n == 0 || in->nstrips == 0 || in->nstrips > 4096)
    LIMIT ("%u vertices and %u strips (a class needs 1..4096 strips)", in->n, in->nstrips);
  g_auto (WkClassVertices) cv = { 0 };
  if (!wk_class_vertices (in->pos, in->uv, NULL, in->n, "tie", in->o_class, &cv,
                          error))
    return NULL;
  const gint16 *q = cv.pos, *st = cv.st;
  g_autofree guint *strip_start = g_new (guint, in->nstrips);
  guint used = 0, tris = 0, textures = 0;
  for (guint s = 0; s < in->nstrips; s++)
    {
      guint n = in->strip_len[s];
      if (n < 3 || GS_AD_GIF + GS_STRIP + GS_VERTEX * n > GS_END || n > MAX_REGULAR)
        LIMIT ("strip %u has %u vertices (3..%u fit a packet)", s, n,
               (GS_END - GS_AD_GIF - GS_STRIP) / GS_VERTEX);
      if (used + n > in->nidx)
        LIMIT ("strip %u runs past the %u indices", s, in->nidx);
      if (in->strip_tex[s] >= WK_CLASS_SLOTS)
        LIMIT ("strip %u samples texture slot %u (0..15)", s, in->strip_tex[s]);
      for (guint j = 0; j < n; j++)
        if (in->idx[used + j] >= in->n)
          LIMIT ("strip %u: index %u of %u vertices", s, in->idx[used + j], in->n);
      strip_start[s] = used;
      used += n;
      tris += n - 2;
      textures = MAX (textures, in->strip_tex[s] + 1u);
    }
  if (used != in->nidx)
    LIMIT ("the strips use %u of the %u indices", used, in->nidx);
  /* Packets: strips in order while the GS offsets fit a byte, at most
   * three ad-gif changes and 125 records. */
  g_autoptr (GArray) packets = g_array_new (FALSE, FALSE, sizeof (Packet));
  for (guint s = 0; s < in->nstrips;)
    {
      Packet p = { s, 0 };
      guint next = GS_AD_GIF, changes = 0, regular = 0;
      gint cur = in->strip_tex[s];
      while (s < in->nstrips)
        {
          guint cost = strip_cost (in, s, cur);
          gboolean change = in->strip_tex[s] != cur;
          if (next + cost > GS_END || regular + in->strip_len[s] > MAX_REGULAR
              || (change && changes == MAX_CHANGES) || p.count == 255)
            break;
          next += cost;
          changes += change;
          cur = in->strip_tex[s];
          regular += in->strip_len[s];
          p.count++;
          s++;
        }
      g_array_append_val (packets, p);
    }
  if (packets->len > 255)
    LIMIT ("%u packets per LOD (at most 255)", packets->len);

  g_autoptr (GByteArray) o = g_byte_array_new ();
  g_byte_array_set_size (o, WK_TIE_HEADER);
  memset (o->data, 0, o->len);
  for (guint t = 0; t < textures; t++)
    for (int r = 0; r < 5; r++)
      { /* {s32 data_lo, s32 data_hi, u8 register, pad}: TEX0 names the slot */
        wk_put_u32 (o, r == 0 ? t : 0);
        wk_put_u32 (o, 0);
        wk_put_u8 (o, ad_gif_regs[r]);
        for (int z = 0; z < 7; z++)
          wk_put_u8 (o, 0);
      }
  for (guint lod = 0; lod < LODS; lod++)
    {
      wk_put_pad (o, 16);
      gsize table = o->len;
      wk_set_u32 (o, 4 * lod, (guint32) table);
      o->data[0x0c + lod] = (guint8) packets->len;
      g_byte_array_set_size (o, table + WK_TIE_PACKET_HEADER * packets->len);
      memset (o->data + table, 0, WK_TIE_PACKET_HEADER * packets->len);
      for (guint j = 0; j < packets->len; j++)
        {
          wk_put_pad (o, 16);
          gsize h = table + WK_TIE_PACKET_HEADER * j;
          wk_set_u32 (o, h, (guint32) (o->len - table));
          guint vofs, vsize, shaders;
          put_body (in, &g_array_index (packets, Packet, j), strip_start, q, st, o,
                    &vofs, &vsize, &shaders);
          o->data[h + 4] = (guint8) shaders;
          o->data[h + 6] = (guint8) g_array_index (packets, Packet, j).count;
          o->data[h + 8] = (guint8) vofs;
          o->data[h + 9] = (guint8) vsize;
        }
      wk_set_u16 (o, 0x60 + 8 * lod, (guint16) MIN (in->nidx, G_MAXINT16));
      wk_set_u16 (o, 0x62 + 8 * lod, (guint16) MIN (tris, G_MAXINT16));
      wk_set_u16 (o, 0x64 + 8 * lod, (guint16) in->nstrips);
    }
  o->data[0x0f] = (guint8) textures;
  for (int i = 0; i < 3; i++)
    wk_set_f32 (o, 0x10 + 4 * i, in->lod_dist[i]);
  wk_set_u32 (o, 0x1c, WK_TIE_HEADER);      /* the ad-gif table */
  wk_set_f32 (o, 0x40, cv.scale);
  wk_set_u16 (o, 0x44, (guint16) in->o_class);
  wk_set_f32 (o, 0x48, in->lod_dist[2]);     /* mip distance [assumed] */
  for (int a = 0; a < 3; a++)
    wk_set_f32 (o, 0x50 + 4 * a, cv.centre[a]);
  wk_set_f32 (o, 0x5c, cv.radius);
  wk_put_pad (o, 16);
  GBytes *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  if (!verify (in, bytes, tris, error))
    {
      wk_error_prefix (error, "new tie class %d does not read back", in->o_class);
      g_bytes_unref (bytes);
      return NULL;
    }
  return bytes;
}
