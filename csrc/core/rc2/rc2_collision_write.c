/* The RC2 collision writer: faces binned into 4 m octants with an exact
 * triangle/box test, laid out in the canonical order of
 * docs/formats/rc2-collision-sky.md ("Collision", "Writing"). */
#include "rc2_collision.h"

#include <math.h>
#include <stdlib.h>

#include "../common/wk_idmap.h"
#include "../common/wk_reader.h"

/* ---- the overlap test --------------------------------------------------- */

static gint64
dot (const gint64 a[3], const gint64 b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static gint64
iabs64 (gint64 v)
{
  return v < 0 ? -v : v;
}

/* Separated along axis n? (projections of the corners against the box's
 * projected half-width; touching is not separated). */
static gboolean
separated (const gint64 n[3], const gint64 *const v[3], gint64 h)
{
  gint64 p0 = dot (n, v[0]), p1 = dot (n, v[1]), p2 = dot (n, v[2]);
  gint64 lo = MIN (p0, MIN (p1, p2)), hi = MAX (p0, MAX (p1, p2));
  gint64 r = h * (iabs64 (n[0]) + iabs64 (n[1]) + iabs64 (n[2]));
  return lo > r || hi < -r;
}

gboolean
wk_coll_tri_box (const gint64 a[3], const gint64 b[3], const gint64 c[3], gint64 h)
{
  const gint64 *const v[3] = { a, b, c };
  gint64 e[3][3];
  for (int k = 0; k < 3; k++)
    {
      e[0][k] = b[k] - a[k];
      e[1][k] = c[k] - b[k];
      e[2][k] = a[k] - c[k];
    }
  for (int axis = 0; axis < 3; axis++) /* the box's own normals */
    {
      gint64 n[3] = { 0, 0, 0 };
      n[axis] = 1;
      if (separated (n, v, h))
        return FALSE;
    }
  gint64 normal[3] = { e[0][1] * e[1][2] - e[0][2] * e[1][1],
                       e[0][2] * e[1][0] - e[0][0] * e[1][2],
                       e[0][0] * e[1][1] - e[0][1] * e[1][0] };
  if (separated (normal, v, h))
    return FALSE;
  for (int axis = 0; axis < 3; axis++) /* box axis × triangle edge */
    for (int j = 0; j < 3; j++)
      {
        const gint64 *d = e[j];
        gint64 n[3];
        if (axis == 0)
          n[0] = 0, n[1] = -d[2], n[2] = d[1];
        else if (axis == 1)
          n[0] = d[2], n[1] = 0, n[2] = -d[0];
        else
          n[0] = -d[1], n[1] = d[0], n[2] = 0;
        if (separated (n, v, h))
          return FALSE;
      }
  return TRUE;
}

/* ---- layout ------------------------------------------------------------- */

static void
pad_to (GByteArray *o, gsize start, gsize align)
{
  while ((o->len - start) % align)
    wk_put_u8 (o, 0);
}

static void
put_node (GByteArray *o, const WkCollNode *n, gsize entry)
{
  wk_put_u16 (o, (guint16) (gint16) n->coord);
  wk_put_u16 (o, (guint16) n->count);
  for (guint i = 0; i < n->count * entry; i++)
    wk_put_u8 (o, 0);
}

#define LIMIT(...)                                                      \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    return NULL;                                                        \
  } G_STMT_END

static guint32
pack_vertex (const gint16 v[3])
{
  return ((guint32) v[0] & 0x3ffu) | (((guint32) v[1] & 0x3ffu) << 10)
         | (((guint32) v[2] & 0xfffu) << 20);
}

GBytes *
wk_rc2_collision_build_octants (const WkRc2Collision *c, const guint8 *hero,
                                gsize hero_size, GError **error)
{
  if (c->mesh_offset < 8 || c->z.count > 0xffff)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "mesh offset %d (at least 8), "
                    "%u Z slots (at most 65535)", c->mesh_offset, c->z.count);
      return NULL;
    }
  if (c->y_nodes->len != c->z.count)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%u Y nodes for %u Z slots",
                    c->y_nodes->len, c->z.count);
      return NULL;
    }
  g_autoptr (GByteArray) o = g_byte_array_new ();
  wk_put_u32 (o, (guint32) c->mesh_offset);
  wk_put_u32 (o, 0);
  while (o->len < (guint) c->mesh_offset)
    wk_put_u8 (o, 0);
  gsize m = o->len;
  put_node (o, &c->z, 2);
  /* Y nodes, then X nodes, each 4-aligned; slots filled as they land. */
  g_autofree gsize *y_at = g_new0 (gsize, MAX (c->z.count, 1));
  guint nx = 0;
  for (guint zi = 0; zi < c->z.count; zi++)
    {
      const WkCollNode *y = &g_array_index (c->y_nodes, WkCollNode, zi);
      if (y->offset == 0)
        continue;
      pad_to (o, m, 4);
      if ((o->len - m) / 4 > 0xffff)
        LIMIT ("the Y node of Z slot %u lands at mesh offset 0x%x, beyond the "
               "256 KiB a Z entry reaches", zi, o->len - (guint) m);
      guint16 le = GUINT16_TO_LE ((guint16) ((o->len - m) / 4));
      memcpy (o->data + m + 4 + 2 * zi, &le, 2);
      y_at[zi] = o->len;
      put_node (o, y, 4);
      nx += y->count;
    }
  if (c->x_nodes->len != nx)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%u X nodes for %u Y slots",
                    c->x_nodes->len, nx);
      return NULL;
    }
  g_autofree gsize *x_at = g_new0 (gsize, MAX (nx, 1));
  guint xk = 0;
  for (guint zi = 0; zi < c->z.count; zi++)
    {
      const WkCollNode *y = &g_array_index (c->y_nodes, WkCollNode, zi);
      for (guint yi = 0; y->offset && yi < y->count; yi++, xk++)
        {
          const WkCollNode *x = &g_array_index (c->x_nodes, WkCollNode, xk);
          if (x->offset == 0)
            continue;
          pad_to (o, m, 4);
          wk_set_u32 (o, y_at[zi] + 4 + 4 * yi, (guint32) (o->len - m));
          x_at[xk] = o->len;
          put_node (o, x, 4);
        }
    }
  /* Octants, 16-aligned, in tree order. */
  guint oi = 0;
  xk = 0;
  for (guint zi = 0; zi < c->z.count; zi++)
    {
      const WkCollNode *y = &g_array_index (c->y_nodes, WkCollNode, zi);
      for (guint yi = 0; y->offset && yi < y->count; yi++, xk++)
        {
          const WkCollNode *x = &g_array_index (c->x_nodes, WkCollNode, xk);
          for (guint xi = 0; x->offset && xi < x->count; xi++)
            {
              if (oi >= c->octants->len)
                break;
              const WkCollOctant *t = &g_array_index (c->octants, WkCollOctant, oi);
              if (t->x != x->coord + (gint32) xi || t->y != y->coord + (gint32) yi
                  || t->z != c->z.coord + (gint32) zi)
                continue;
              oi++;
              gsize bytes = 4 + 4 * (gsize) t->n_vertices + 4 * (gsize) t->n_faces
                            + t->n_quads;
              if (t->n_vertices > 255 || t->n_quads > 255 || t->n_quads > t->n_faces
                  || bytes > WK_COLL_MAX_OCTANT_BYTES)
                LIMIT ("octant (%d, %d, %d): %u vertices, %u faces, %u quads "
                       "take %" G_GSIZE_FORMAT " bytes; an octant holds at most "
                       "255 vertices, 255 quads and 4080 bytes", t->x, t->y,
                       t->z, t->n_vertices, t->n_faces, t->n_quads, bytes);
              pad_to (o, m, 16);
              gsize at = o->len - m;
              if (at >= (1u << 24))
                LIMIT ("octant (%d, %d, %d) lands at mesh offset 0x%" G_GSIZE_MODIFIER
                       "x, beyond the 16 MiB an X entry reaches", t->x, t->y,
                       t->z, at);
              wk_set_u32 (o, x_at[xk] + 4 + 4 * xi,
                        (guint32) (at << 8) | (guint32) ((bytes + 15) / 16));
              wk_put_u16 (o, (guint16) t->n_faces);
              wk_put_u8 (o, (guint8) t->n_vertices);
              wk_put_u8 (o, (guint8) t->n_quads);
              for (guint i = 0; i < t->n_vertices; i++)
                wk_put_u32 (o, pack_vertex (&g_array_index (
                                   c->vertices, gint16, 3 * ((gsize) t->first_vertex + i))));
              for (guint i = 0; i < t->n_faces; i++)
                {
                  const WkCollFace *f = &g_array_index (c->faces, WkCollFace,
                                                        t->first_face + i);
                  wk_put_bytes (o, f->v, 3);
                  wk_put_u8 (o, f->tag);
                }
              for (guint i = 0; i < t->n_quads; i++)
                wk_put_u8 (o, g_array_index (c->faces, WkCollFace, t->first_face + i).v[3]);
            }
        }
    }
  if (oi != c->octants->len)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "octant %u is outside the tree "
                    "or out of tree order", oi);
      return NULL;
    }
  if (hero_size)
    {
      pad_to (o, 0, 0x40);
      wk_set_u32 (o, 4, o->len);
      wk_put_bytes (o, hero, hero_size);
    }
  GBytes *out = g_byte_array_free_to_bytes (g_steal_pointer (&o));
  gsize size;
  const guint8 *p = g_bytes_get_data (out, &size);
  WkRc2Collision *check = wk_rc2_collision_parse (p, size, 0, error);
  if (check == NULL)
    {
      wk_error_prefix (error, "written collision does not read back");
      g_bytes_unref (out);
      return NULL;
    }
  wk_rc2_collision_free (check);
  return out;
}

/* ---- binning faces into octants ------------------------------------------ */

typedef struct {
  guint32 quad;        /* 0 for quads (they come first), 1 for triangles */
  gint32 q[4][3];      /* corners in stored order, 1/64 m */
  guint32 tag, id;
} FaceRec;

static int
cmp_face (const void *a, const void *b)
{
  const FaceRec *x = a, *y = b;
  if (x->quad != y->quad)
    return x->quad < y->quad ? -1 : 1;
  int c = memcmp (x->q, y->q, sizeof x->q); /* any fixed total order will do */
  if (c)
    return c;
  if (x->tag != y->tag)
    return x->tag < y->tag ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

typedef struct {
  gint32 z, y, x;
  guint32 rank;
} Pair;

static int
cmp_pair (const void *a, const void *b)
{
  const Pair *p = a, *q = b;
  if (p->z != q->z) return p->z < q->z ? -1 : 1;
  if (p->y != q->y) return p->y < q->y ? -1 : 1;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  return p->rank < q->rank ? -1 : p->rank > q->rank;
}

static gint64
floor_div (gint64 a, gint64 b)
{
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static void
face_name (char *buf, gsize n, const FaceRec *f, gsize n_tris)
{
  if (f->quad == 0)
    g_snprintf (buf, n, "quad %" G_GSIZE_FORMAT, (gsize) f->id - n_tris);
  else
    g_snprintf (buf, n, "triangle %u", f->id);
}

/* Octants the face touches, appended to pairs. */
static gboolean
bin_face (const FaceRec *f, guint32 rank, gsize n_tris, GArray *pairs,
          GError **error)
{
  guint n = f->quad == 0 ? 4 : 3;
  gint64 lo[3], hi[3], k0[3], k1[3];
  for (int a = 0; a < 3; a++)
    {
      lo[a] = hi[a] = f->q[0][a];
      for (guint i = 1; i < n; i++)
        {
          lo[a] = MIN (lo[a], f->q[i][a]);
          hi[a] = MAX (hi[a], f->q[i][a]);
        }
      if (hi[a] - lo[a] > 4096)
        {
          char name[48];
          face_name (name, sizeof name, f, n_tris);
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "%s spans %.2f m on axis %c; a stored vertex lies within "
                        "32 m of the centre of its octant, so a face spans at "
                        "most 64 m", name, (hi[a] - lo[a]) / 64.0, "xyz"[a]);
          return FALSE;
        }
      /* closed octants k with 256k <= hi and 256k + 256 >= lo */
      k0[a] = floor_div (lo[a] + WK_COLL_OCTANT - 1, WK_COLL_OCTANT) - 1;
      k1[a] = floor_div (hi[a], WK_COLL_OCTANT);
    }
  for (gint64 z = k0[2]; z <= k1[2]; z++)
    for (gint64 y = k0[1]; y <= k1[1]; y++)
      for (gint64 x = k0[0]; x <= k1[0]; x++)
        {
          gint64 cen[3] = { x * WK_COLL_OCTANT + WK_COLL_OCTANT / 2,
                            y * WK_COLL_OCTANT + WK_COLL_OCTANT / 2,
                            z * WK_COLL_OCTANT + WK_COLL_OCTANT / 2 };
          gint64 v[4][3];
          for (guint i = 0; i < n; i++)
            for (int a = 0; a < 3; a++)
              v[i][a] = f->q[i][a] - cen[a];
          gboolean hit = wk_coll_tri_box (v[0], v[1], v[2], WK_COLL_OCTANT / 2);
          if (!hit && n == 4)
            hit = wk_coll_tri_box (v[2], v[3], v[0], WK_COLL_OCTANT / 2);
          if (!hit)
            continue;
          for (guint i = 0; i < n; i++)
            if (v[i][0] < -2048 || v[i][0] > 2044 || v[i][1] < -2048
                || v[i][1] > 2044 || v[i][2] < -2048 || v[i][2] > 2047)
              {
                char name[48];
                face_name (name, sizeof name, f, n_tris);
                wk_set_error (error, WK_ERROR_LIMIT, -1,
                              "octant (%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                              ", %" G_GINT64_FORMAT "): %s has a corner (%.3f, "
                              "%.3f, %.3f) m from the octant centre; a stored "
                              "vertex reaches -32..31.94 m (x, y), -32..31.98 m "
                              "(z)", x, y, z, name, v[i][0] / 64.0,
                              v[i][1] / 64.0, v[i][2] / 64.0);
                return FALSE;
              }
          Pair p = { (gint32) z, (gint32) y, (gint32) x, rank };
          g_array_append_val (pairs, p);
        }
  return TRUE;
}

/* One octant from its run of pairs: vertices in order of first use. */
static gboolean
fill_octant (WkRc2Collision *c, const Pair *run, gsize len, const FaceRec *sorted,
             gsize n_tris, GError **error)
{
  WkCollOctant o = { .x = run[0].x, .y = run[0].y, .z = run[0].z,
                     .first_vertex = c->vertices->len, .first_face = c->faces->len,
                     .n_faces = (guint) len };
  gint32 cen[3] = { o.x * WK_COLL_OCTANT + WK_COLL_OCTANT / 2,
                    o.y * WK_COLL_OCTANT + WK_COLL_OCTANT / 2,
                    o.z * WK_COLL_OCTANT + WK_COLL_OCTANT / 2 };
  gint16 local[256][3];
  guint nv = 0;
  if (len > 0xffff)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "octant (%d, %d, %d): %"
                    G_GSIZE_FORMAT " faces (at most 65535)", o.x, o.y, o.z, len);
      return FALSE;
    }
  for (gsize i = 0; i < len; i++)
    {
      const FaceRec *f = &sorted[run[i].rank];
      guint n = f->quad == 0 ? 4 : 3;
      WkCollFace face = { { 0, 0, 0, 0 }, (guint8) f->tag };
      o.n_quads += f->quad == 0;
      for (guint k = 0; k < n; k++)
        {
          gint16 l[3] = { (gint16) ((f->q[k][0] - cen[0]) / 4),
                          (gint16) ((f->q[k][1] - cen[1]) / 4),
                          (gint16) (f->q[k][2] - cen[2]) };
          guint j = 0;
          while (j < nv && memcmp (local[j], l, sizeof l))
            j++;
          if (j == nv)
            {
              if (nv == 255)
                {
                  char name[48];
                  face_name (name, sizeof name, f, n_tris);
                  wk_set_error (error, WK_ERROR_LIMIT, -1,
                                "octant (%d, %d, %d): more than 255 vertices "
                                "(at %s, face %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                                " there)", o.x, o.y, o.z, name, i, len);
                  return FALSE;
                }
              memcpy (local[nv++], l, sizeof l);
            }
          face.v[k] = (guint8) j;
        }
      g_array_append_val (c->faces, face);
    }
  o.n_vertices = nv;
  g_array_append_vals (c->vertices, local, nv);
  g_array_append_val (c->octants, o);
  return TRUE;
}

/* The tight tree over the octants (sorted by z, y, x). */
static gboolean
make_tree (WkRc2Collision *c, GError **error)
{
  const WkCollOctant *o = (const WkCollOctant *) (gpointer) c->octants->data;
  guint n = c->octants->len;
  if (n == 0)
    return TRUE;
  gint32 z0 = o[0].z, z1 = o[n - 1].z;
  if ((gint64) z1 - z0 >= 0xffff)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "octants from z = %d to %d: more "
                    "than the 65535 slots of the Z node", z0, z1);
      return FALSE;
    }
  c->z = (WkCollNode) { z0, (guint32) (z1 - z0 + 1), 1 };
  guint i = 0;
  for (gint32 z = z0; z <= z1; z++)
    {
      WkCollNode yn = { 0, 0, 0 };
      guint start = i;
      gint32 ylo = G_MAXINT32, yhi = G_MININT32;
      for (; i < n && o[i].z == z; i++)
        ylo = MIN (ylo, o[i].y), yhi = MAX (yhi, o[i].y);
      if (i > start)
        yn = (WkCollNode) { ylo, (guint32) (yhi - ylo + 1), 1 };
      g_array_append_val (c->y_nodes, yn);
      for (gint32 y = ylo; i > start && y <= yhi; y++)
        {
          WkCollNode xn = { 0, 0, 0 };
          guint k = start;
          while (k < i && o[k].y != y)
            k++;
          if (k < i)
            {
              guint e = k;
              while (e < i && o[e].y == y)
                e++;
              xn = (WkCollNode) { o[k].x, (guint32) (o[e - 1].x - o[k].x + 1), 1 };
            }
          g_array_append_val (c->x_nodes, xn);
        }
    }
  return TRUE;
}

GBytes *
wk_rc2_collision_build (const WkCollMesh *in, GError **error)
{
  gsize nt = in->n_tris, nf = in->n_tris + in->n_quads;
  if (nf > G_MAXUINT32 / 2)
    LIMIT ("%" G_GSIZE_FORMAT " faces", nf);
  g_autofree FaceRec *faces = g_new (FaceRec, MAX (nf, 1));
  for (gsize f = 0; f < nf; f++)
    {
      gboolean quad = f >= nt;
      const guint32 *idx = quad ? in->quads + 4 * (f - nt) : in->tris + 3 * f;
      guint n = quad ? 4 : 3;
      /* stored order: a triangle (a, b, c) as (c, b, a), a quad (a, b, c, d)
       * as (c, b, a, d) (docs) */
      static const guint tri_order[3] = { 2, 1, 0 }, quad_order[4] = { 2, 1, 0, 3 };
      FaceRec *r = &faces[f];
      memset (r, 0, sizeof *r);
      r->quad = quad ? 0 : 1;
      r->tag = quad ? in->quad_tags[f - nt] : in->tri_tags[f];
      r->id = (guint32) f;
      for (guint k = 0; k < n; k++)
        {
          guint32 v = idx[quad ? quad_order[k] : tri_order[k]];
          if (v >= in->n_positions)
            {
              wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%s %" G_GSIZE_FORMAT
                            ": vertex %u of %" G_GSIZE_FORMAT, quad ? "quad" : "triangle",
                            quad ? f - nt : f, v, in->n_positions);
              return NULL;
            }
          for (int a = 0; a < 3; a++)
            {
              gdouble p = in->positions[3 * (gsize) v + (gsize) a];
              gdouble q = a < 2 ? round (p * 16) * 4 : round (p * 64);
              if (!(q > -8388352.0 && q < 8388352.0)) /* 2^23 - 256 */
                {
                  wk_set_error (error, WK_ERROR_LIMIT, -1, "vertex %u (%g on axis "
                                "%c) lies outside the ±131,068 m the octant "
                                "coordinates (s16 × 4 m) reach", v, p, "xyz"[a]);
                  return NULL;
                }
              r->q[k][a] = (gint32) q;
            }
        }
    }
  g_autofree FaceRec *sorted = g_memdup2 (faces, sizeof (FaceRec) * MAX (nf, 1));
  qsort (sorted, nf, sizeof (FaceRec), cmp_face);
  g_autoptr (GArray) pairs = g_array_sized_new (FALSE, FALSE, sizeof (Pair), nf * 4);
  for (gsize r = 0; r < nf; r++)
    if (!bin_face (&sorted[r], (guint32) r, nt, pairs, error))
      return NULL;
  if (pairs->len)
    qsort (pairs->data, pairs->len, sizeof (Pair), cmp_pair);

  g_autoptr (WkRc2Collision) c = g_new0 (WkRc2Collision, 1);
  c->mesh_offset = WK_COLL_MESH_OFFSET;
  c->y_nodes = g_array_new (FALSE, FALSE, sizeof (WkCollNode));
  c->x_nodes = g_array_new (FALSE, FALSE, sizeof (WkCollNode));
  c->octants = g_array_new (FALSE, FALSE, sizeof (WkCollOctant));
  c->vertices = g_array_new (FALSE, FALSE, 3 * sizeof (gint16));
  c->faces = g_array_new (FALSE, FALSE, sizeof (WkCollFace));
  const Pair *p = (const Pair *) (gpointer) pairs->data;
  for (gsize i = 0; i < pairs->len;)
    {
      gsize e = i + 1;
      while (e < pairs->len && p[e].x == p[i].x && p[e].y == p[i].y
             && p[e].z == p[i].z)
        e++;
      if (!fill_octant (c, p + i, e - i, sorted, nt, error))
        return NULL;
      i = e;
    }
  if (!make_tree (c, error))
    return NULL;
  return wk_rc2_collision_build_octants (c, NULL, 0, error);
}
