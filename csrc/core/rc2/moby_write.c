/* The moby class writer: one rigid mesh, triangles cut into packets, each
 * triangle a strip of its own, texture switches through secret indices,
 * the same packets for both LODs. Layout: docs/formats/rc2-classes.md
 * ("Moby classes"); choices: docs/formats/rc2-writers.md ("Moby
 * classes"). */
#include "class_write.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"
#include "class_mesh.h"
#include "moby_mesh.h"

enum {
  TABLE = 0x50,          /* the packet table, after the 0x48-byte header */
  INDEX_LATE = 7,        /* a vertex's cache index is stored 7 vertices on */
  LAST_EXTRA = 6,
  ST_ADDR = 0xc2,        /* [assumed] VU addresses of the ST and index */
  INDEX_ADDR = 0x12d,    /* unpacks, as Wrench's writer puts them */
  USE_TOPS = 0x8000,
  RESTART = 0x80,
};

#define LIMIT(...)                                                      \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    wk_error_prefix (error, "moby class %d", in->o_class);              \
    return NULL;                                                        \
  } G_STMT_END

static void
put_code (GByteArray *o, guint cmd, guint num, guint imm)
{
  wk_put_u32 (o, imm | ((num & 0xff) << 16) | (cmd << 24));
}

typedef struct {
  guint first, count;    /* triangles */
  guint n;               /* packet vertices */
} Packet;

/* The packet's VIF list: ST unpack, index unpack, texture unpack. cur =
 * the texture in force (kept across packets). Returns the quadword offset
 * of the texture unpack's code in the list (0: none). */
static guint
put_list (const WkMobyNew *in, const Packet *p, const guint32 *local, const guint *verts,
          const gint16 *st, gint *cur, GByteArray *o)
{
  gsize start = o->len;
  /* V2_16, with the mask bit (0x10) as Wrench writes it [assumed] */
  put_code (o, 0x70 | (1 << 2) | 1, p->n, ST_ADDR | USE_TOPS);
  for (guint i = 0; i < p->n; i++)
    {
      wk_put_u16 (o, (guint16) st[2 * verts[i]]);
      wk_put_u16 (o, (guint16) st[2 * verts[i] + 1]);
    }
  g_autoptr (GByteArray) idx = g_byte_array_new ();
  g_autoptr (GArray) secrets = g_array_new (FALSE, FALSE, sizeof (guint8));
  g_autoptr (GArray) textures = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_byte_array_set_size (idx, 4);
  memset (idx->data, 0, 4);
  for (guint t = p->first; t < p->first + p->count; t++)
    { /* [b, a, c] with restarts on the first two: the reader draws (a, b, c) */
      const guint32 *v = in->tri + 3 * t;
      guint8 e[3] = { (guint8) (local[v[1]] + 1), (guint8) (local[v[0]] + 1),
                      (guint8) (local[v[2]] + 1) };
      if (in->tex[t] != *cur)
        {
          *cur = in->tex[t];
          g_array_append_val (secrets, e[0]);
          g_array_append_val (textures, *cur);
          wk_put_u8 (idx, 0);
        }
      else
        wk_put_u8 (idx, e[0] | RESTART);
      wk_put_u8 (idx, e[1] | RESTART);
      wk_put_u8 (idx, e[2]);
    }
  static const guint8 end[4] = { 1, 1, 1, 0 };
  wk_put_bytes (idx, end, 4);
  wk_put_pad (idx, 4);
  guint num = idx->len / 4;
  if (textures->len)
    idx->data[1] = (guint8) num;          /* the textures follow the indices */
  idx->data[2] = secrets->len ? g_array_index (secrets, guint8, 0) : 0;
  put_code (o, 0x60 | (3 << 2) | 2, num, INDEX_ADDR | USE_TOPS);  /* V4_8 */
  g_byte_array_append (o, idx->data, idx->len);
  guint tex_qw = 0;
  if (textures->len)
    {
      while ((o->len - start) % 16 != 0xc)
        put_code (o, 0, 0, 0);            /* NOP: the payload quadword-aligned */
      tex_qw = (guint) (o->len - start) / 16;
      put_code (o, 0x60 | (3 << 2), 4 * textures->len, (INDEX_ADDR + num) | USE_TOPS);
      gsize at = o->len;
      /* TEX1, CLAMP, TEX0 (the slot), MIPTBP1; secret index q + 1 at
       * +0xc of quadword q [assumed: data words other than TEX0's 0] */
      static const guint8 regs[4] = { 0x14, 0x08, 0x06, 0x34 };
      for (guint k = 0; k < textures->len; k++)
        for (int r = 0; r < 4; r++)
          {
            wk_put_u32 (o, r == 2 ? (guint32) g_array_index (textures, gint32, k) : 0);
            wk_put_u32 (o, 0);
            wk_put_u32 (o, regs[r]);
            wk_put_u32 (o, 0);
          }
      for (guint k = 1; k < secrets->len; k++)
        o->data[at + 16 * (k - 1) + 0xc] = g_array_index (secrets, guint8, k);
    }
  while ((o->len - start) % 16)
    put_code (o, 0, 0, 0);
  return tex_qw;
}

/* The packet's vertex table (the R&C2 layout): no matrix transfers, no
 * duplicates; vertex k's cache slot (= k) stored at stream entry k + 7. */
static void
put_table (const Packet *p, const guint *verts, const gint16 *q, const guint8 *azel,
           GByteArray *o)
{
  gsize at = o->len;
  guint n = p->n, padding = 0;
  while ((n + padding) % 4 != 2)
    padding++;
  guint slots = n + padding + 1 + LAST_EXTRA; /* stream entries */
  g_autofree guint16 *stream = g_new0 (guint16, slots);
  for (guint k = 0; k < n; k++)
    stream[k + INDEX_LATE] = (guint16) k;
  g_byte_array_set_size (o, at + 16);
  memset (o->data + at, 0, 16);
  wk_set_u16 (o, at + 6, (guint16) n);         /* main vertices */
  wk_set_u16 (o, at + 10, (guint16) n);        /* vertices sent */
  wk_set_u16 (o, at + 12, 16);                 /* the vertices' offset */
  for (guint k = 0; k < n; k++)
    {
      guint v = verts[k];
      wk_put_u16 (o, stream[k]);
      for (int z = 0; z < 6; z++)
        wk_put_u8 (o, 0);
      wk_put_u8 (o, azel[2 * v]);
      wk_put_u8 (o, azel[2 * v + 1]);
      for (int a = 0; a < 3; a++)
        wk_put_u16 (o, (guint16) q[3 * v + a]);
    }
  for (guint k = n; k < n + padding; k++)
    {
      wk_put_u16 (o, stream[k]);
      for (int z = 0; z < 14; z++)
        wk_put_u8 (o, 0);
    }
  wk_put_u16 (o, stream[n + padding]);
  wk_put_u16 (o, 0);
  for (guint k = 0; k < LAST_EXTRA; k++)
    wk_put_u16 (o, stream[n + padding + 1 + k]);
}

GBytes *
wk_moby_class_build (const WkMobyNew *in, GError **error)
{
  if (in->n == 0 || in->ntri == 0 || in->ntri > 4096)
    LIMIT ("%u vertices and %u triangles (1..4096 triangles)", in->n, in->ntri);
  g_auto (WkClassVertices) cv = { 0 };
  if (!wk_class_vertices (in->pos, in->uv, in->normal, in->n, "moby", in->o_class, &cv,
                          error))
    return NULL;
  const gint16 *q = cv.pos, *st = cv.st;
  g_autofree guint8 *azel = g_new (guint8, 2 * (gsize) in->n);
  for (guint i = 0; i < in->n; i++)
    {
      const gfloat *nv = in->normal + 3 * i;
      /* normal = (sin a cos e, cos a cos e, sin e), a, e = byte · π / 128 */
      gdouble len = sqrt (nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2]);
      gdouble e = len > 0 ? asin (CLAMP (nv[2] / len, -1.0, 1.0)) : G_PI / 2;
      gdouble az = atan2 (nv[0], nv[1]);
      azel[2 * i] = (guint8) ((lrint (az * 128 / G_PI) % 256 + 256) % 256);
      azel[2 * i + 1] = (guint8) ((lrint (e * 128 / G_PI) % 256 + 256) % 256);
    }
  for (guint t = 0; t < in->ntri; t++)
    {
      for (int c = 0; c < 3; c++)
        if (in->tri[3 * t + c] >= in->n)
          LIMIT ("triangle %u names vertex %u of %u", t, in->tri[3 * t + c], in->n);
      if (in->tex[t] >= WK_CLASS_SLOTS)
        LIMIT ("triangle %u samples texture slot %u (0..15)", t, in->tex[t]);
    }
  /* Packets: triangles in order while the packet's distinct vertices and
   * triangles stay in budget. */
  g_autoptr (GArray) packets = g_array_new (FALSE, FALSE, sizeof (Packet));
  g_autofree guint32 *local = g_new (guint32, in->n);
  g_autofree guint *verts = g_new (guint, 3 * (gsize) in->ntri);
  g_autofree guint *vstart = g_new (guint, in->ntri + 1);
  guint nverts = 0;
  memset (local, 0xff, sizeof (guint32) * in->n);
  for (guint t = 0; t < in->ntri;)
    {
      Packet p = { t, 0, 0 };
      vstart[packets->len] = nverts;
      while (t < in->ntri && p.count < WK_MOBY_PACKET_TRIS)
        {
          guint fresh = 0;
          for (int c = 0; c < 3; c++)
            fresh += local[in->tri[3 * t + c]] == G_MAXUINT32;
          if (p.n + fresh > WK_MOBY_PACKET_VERTICES)
            break;
          for (int c = 0; c < 3; c++)
            if (local[in->tri[3 * t + c]] == G_MAXUINT32)
              {
                local[in->tri[3 * t + c]] = p.n++;
                verts[nverts++] = in->tri[3 * t + c];
              }
          p.count++;
          t++;
        }
      for (guint k = vstart[packets->len]; k < nverts; k++)
        local[verts[k]] = G_MAXUINT32;
      g_array_append_val (packets, p);
    }
  if (packets->len > 127)
    LIMIT ("%u packets per LOD (at most 127)", packets->len);
  guint np = packets->len;
  g_autoptr (GByteArray) o = g_byte_array_new ();
  g_byte_array_set_size (o, TABLE + 16 * 2 * np);
  memset (o->data, 0, o->len);
  for (guint lod = 0; lod < 2; lod++)
    {
      gint cur = 0;                        /* the reader starts at texture 0 */
      for (guint j = 0; j < np; j++)
        {
          const Packet *p = &g_array_index (packets, Packet, j);
          const guint *pv = verts + vstart[j];
          for (guint k = 0; k < p->n; k++)
            local[pv[k]] = k;
          gsize e = TABLE + 16 * (lod * np + j);
          wk_put_pad (o, 16);
          gsize list = o->len;
          guint tex_qw = put_list (in, p, local, pv, st, &cur, o);
          gsize table = o->len;
          put_table (p, pv, q, azel, o);
          wk_put_pad (o, 16);
          for (guint k = 0; k < p->n; k++)
            local[pv[k]] = G_MAXUINT32;
          wk_set_u32 (o, e, (guint32) list);
          wk_set_u16 (o, e + 4, (guint16) ((table - list) / 16));
          wk_set_u16 (o, e + 6, (guint16) tex_qw);
          wk_set_u32 (o, e + 8, (guint32) table);
          o->data[e + 12] = (guint8) ((o->len - table) / 16);
          o->data[e + 13] = (guint8) ((0xf + p->n * 6) / 16);
          o->data[e + 14] = (guint8) ((3 + p->n) / 4);
          o->data[e + 15] = (guint8) p->n;
        }
    }
  wk_set_u32 (o, 0, TABLE);
  o->data[4] = (guint8) np;                /* high LOD */
  o->data[5] = (guint8) np;                /* low LOD */
  o->data[7] = (guint8) (2 * np);          /* metal start: after both */
  wk_set_f32 (o, 0x24, cv.scale);
  for (int a = 0; a < 3; a++)
    wk_set_f32 (o, 0x30 + 4 * a, cv.centre[a]);
  wk_set_f32 (o, 0x3c, cv.radius);
  GBytes *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  gsize size;
  const guint8 *d = g_bytes_get_data (bytes, &size);
  for (guint lod = 0; lod < 2; lod++)
    {
      g_autoptr (WkClassMesh) m = wk_moby_mesh_parse (d, size, 0, lod, NULL, error);
      if (m == NULL || wk_class_mesh_triangles (m) != in->ntri || wk_class_mesh_vertices (m) != nverts)
        {
          if (m != NULL)
            wk_set_error (error, WK_ERROR_FORMAT, 0, "LOD %u reads back as %u "
                          "vertices and %u triangles, not %u and %u", lod,
                          (guint) wk_class_mesh_vertices (m),
                          (guint) wk_class_mesh_triangles (m), nverts, in->ntri);
          wk_error_prefix (error, "new moby class %d does not read back", in->o_class);
          g_bytes_unref (bytes);
          return NULL;
        }
    }
  return bytes;
}
