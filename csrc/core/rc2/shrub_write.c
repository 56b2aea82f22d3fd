/* The shrub class writer: triangles grouped by texture into packets of
 * triangle lists (one GIF tag each), a texture set where it changes, the
 * normals quantised to a table of 24 directions of our own. Layout:
 * docs/formats/rc2-classes.md ("Shrub classes"); choices:
 * docs/formats/rc2-writers.md ("Shrub classes"). */
#include "class_write.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"
#include "class_mesh.h"
#include "shrub.h"

enum {
  GS_TEXTURE = 5, GS_GIF_TAG = 1, GS_VERTEX = 3,
  PRIM_TRIANGLE = 3,
  STOP_BIT = 0x8000,
  STOP_BEFORE_END = 4,
  MIN_VERTICES = 6,     /* [assumed] packets padded to six vertices */
  GIF_REGS = 0x412,     /* ST, RGBAQ, XYZF2 */
};

#define LIMIT(...)                                                      \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    wk_error_prefix (error, "shrub class %d", in->o_class);             \
    return NULL;                                                        \
  } G_STMT_END

/* The 24 normal directions [assumed: any table works, the class carries
 * it]: the two poles, rings of eight at ±40° elevation, six on the
 * equator. */
static void
normal_table (gdouble n[WK_SHRUB_NORMALS][3])
{
  guint k = 0;
  n[k][0] = 0, n[k][1] = 0, n[k++][2] = 1;
  n[k][0] = 0, n[k][1] = 0, n[k++][2] = -1;
  for (int ring = 0; ring < 2; ring++)
    for (int i = 0; i < 8; i++)
      {
        gdouble e = (ring ? -40.0 : 40.0) * G_PI / 180, a = (i + 0.5 * ring) * G_PI / 4;
        n[k][0] = cos (e) * cos (a), n[k][1] = cos (e) * sin (a), n[k++][2] = sin (e);
      }
  for (int i = 0; i < 6; i++)
    {
      gdouble a = i * G_PI / 3;
      n[k][0] = cos (a), n[k][1] = sin (a), n[k++][2] = 0;
    }
}

static guint
nearest (gdouble table[WK_SHRUB_NORMALS][3], const gfloat *v)
{
  guint best = 0;
  gdouble best_dot = -2;
  for (guint i = 0; i < WK_SHRUB_NORMALS; i++)
    {
      gdouble d = table[i][0] * v[0] + table[i][1] * v[1] + table[i][2] * v[2];
      if (d > best_dot)
        best_dot = d, best = i;
    }
  return best;
}

static void
put_code (GByteArray *o, guint cmd, guint num, guint imm)
{
  wk_put_u32 (o, imm | (num << 16) | (cmd << 24));
}

/* A V4 unpack (vl 0 = 32-bit, 1 = 16-bit) of count elements at VU addr,
 * flagged USE_VIF1_TOPS (bit 15) as Wrench writes shrub packets. */
static void
put_unpack (GByteArray *o, guint vl, guint count, guint addr, const GByteArray *payload)
{
  put_code (o, 0x60 | (3 << 2) | vl, count & 0xff, addr | 0x8000);
  g_byte_array_append (o, payload->data, payload->len);
  wk_put_pad (o, 4);
}

typedef struct {
  guint first, count;   /* triangles (in sorted order) */
} Packet;


/* One packet: a texture (when it changes), one triangle-list GIF tag. */
static void
put_packet (const WkShrubNew *in, const guint *order, const Packet *p, gboolean texture,
            const gint16 *q, const gint16 *st, const guint8 *nrm, GByteArray *o)
{
  guint nt = texture ? 1 : 0, nv = 3 * p->count, nv_all = MAX (nv, MIN_VERTICES);
  guint vofs = 1 + 1 + 4 * nt;
  g_autoptr (GByteArray) head = g_byte_array_new ();
  wk_put_u32 (head, nt);
  wk_put_u32 (head, 1);
  wk_put_u32 (head, nv_all);
  wk_put_u32 (head, vofs);
  guint next = 0, tex_at = 0;
  if (texture)
    {
      tex_at = next;
      next += GS_TEXTURE;
    }
  guint64 low = (guint64) nv | (1ull << 15) /* EOP */ | (1ull << 46) /* PRE */
                | ((guint64) (PRIM_TRIANGLE | 8 | 16 | 32 | 64) << 47) /* IIP TME FGE ABE */
                | (3ull << 60);
  wk_put_u32 (head, (guint32) low);
  wk_put_u32 (head, (guint32) (low >> 32));
  wk_put_u32 (head, GIF_REGS);
  wk_put_u32 (head, next);             /* the tag's GS offset */
  next += GS_GIF_TAG;
  if (texture)
    { /* TEX1 (its GS offset at +0xc), CLAMP, MIPTBP1, TEX0 = the slot;
       * data words other than the slot 0 [assumed: no reader uses them] */
      static const guint8 regs[4] = { 0x14, 0x08, 0x34, 0x06 };
      guint slot = in->tex[order[p->first]];
      for (int r = 0; r < 4; r++)
        {
          wk_put_u32 (head, r >= 2 ? slot : 0);
          wk_put_u32 (head, 0);
          wk_put_u32 (head, regs[r]);
          wk_put_u32 (head, r == 0 ? tex_at : 0);
        }
    }
  g_autoptr (GByteArray) pos = g_byte_array_new ();
  g_autoptr (GByteArray) stn = g_byte_array_new ();
  guint last = 0, ofs = next;
  for (guint i = 0; i < nv_all; i++)
    {
      guint v = i < nv ? in->tri[3 * order[p->first + i / 3] + i % 3] : last;
      if (i < nv)
        ofs = next + GS_VERTEX * i;
      last = v;
      for (int a = 0; a < 3; a++)
        wk_put_u16 (pos, (guint16) q[3 * v + a]);
      wk_put_u16 (pos, (guint16) ofs);
      wk_put_u16 (stn, (guint16) st[2 * v]);
      wk_put_u16 (stn, (guint16) st[2 * v + 1]);
      wk_put_u16 (stn, (guint16) WK_RC2_ST_ONE);  /* h = 1.0 */
      wk_put_u16 (stn, (guint16) (nrm[v] | (i == nv_all - STOP_BEFORE_END ? STOP_BIT : 0)));
    }
  put_code (o, 0x01, 0, 0x0404);      /* STCYCL 4, 4 */
  put_code (o, 0x00, 0, 0);           /* NOP */
  put_code (o, 0x05, 0, 0);           /* STMOD 0 */
  put_unpack (o, 0, head->len / 16, 0, head);
  put_code (o, 0x05, 0, 0);
  put_unpack (o, 1, nv_all, vofs, pos);
  put_code (o, 0x05, 0, 0);
  put_unpack (o, 1, nv_all, vofs + nv_all, stn);
}

GBytes *
wk_shrub_class_build (const WkShrubNew *in, GError **error)
{
  if (in->o_class < G_MININT16 || in->o_class > G_MAXINT16)
    LIMIT ("the class number is not an s16");
  if (in->n == 0 || in->ntri == 0 || in->ntri > 4096)
    LIMIT ("%u vertices and %u triangles (1..4096 triangles)", in->n, in->ntri);
  g_auto (WkClassVertices) cv = { 0 };
  if (!wk_class_vertices (in->pos, in->uv, in->normal, in->n, "shrub", in->o_class, &cv,
                          error))
    return NULL;
  const gint16 *q = cv.pos, *st = cv.st;
  gdouble table[WK_SHRUB_NORMALS][3];
  normal_table (table);
  g_autofree guint8 *nrm = g_new (guint8, in->n);
  for (guint i = 0; i < in->n; i++)
    nrm[i] = (guint8) nearest (table, in->normal + 3 * i);
  for (guint t = 0; t < in->ntri; t++)
    {
      for (int c = 0; c < 3; c++)
        if (in->tri[3 * t + c] >= in->n)
          LIMIT ("triangle %u names vertex %u of %u", t, in->tri[3 * t + c], in->n);
      if (in->tex[t] >= WK_CLASS_SLOTS)
        LIMIT ("triangle %u samples texture slot %u (0..15)", t, in->tex[t]);
      for (int c = 0; c < 3; c++)
        if (!memcmp (q + 3 * in->tri[3 * t + c], q + 3 * in->tri[3 * t + (c + 1) % 3],
                     3 * sizeof (gint16)))
          LIMIT ("triangle %u has two corners at one (quantised) position", t);
    }
  /* triangles by texture slot, in input order within a slot */
  g_autofree guint *order = g_new (guint, in->ntri);
  guint k = 0;
  for (guint slot = 0; slot < WK_CLASS_SLOTS; slot++)
    for (guint t = 0; t < in->ntri; t++)
      if (in->tex[t] == slot)
        order[k++] = t;
  g_autoptr (GArray) packets = g_array_new (FALSE, FALSE, sizeof (Packet));
  for (guint t = 0; t < in->ntri;)
    {
      Packet p = { t, 0 };
      while (t < in->ntri && p.count < WK_SHRUB_PACKET_TRIS
             && in->tex[order[t]] == in->tex[order[p.first]])
        p.count++, t++;
      g_array_append_val (packets, p);
    }
  if (packets->len > G_MAXINT16)
    LIMIT ("%u packets", packets->len);

  g_autoptr (GByteArray) o = g_byte_array_new ();
  g_byte_array_set_size (o, WK_SHRUB_HEADER + 8 * packets->len);
  memset (o->data, 0, o->len);
  gint cur = -1;
  for (guint j = 0; j < packets->len; j++)
    {
      const Packet *p = &g_array_index (packets, Packet, j);
      wk_put_pad (o, 16);
      gsize at = o->len;
      gboolean change = in->tex[order[p->first]] != cur;
      cur = in->tex[order[p->first]];
      put_packet (in, order, p, change, q, st, nrm, o);
      wk_set_u32 (o, WK_SHRUB_HEADER + 8 * j, (guint32) at);
      wk_set_u32 (o, WK_SHRUB_HEADER + 8 * j + 4, (guint32) (o->len - at));
    }
  wk_put_pad (o, 16);
  gsize normals = o->len;
  for (guint i = 0; i < WK_SHRUB_NORMALS; i++)
    {
      for (int a = 0; a < 3; a++)
        wk_put_u16 (o, (guint16) (gint16) lrint (table[i][a] * WK_RC2_NORMAL_ONE));
      wk_put_u16 (o, 0);
    }
  for (int a = 0; a < 3; a++)
    wk_set_f32 (o, 4 * a, cv.centre[a]);
  wk_set_f32 (o, 0x0c, cv.radius);
  wk_set_f32 (o, 0x10, in->mip_distance);
  wk_set_f32 (o, 0x20, cv.scale);
  guint16 cls = GUINT16_TO_LE ((guint16) in->o_class), np = (guint16) packets->len;
  memcpy (o->data + 0x24, &cls, 2);
  np = GUINT16_TO_LE (np);
  memcpy (o->data + 0x28, &np, 2);
  wk_set_u32 (o, 0x2c, (guint32) normals);
  GBytes *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  WkShrubInfo info;
  g_autoptr (WkClassMesh) m = wk_shrub_mesh_parse (d, size, 0, &info, error);
  if (m == NULL || wk_class_mesh_triangles (m) != in->ntri
      || wk_class_mesh_vertices (m) != 3 * (gsize) in->ntri)
    {
      if (m != NULL)
        wk_set_error (error, WK_ERROR_FORMAT, 0, "reads back as %u vertices and %u "
                      "triangles, not %u and %u", (guint) wk_class_mesh_vertices (m),
                      (guint) wk_class_mesh_triangles (m), 3 * in->ntri, in->ntri);
      wk_error_prefix (error, "new shrub class %d does not read back", in->o_class);
      g_bytes_unref (bytes);
      return NULL;
    }
  return bytes;
}
