/* The RC2 collision reader. docs/formats/rc2-collision-sky.md ("Collision"). */
#include "rc2_collision.h"

#include "../common/wk_idmap.h"
#include "../common/wk_reader.h"

void
wk_rc2_collision_free (WkRc2Collision *c)
{
  if (c == NULL)
    return;
  GArray **arrays[] = { &c->y_nodes, &c->x_nodes, &c->octants, &c->vertices,
                        &c->faces, &c->positions, &c->tris, &c->quads };
  for (gsize i = 0; i < G_N_ELEMENTS (arrays); i++)
    g_clear_pointer (arrays[i], g_array_unref);
  g_free (c);
}

typedef struct {
  const guint8 *mesh;
  gsize size;          /* mesh bytes */
  gint64 abs;          /* absolute offset of mesh[0] */
  guint64 slots;       /* Y and X slots visited (work bound) */
  guint64 octant_bytes;/* octant bytes visited (work bound) */
  WkRc2Collision *c;
  WkIdMap vmap, fmap;
  guint32 *octant_ids; /* scratch: world id of each vertex of one octant */
} Reader;

/* A node {s16 coord, u16 count, count × entry} at offset `at` of the mesh. */
static gboolean
read_node (Reader *r, guint32 at, gsize entry, const char *what, WkCollNode *n,
           GError **error)
{
  if ((gsize) at + 4 > r->size
      || (guint64) wk_le16 (r->mesh + at + 2) * entry > r->size - at - 4)
    {
      wk_set_error (error, WK_ERROR_FORMAT, r->abs + (at < r->size ? at : 0),
                    "%s node at mesh offset 0x%x does not fit the 0x%"
                    G_GSIZE_MODIFIER "x-byte mesh", what, at, r->size);
      return FALSE;
    }
  n->coord = wk_les16 (r->mesh + at);
  n->count = wk_le16 (r->mesh + at + 2);
  n->offset = at;
  if (entry == 4)
    {
      r->slots += n->count;
      if (r->slots * 4 > r->size)
        {
          wk_set_error (error, WK_ERROR_FORMAT, r->abs + at,
                        "the tree visits more node entries than the 0x%"
                        G_GSIZE_MODIFIER "x-byte mesh holds (shared nodes)",
                        r->size);
          return FALSE;
        }
    }
  return TRUE;
}

/* Equality tests reach the arrays through a small context. */
typedef struct {
  const GArray *arr;
  const guint32 *key;   /* gint32[3] for vertices; canonical face for faces */
  guint n;              /* 3 or 4 corners; 0 for vertices */
  guint8 tag;
} EqCtx;

static gboolean
pos_eq (gconstpointer ctx, guint32 id)
{
  const EqCtx *e = ctx;
  const gint32 *p = (const gint32 *) (gpointer) (e->arr->data + 12 * (gsize) id);
  const gint32 *k = (const gint32 *) e->key;
  return p[0] == k[0] && p[1] == k[1] && p[2] == k[2];
}

/* Rotate a polygon of n ids so the smallest comes first (winding kept). */
static void
canonical (const guint32 *v, guint n, guint32 *out)
{
  guint m = 0;
  for (guint i = 1; i < n; i++)
    if (v[i] < v[m])
      m = i;
  for (guint i = 0; i < n; i++)
    out[i] = v[(m + i) % n];
}

static gboolean
face_eq (gconstpointer ctx, guint32 id)
{
  const EqCtx *e = ctx;
  guint32 k[4];
  if (e->n == 3)
    {
      const WkCollTri *t = &g_array_index (e->arr, WkCollTri, id);
      if (t->tag != e->tag)
        return FALSE;
      canonical (t->v, 3, k);
    }
  else
    {
      const WkCollQuad *q = &g_array_index (e->arr, WkCollQuad, id);
      if (q->tag != e->tag)
        return FALSE;
      canonical (q->v, 4, k);
    }
  return memcmp (k, e->key, e->n * sizeof (guint32)) == 0;
}

static guint64
face_hash (const guint32 *key, guint n, guint8 tag)
{
  guint32 w[6] = { key[0], key[1], key[2], n == 4 ? key[3] : G_MAXUINT32, tag, n };
  return wk_hash_words (w, 6);
}

static gint32
sext (guint32 v, guint bits)
{
  gint32 x = (gint32) (v & ((1u << bits) - 1));
  return x >= (gint32) (1u << (bits - 1)) ? x - (gint32) (1u << bits) : x;
}

static gboolean
read_octant (Reader *r, WkCollOctant *o, guint32 entry, gint64 entry_abs,
             GError **error)
{
  o->offset = entry >> 8;
  o->size16 = entry & 0xff;
  gint64 at = r->abs + o->offset;
  if (o->offset % 16 || (gsize) o->offset + 4 > r->size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, entry_abs,
                    "octant offset 0x%x is not 16-aligned inside the 0x%"
                    G_GSIZE_MODIFIER "x-byte mesh", o->offset, r->size);
      return FALSE;
    }
  const guint8 *p = r->mesh + o->offset;
  o->n_faces = wk_le16 (p);
  o->n_vertices = p[2];
  o->n_quads = p[3];
  gsize bytes = 4 + 4 * (gsize) o->n_vertices + 4 * (gsize) o->n_faces + o->n_quads;
  if (o->n_quads > o->n_faces)
    {
      wk_set_error (error, WK_ERROR_FORMAT, at + 3, "%u quads among %u faces",
                    o->n_quads, o->n_faces);
      return FALSE;
    }
  if ((bytes + 15) / 16 != o->size16)
    {
      wk_set_error (error, WK_ERROR_FORMAT, entry_abs,
                    "size byte %u, but %u vertices, %u faces and %u quads take "
                    "%" G_GSIZE_FORMAT " bytes (size byte %" G_GSIZE_FORMAT ")",
                    o->size16, o->n_vertices, o->n_faces, o->n_quads, bytes,
                    (bytes + 15) / 16);
      return FALSE;
    }
  r->octant_bytes += bytes;
  if (o->offset + bytes > r->size || r->octant_bytes > r->size)
    {
      wk_set_error (error, WK_ERROR_FORMAT, at,
                    "%" G_GSIZE_FORMAT " octant bytes run past the 0x%"
                    G_GSIZE_MODIFIER "x-byte mesh (or octants are shared)",
                    bytes, r->size);
      return FALSE;
    }
  WkRc2Collision *c = r->c;
  o->first_vertex = c->vertices->len;
  o->first_face = c->faces->len;
  gint64 centre[3] = { (gint64) o->x * WK_COLL_OCTANT + WK_COLL_OCTANT / 2,
                       (gint64) o->y * WK_COLL_OCTANT + WK_COLL_OCTANT / 2,
                       (gint64) o->z * WK_COLL_OCTANT + WK_COLL_OCTANT / 2 };
  for (guint i = 0; i < o->n_vertices; i++)
    {
      guint32 v = wk_le32 (p + 4 + 4 * i);
      gint16 local[3] = { (gint16) sext (v, 10), (gint16) sext (v >> 10, 10),
                          (gint16) sext (v >> 20, 12) };
      g_array_append_vals (c->vertices, local, 1);
      gint32 w[3] = { (gint32) (centre[0] + 4 * local[0]),
                      (gint32) (centre[1] + 4 * local[1]),
                      (gint32) (centre[2] + local[2]) };
      EqCtx e = { c->positions, (const guint32 *) w, 0, 0 };
      guint32 id = wk_idmap_find_or_add (&r->vmap, wk_hash_words ((guint32 *) w, 3),
                                         pos_eq, &e, c->positions->len);
      if (id == G_MAXUINT32)
        {
          id = c->positions->len;
          g_array_append_vals (c->positions, w, 1);
        }
      r->octant_ids[i] = id;
    }
  const guint8 *f = p + 4 + 4 * (gsize) o->n_vertices;
  const guint8 *v3 = f + 4 * (gsize) o->n_faces;
  for (guint i = 0; i < o->n_faces; i++)
    {
      WkCollFace face = { { f[4 * i], f[4 * i + 1], f[4 * i + 2],
                            i < o->n_quads ? v3[i] : 0 }, f[4 * i + 3] };
      guint n = i < o->n_quads ? 4 : 3;
      for (guint k = 0; k < n; k++)
        if (face.v[k] >= o->n_vertices)
          {
            wk_set_error (error, WK_ERROR_FORMAT,
                          k < 3 ? at + 4 + 4 * o->n_vertices + 4 * i + k
                                : at + 4 + 4 * o->n_vertices + 4 * o->n_faces + i,
                          "face %u: vertex index %u, the octant has %u vertices",
                          i, face.v[k], o->n_vertices);
            return FALSE;
          }
      g_array_append_val (c->faces, face);
      guint32 ids[4], key[4];
      for (guint k = 0; k < n; k++)
        ids[k] = r->octant_ids[face.v[k]];
      canonical (ids, n, key);
      EqCtx e = { n == 4 ? c->quads : c->tris, key, n, face.tag };
      GArray *dst = n == 4 ? c->quads : c->tris;
      if (wk_idmap_find_or_add (&r->fmap, face_hash (key, n, face.tag), face_eq,
                                &e, dst->len) != G_MAXUINT32)
        continue;
      if (n == 4)
        {
          WkCollQuad q = { { ids[0], ids[1], ids[2], ids[3] }, face.tag };
          g_array_append_val (c->quads, q);
        }
      else
        {
          WkCollTri t = { { ids[0], ids[1], ids[2] }, face.tag };
          g_array_append_val (c->tris, t);
        }
    }
  return TRUE;
}

/* Drop stored triangles that are one of the four halves of a stored quad of
 * the same tag (a writer may store only the half that touches an octant). */
static void
fold_halves (WkRc2Collision *c)
{
  if (c->quads->len == 0 || c->tris->len == 0)
    return;
  g_autoptr (GArray) halves = g_array_sized_new (FALSE, FALSE, sizeof (WkCollTri),
                                                 4 * c->quads->len);
  WkIdMap m;
  wk_idmap_init (&m, 4 * c->quads->len);
  for (guint i = 0; i < c->quads->len; i++)
    {
      const WkCollQuad *q = &g_array_index (c->quads, WkCollQuad, i);
      for (guint s = 0; s < 4; s++)
        {
          guint32 h[3] = { q->v[s], q->v[(s + 1) % 4], q->v[(s + 2) % 4] };
          WkCollTri t;
          canonical (h, 3, t.v);
          t.tag = q->tag;
          EqCtx e = { halves, t.v, 3, t.tag };
          if (wk_idmap_find_or_add (&m, face_hash (t.v, 3, t.tag), face_eq, &e,
                                    halves->len) == G_MAXUINT32)
            g_array_append_val (halves, t);
        }
    }
  guint kept = 0;
  for (guint i = 0; i < c->tris->len; i++)
    {
      WkCollTri t = g_array_index (c->tris, WkCollTri, i);
      guint32 key[3];
      canonical (t.v, 3, key);
      EqCtx e = { halves, key, 3, t.tag };
      if (wk_idmap_find (&m, face_hash (key, 3, t.tag), face_eq, &e) != G_MAXUINT32)
        c->folded++;
      else
        g_array_index (c->tris, WkCollTri, kept++) = t;
    }
  g_array_set_size (c->tris, kept);
  wk_idmap_clear (&m);
}

static gboolean
read_tree (Reader *r, GError **error)
{
  WkRc2Collision *c = r->c;
  if (!read_node (r, 0, 2, "Z", &c->z, error))
    return FALSE;
  for (guint zi = 0; zi < c->z.count; zi++)
    {
      guint32 zoff = 4u * wk_le16 (r->mesh + 4 + 2 * zi);
      WkCollNode yn = { 0 };
      if (zoff && !read_node (r, zoff, 4, "Y", &yn, error))
        {
          wk_error_prefix (error, "Z slot %u", zi);
          return FALSE;
        }
      g_array_append_val (c->y_nodes, yn);
      for (guint yi = 0; zoff && yi < yn.count; yi++)
        {
          gint64 yabs = r->abs + zoff + 4 + 4 * yi;
          guint32 yoff = wk_le32 (r->mesh + zoff + 4 + 4 * yi);
          WkCollNode xn = { 0 };
          if (yoff && (yoff % 4 || !read_node (r, yoff, 4, "X", &xn, error)))
            {
              if (yoff % 4)
                wk_set_error (error, WK_ERROR_FORMAT, yabs,
                              "X node offset 0x%x is not 4-aligned", yoff);
              wk_error_prefix (error, "Z slot %u, Y slot %u", zi, yi);
              return FALSE;
            }
          g_array_append_val (c->x_nodes, xn);
          for (guint xi = 0; yoff && xi < xn.count; xi++)
            {
              gint64 xabs = r->abs + yoff + 4 + 4 * xi;
              guint32 entry = wk_le32 (r->mesh + yoff + 4 + 4 * xi);
              if ((entry >> 8) == 0)
                continue;
              WkCollOctant o = { .x = xn.coord + (gint32) xi,
                                 .y = yn.coord + (gint32) yi,
                                 .z = c->z.coord + (gint32) zi };
              if (!read_octant (r, &o, entry, xabs, error))
                {
                  wk_error_prefix (error, "octant (%d, %d, %d)", o.x, o.y, o.z);
                  return FALSE;
                }
              g_array_append_val (c->octants, o);
            }
        }
    }
  return TRUE;
}

WkRc2Collision *
wk_rc2_collision_parse (const guint8 *block, gsize size, gint64 base,
                        GError **error)
{
  if (size < 8 || size > G_MAXINT32)
    {
      wk_set_error (error, WK_ERROR_FORMAT, base, "collision block of %"
                    G_GSIZE_FORMAT " bytes has no header", size);
      return NULL;
    }
  g_autoptr (WkRc2Collision) c = g_new0 (WkRc2Collision, 1);
  c->mesh_offset = wk_les32 (block);
  c->hero_groups = wk_les32 (block + 4);
  gsize end = c->hero_groups ? (gsize) MAX (c->hero_groups, 0) : size;
  if (c->mesh_offset < 8 || (gsize) c->mesh_offset + 4 > size
      || (c->hero_groups && (c->hero_groups <= c->mesh_offset || end > size)))
    {
      wk_set_error (error, WK_ERROR_FORMAT, base,
                    "mesh at 0x%x, hero groups at 0x%x: outside the %"
                    G_GSIZE_FORMAT "-byte block or out of order", c->mesh_offset,
                    c->hero_groups, size);
      return NULL;
    }
  c->mesh_size = end - (gsize) c->mesh_offset;
  c->y_nodes = g_array_new (FALSE, FALSE, sizeof (WkCollNode));
  c->x_nodes = g_array_new (FALSE, FALSE, sizeof (WkCollNode));
  c->octants = g_array_new (FALSE, FALSE, sizeof (WkCollOctant));
  c->vertices = g_array_new (FALSE, FALSE, 3 * sizeof (gint16));
  c->faces = g_array_new (FALSE, FALSE, sizeof (WkCollFace));
  c->positions = g_array_new (FALSE, FALSE, 3 * sizeof (gint32));
  c->tris = g_array_new (FALSE, FALSE, sizeof (WkCollTri));
  c->quads = g_array_new (FALSE, FALSE, sizeof (WkCollQuad));
  Reader r = { .mesh = block + c->mesh_offset, .size = c->mesh_size,
               .abs = base + c->mesh_offset, .c = c };
  guint32 ids[256];
  r.octant_ids = ids;
  wk_idmap_init (&r.vmap, c->mesh_size / 16);
  wk_idmap_init (&r.fmap, c->mesh_size / 16);
  gboolean ok = read_tree (&r, error);
  wk_idmap_clear (&r.vmap);
  wk_idmap_clear (&r.fmap);
  if (!ok)
    return NULL;
  fold_halves (c);
  return g_steal_pointer (&c);
}

void
wk_rc2_collision_fill (const WkRc2Collision *c, const WkCollMeshOut *out)
{
  const gint32 *p = (const gint32 *) (gpointer) c->positions->data;
  for (gsize i = 0; i < 3 * (gsize) c->positions->len; i++)
    out->positions[i] = (gfloat) p[i] / WK_COLL_UNITS;
  gsize t = 0;
  for (guint i = 0; i < c->tris->len; i++, t++)
    {
      const WkCollTri *s = &g_array_index (c->tris, WkCollTri, i);
      for (int k = 0; k < 3; k++) /* stored clockwise: reversed */
        out->triangles[3 * t + (gsize) k] = s->v[2 - k];
      out->tag[t] = s->tag;
      out->quad[t] = 0;
    }
  for (guint i = 0; i < c->quads->len; i++)
    {
      const WkCollQuad *q = &g_array_index (c->quads, WkCollQuad, i);
      /* reversed and turned so that the split r0-r2 is the stored v0-v2 */
      guint32 r[4] = { q->v[2], q->v[1], q->v[0], q->v[3] };
      memcpy (out->quads + 4 * (gsize) i, r, sizeof r);
      out->quad_tag[i] = q->tag;
      guint32 halves[6] = { r[0], r[1], r[2], r[2], r[3], r[0] };
      memcpy (out->triangles + 3 * t, halves, sizeof halves);
      for (int k = 0; k < 2; k++, t++)
        {
          out->tag[t] = q->tag;
          out->quad[t] = 1;
        }
    }
}
