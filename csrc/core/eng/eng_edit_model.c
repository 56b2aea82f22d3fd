/* ENG edits of models: new render geometry (set_geometry) or new collision
 * (set_collision) for a set of tiles. The model is rewritten in place when
 * the tiles are exactly its users, else a new model is appended. What did
 * not change keeps its stored bytes: vertex bits, normals of vertices whose
 * faces did not change, face planes, the box while every vertex stays in
 * it, and collision records whose polygon is unchanged.
 * docs/formats/eng.md "Editing a level in place". */
#include "eng_edit_priv.h"

#include <math.h>

#include "eng_cells.h"
#include "eng_coll_record.h"
#include "eng_collision.h"
#include "eng_world.h"

#define UV_BITS (WK_ENG_FACE_QUAD | WK_ENG_FACE_SECOND | WK_ENG_FACE_MIRROR_U)
/* a polygon whose corners lie this close (units) to a stored record's
 * decoded corners is that record, unchanged [assumed: decoded corners
 * pass through f32 (~1e-6 here); 0.1 mm is far below what a record holds] */
#define SAME_CORNER 1e-4

/* ---- the tiles of an edit ---- */

static gboolean
check_tiles (const WkEngEdit *e, const char *what, const char *name,
             const guint32 *tiles, guint n, GError **error)
{
  if (n == 0)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%s: tiles is empty", what);
      wk_error_set_object (error, name);
      return FALSE;
    }
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint k = 0; k < n; k++)
    {
      if (wk_eng_edit_live_tile (e, tiles[k], what, error) == NULL)
        {
          wk_error_set_object (error, name);
          return FALSE;
        }
      if (!g_hash_table_add (seen, GUINT_TO_POINTER (tiles[k] + 1)))
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1, "%s: tile %u listed twice",
                        what, tiles[k]);
          wk_eng_edit_error (error, name, tiles[k], -1);
          return FALSE;
        }
    }
  return TRUE;
}

static WkEngEditTile *
tile_at (const WkEngEdit *e, guint32 i)
{
  return &g_array_index (e->tiles, WkEngEditTile, i);
}

static WkEngEditModel *
model_at (const WkEngEdit *e, guint32 i)
{
  return &g_array_index (e->models, WkEngEditModel, i);
}

/* TRUE when the tiles are exactly the users of their one model m: then m
 * can be rewritten in place without changing any other tile. */
static gboolean
exclusive (const WkEngEdit *e, guint32 m, const guint32 *tiles, guint n)
{
  for (guint k = 0; k < n; k++)
    if (tile_at (e, tiles[k])->model != m)
      return FALSE;
  guint users = 0;
  for (guint i = 0; i < e->tiles->len; i++)
    {
      const WkEngEditTile *t = tile_at (e, i);
      users += !t->deleted && t->model == m;
    }
  return users == n && !wk_eng_edit_model_in_swaps (e, m, tiles, n);
}

/* Give the tiles model nm (taken): in place of m, or appended. */
static guint32
install (WkEngEdit *e, WkEngModel *nm, gboolean in_place, guint32 m,
         const guint32 *tiles, guint n, GArray *spill, const char *name)
{
  WkEngEditModel em = { nm, TRUE, spill, g_strdup (name) };
  if (in_place)
    {
      wk_eng_edit_model_clear (model_at (e, m));
      *model_at (e, m) = em;
      return m;
    }
  guint32 idx = e->models->len;
  g_array_append_val (e->models, em);
  for (guint k = 0; k < n; k++)
    wk_eng_edit_retarget (e, tile_at (e, tiles[k]), idx);
  return idx;
}

/* Points first..first+n-1 of p must be finite and in the 20.12 range. */
static gboolean
check_points (const gfloat *p, gsize first, gsize n, const char *what,
              GError **error)
{
  for (gsize i = 3 * first; i < 3 * (first + n); i++)
    if (!isfinite (p[i]) || fabsf (p[i]) > WK_ENG_MAX_COORD)
      {
        wk_set_error (error, fabsf (p[i]) > WK_ENG_MAX_COORD ? WK_ERROR_LIMIT
                                                              : WK_ERROR_ARGUMENT,
                      -1, "%s: vertex %" G_GSIZE_FORMAT " is %s", what, i / 3,
                      isfinite (p[i]) ? "beyond the 20.12 fixed-point range"
                                      : "not finite");
        wk_error_locate (error, -1, -1, (gint64) (i / 3));
        return FALSE;
      }
  return TRUE;
}

/* ---- set_geometry ---- */

/* Keep what did not change from ref: the stored bits of equal positions,
 * planes of faces with the same corners at the same places, normals of
 * vertices none of whose faces changed, the box while it holds every
 * vertex. m was recomputed before. */
static void
keep_unchanged (WkEngModel *m, const WkEngModel *ref)
{
  /* moved: the position changed; dirty: the normal is recomputed (moved,
   * or a corner of a face that is not the same as before) */
  g_autofree gboolean *moved = g_new0 (gboolean, (gsize) m->n_verts + 1);
  g_autofree gboolean *dirty = g_new0 (gboolean, (gsize) m->n_verts + 1);
  for (guint i = 0; i < m->n_verts; i++)
    dirty[i] = moved[i] = i >= ref->n_verts
                          || memcmp (&m->verts[6 * (gsize) i], &ref->verts[6 * (gsize) i],
                                     3 * sizeof (gfloat)) != 0;
  guint nf = MAX (m->n_faces, ref->n_faces);
  for (guint f = 0; f < nf; f++)
    {
      gboolean same = f < m->n_faces && f < ref->n_faces;
      for (int k = 0; same && k < 3; k++)
        same = m->faces[f].v[k] == ref->faces[f].v[k] && !moved[m->faces[f].v[k]];
      if (same)
        {
          memcpy (m->faces[f].plane, ref->faces[f].plane, sizeof m->faces[f].plane);
          continue;
        }
      for (int k = 0; k < 3; k++)
        {
          if (f < m->n_faces)
            dirty[m->faces[f].v[k]] = TRUE;
          if (f < ref->n_faces && ref->faces[f].v[k] < m->n_verts)
            dirty[ref->faces[f].v[k]] = TRUE;
        }
    }
  for (guint i = 0; i < m->n_verts; i++)
    if (!dirty[i])
      memcpy (&m->verts[6 * (gsize) i + 3], &ref->verts[6 * (gsize) i + 3],
              3 * sizeof (gfloat));
  gfloat lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
  for (int c = 0; c < 8; c++)
    for (int k = 0; k < 3; k++)
      {
        lo[k] = MIN (lo[k], ref->box[c][k]);
        hi[k] = MAX (hi[k], ref->box[c][k]);
      }
  gboolean inside = ref->n_verts > 0;
  for (guint i = 0; inside && i < m->n_verts; i++)
    for (int k = 0; k < 3; k++)
      inside = inside && m->verts[6 * (gsize) i + k] >= lo[k]
               && m->verts[6 * (gsize) i + k] <= hi[k];
  if (inside)
    {
      memcpy (m->box, ref->box, sizeof m->box);
      memcpy (m->centre, ref->centre, sizeof m->centre);
    }
}

static gboolean
check_geometry (const WkEngEdit *e, const WkEngGeomEdit *in, GError **error)
{
  if (in->n_verts > WK_ENG_MAX_MODEL_VERTS)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1,
                    "%" G_GSIZE_FORMAT " vertices: the engine's transform buffer "
                    "holds %d per model", in->n_verts, WK_ENG_MAX_MODEL_VERTS);
      wk_error_locate (error, -1, -1, WK_ENG_MAX_MODEL_VERTS);
      return FALSE;
    }
  if (in->n_tris > G_MAXUINT16)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "%" G_GSIZE_FORMAT " triangles: "
                    "a model holds at most 65535", in->n_tris);
      return FALSE;
    }
  if (!check_points (in->positions, 0, in->n_verts, "positions", error))
    return FALSE;
  guint n_entries = e->entries ? wk_eng_tex_fit_size (&e->fit) : G_MAXUINT16 + 1;
  for (gsize t = 0; t < in->n_tris; t++)
    {
      for (int k = 0; k < 3; k++)
        if (in->triangles[3 * t + k] >= in->n_verts)
          {
            wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                          "triangles: triangle %" G_GSIZE_FORMAT " uses vertex %u "
                          "of %" G_GSIZE_FORMAT, t, in->triangles[3 * t + k],
                          in->n_verts);
            return FALSE;
          }
      if (in->texture[t] < 0 || (guint) in->texture[t] >= n_entries)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1,
                        "texture: triangle %" G_GSIZE_FORMAT " uses entry %d, the "
                        "table has %u entries", t, in->texture[t], n_entries);
          return FALSE;
        }
    }
  return TRUE;
}

static WkEngModel *
geometry_model (WkEngEdit *e, const WkEngModel *ref, const WkEngGeomEdit *in,
                GError **error)
{
  g_autoptr (WkEngModel) m = wk_eng_model_new (FALSE);
  m->pad7e = ref->pad7e;
  m->ptr_verts = ref->ptr_verts;
  m->ptr_faces = ref->ptr_faces;
  m->ptr_coll = ref->ptr_coll;
  m->n_verts = (guint) in->n_verts;
  m->verts = g_new0 (gfloat, (gsize) m->n_verts * 6 + 1);
  for (gsize i = 0; i < in->n_verts; i++)
    {
      const gfloat *p = &in->positions[3 * i];
      gfloat v[3] = { p[0], p[1], -p[2] };  /* file → export space */
      for (int k = 0; k < 3; k++)
        /* equal to the stored value (0.0 == -0.0): keep the stored bits */
        m->verts[6 * i + k] = i < ref->n_verts && v[k] == ref->verts[6 * i + k]
                                  ? ref->verts[6 * i + k] : v[k];
    }
  m->n_faces = (guint) in->n_tris;
  m->faces = g_new0 (WkEngFace, m->n_faces + 1);
  gint32 page = 0;
  guint16 state = 0;
  guint run = 0;
  for (guint f = 0; f < m->n_faces; f++)
    {
      WkEngFace *face = &m->faces[f];
      gfloat uv[3][2];
      for (guint k = 0; k < 3; k++)
        {
          /* stored corner k = file corner (0,2,1)[k] */
          guint src = wk_eng_corner (WK_ENG_SPACE_FILE, k);
          face->v[k] = (guint16) in->triangles[3 * (gsize) f + src];
          uv[k][0] = in->uv[6 * (gsize) f + 2 * src];
          uv[k][1] = in->uv[6 * (gsize) f + 2 * src + 1];
        }
      guint16 given = in->face_flags ? in->face_flags[f] : 0, uvflags;
      if (!wk_eng_tex_fit_face (&e->fit, uv, (guint) in->texture[f], given,
                                in->face_flags != NULL, &face->tex, &uvflags, error))
        {
          wk_error_prefix (error, "triangle %u", f);
          return NULL;
        }
      const WkEngTexEntry *x = wk_eng_tex_fit_entry (&e->fit, face->tex);
      gint32 fpage = x ? x->page : face->tex;
      guint16 fstate = x ? x->flags : 0;
      /* a new batch at every page/state change and after 256 faces; a
       * batch bit the caller gave is kept */
      gboolean batch = f == 0 || fpage != page || fstate != state
                       || run == WK_ENG_MAX_BATCH_FACES || (given & WK_ENG_FACE_BATCH);
      if (batch)
        run = 0;
      run++;
      page = fpage;
      state = fstate;
      face->flags = (guint16) ((given & ~(WK_ENG_FACE_BATCH | UV_BITS)) | uvflags
                               | (batch ? WK_ENG_FACE_BATCH : 0));
      face->pad = f < ref->n_faces ? ref->faces[f].pad : 0;
    }
  m->n_coll = ref->n_coll;
  memcpy (m->coll_groups, ref->coll_groups, sizeof m->coll_groups);
  m->coll = g_malloc ((gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE + 1);
  memcpy (m->coll, ref->coll, (gsize) m->n_coll * WK_ENG_COLL_RECORD_SIZE);
  wk_eng_model_recompute (m);
  keep_unchanged (m, ref);
  return g_steal_pointer (&m);
}

/* The model all tiles now share, or an error when their other half (the
 * part this edit does not replace) differs. */
static const WkEngModel *
reference (const WkEngEdit *e, const guint32 *tiles, guint n, gboolean render,
           const char *what, const char *name, GError **error)
{
  guint32 m0 = tile_at (e, tiles[0])->model;
  const WkEngModel *ref = model_at (e, m0)->m;
  for (guint k = 1; k < n; k++)
    {
      guint32 mk = tile_at (e, tiles[k])->model;
      const WkEngModel *o = model_at (e, mk)->m;
      gboolean same = render
          ? o->n_verts == ref->n_verts && o->n_faces == ref->n_faces
            && memcmp (o->verts, ref->verts, (gsize) o->n_verts * 24) == 0
            && memcmp (o->faces, ref->faces, (gsize) o->n_faces * 28) == 0
          : o->n_coll == ref->n_coll
            && memcmp (o->coll_groups, ref->coll_groups, sizeof o->coll_groups) == 0
            && memcmp (o->coll, ref->coll, (gsize) o->n_coll * 32) == 0;
      if (!same)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                        "%s: tiles %u and %u have different %s (models %u, %u); "
                        "they cannot share one model", what, tiles[0], tiles[k],
                        render ? "render geometry" : "collision", m0, mk);
          wk_eng_edit_error (error, name, tiles[k], mk);
          return NULL;
        }
    }
  return ref;
}

gboolean
wk_eng_edit_set_geometry (WkEngEdit *e, const WkEngGeomEdit *in,
                          WkEngEditResult *out, GError **error)
{
  const char *name = in->name;
  if (!check_tiles (e, "set_geometry", name, in->tiles, in->n_tiles, error))
    return FALSE;
  guint32 m0 = tile_at (e, in->tiles[0])->model;
  const WkEngModel *ref = reference (e, in->tiles, in->n_tiles, FALSE,
                                     "set_geometry", name, error);
  if (ref == NULL)
    return FALSE;
  for (guint k = 0; in->colors && k < in->n_tiles; k++)
    if (!wk_eng_edit_check_colors (&in->colors[k], (guint) MIN (in->n_verts, G_MAXUINT),
                                   name, in->tiles[k], error))
      {
        wk_error_locate (error, -1, m0, -1);
        return FALSE;
      }
  WkEngTexFitMark mark;
  wk_eng_tex_fit_mark (&e->fit, &mark);
  e->fit.max_error = 0;
  WkEngModel *m = NULL;
  if (check_geometry (e, in, error))
    m = geometry_model (e, ref, in, error);
  if (m == NULL)
    {
      wk_eng_tex_fit_rollback (&e->fit, &mark);
      wk_eng_edit_error (error, name, in->tiles[0], m0);
      return FALSE;
    }
  memset (out, 0, sizeof *out);
  out->uv_fitted = e->fit.fitted - mark.fitted;
  out->uv_max_error = e->fit.max_error;
  out->uv_inexact = e->fit.uv_inexact - mark.uv_inexact;
  out->uv_nearest = e->fit.uv_nearest - mark.uv_nearest;
  e->fit.max_error = MAX (e->fit.max_error, mark.max_error);
  out->in_place = exclusive (e, m0, in->tiles, in->n_tiles);
  const GArray *spill = model_at (e, m0)->spill;
  out->model = install (e, m, out->in_place, m0, in->tiles, in->n_tiles,
                        spill ? g_array_copy ((GArray *) spill) : NULL, name);
  /* colours: given, else kept when the vertex count is the same, else grey */
  for (guint k = 0; k < in->n_tiles; k++)
    {
      WkEngEditTile *t = tile_at (e, in->tiles[k]);
      const WkEngColors *c = in->colors ? &in->colors[k] : NULL;
      if ((c == NULL || c->data == NULL) && t->nv == m->n_verts)
        continue;
      if (c == NULL || c->data == NULL)
        {
          out->grey_tiles++;
          g_ptr_array_add (e->warnings, g_strdup_printf (
              "%s%stile %u: %u vertices now (were %u) and no colours given: "
              "grey (0x80)", name ? name : "", name ? ": " : "", in->tiles[k],
              m->n_verts, t->nv));
        }
      g_clear_pointer (&t->colors, g_bytes_unref);
      t->colors = wk_eng_edit_color_block (c, m->n_verts, &t->sets);
      t->nv = m->n_verts;
    }
  return TRUE;
}

/* ---- set_collision ---- */

typedef struct {
  guint n;
  double c[4][3];
  guint8 material;
  guint group;
  const guint8 *raw;      /* the stored record */
} OldRecord;

static guint64
centre_key (const double c[][3], guint n)
{
  double s[3] = { 0, 0, 0 };
  for (guint i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      s[k] += c[i][k] / n;
  guint64 key = 0;
  for (int k = 0; k < 3; k++)
    key = key * 1000003u + (guint64) (gint64) llround (s[k] * 256.0);
  return key * 4 + n;
}

static gboolean
same_polygon (const OldRecord *r, const double c[][3], guint n, guint8 material)
{
  if (r->n != n || r->material != material)
    return FALSE;
  for (guint rot = 0; rot < n; rot++)
    {
      gboolean ok = TRUE;
      for (guint i = 0; ok && i < n; i++)
        for (int k = 0; ok && k < 3; k++)
          ok = fabs (r->c[(i + rot) % n][k] - c[i][k]) <= SAME_CORNER;
      if (ok)
        return TRUE;
    }
  return FALSE;
}

/* Encode polygon c (n corners): one record, or two triangles for a quad
 * the encoder refuses. Returns the records written (0 = degenerate) or -1. */
static gint
encode (const double c[][3], guint n, guint8 material, guint8 *out, double halves[2][4][3],
        guint *split, GError **error)
{
  WkEngCollRecord rec;
  GError *local = NULL;
  if (wk_eng_coll_encode_polygon (c, n, material, &rec, &local))
    {
      wk_eng_coll_record_encode (&rec, out);
      memcpy (halves[0], c, sizeof (double) * 3 * n);
      return 1;
    }
  if (local->code == WK_ERROR_LIMIT || n != 4)
    {
      gboolean limit = local->code == WK_ERROR_LIMIT;
      if (limit)
        g_propagate_error (error, local);
      else
        g_clear_error (&local);
      return limit ? -1 : 0;
    }
  g_clear_error (&local);
  (*split)++;
  static const guint idx[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
  gint k = 0;
  for (int h = 0; h < 2; h++)
    {
      double t[3][3];
      for (int i = 0; i < 3; i++)
        memcpy (t[i], c[idx[h][i]], sizeof t[i]);
      if (!wk_eng_coll_encode_polygon (t, 3, material, &rec, &local))
        {
          if (local->code == WK_ERROR_LIMIT)
            {
              g_propagate_error (error, local);
              return -1;
            }
          g_clear_error (&local);
          continue;
        }
      wk_eng_coll_record_encode (&rec, out + 32 * k);
      memcpy (halves[k], t, sizeof t);
      k++;
    }
  return k;
}

/* A kept record that was new in an earlier edit keeps its spill. */
static void
carry_spill (const GArray *ref_spill, const guint8 *raw, GArray *spill)
{
  for (guint i = 0; ref_spill && i < ref_spill->len; i++)
    {
      const WkEngSpillPoly *sp = &g_array_index (ref_spill, WkEngSpillPoly, i);
      if (memcmp (sp->raw, raw, 32) == 0)
        {
          g_array_append_vals (spill, sp, 1);
          return;
        }
    }
}

static WkEngModel *collision_records (const WkEngModel *ref, const GArray *ref_spill,
                                      const WkEngCollEdit *in, WkEngEditCollResult *res,
                                      GArray *spill, const OldRecord *old,
                                      GHashTable *by_centre, GByteArray *group[3],
                                      GError **error);

static WkEngModel *
collision_model (const WkEngModel *ref, const GArray *ref_spill,
                 const WkEngCollEdit *in, WkEngEditCollResult *res,
                 GArray *spill, GError **error)
{
  guint n_old = ref->n_coll;
  g_autofree OldRecord *old = g_new0 (OldRecord, n_old + 1);
  g_autoptr (GHashTable) by_centre = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree guint64 *keys = g_new (guint64, n_old + 1);
  for (guint r = 0; r < n_old; r++)
    {
      WkEngCollRecord rec;
      WkEngCollPolygon poly;
      old[r].raw = ref->coll + 32 * (gsize) r;
      wk_eng_coll_record_decode (old[r].raw, &rec);
      wk_eng_coll_polygon (&rec, &poly);
      old[r].n = poly.corners_ok ? poly.n_corners : 0;
      memcpy (old[r].c, poly.corners, sizeof old[r].c);
      old[r].material = rec.material;
      old[r].group = r < ref->coll_groups[0] ? 0
                     : r < (guint) ref->coll_groups[0] + ref->coll_groups[1] ? 1 : 2;
      keys[r] = centre_key ((const double (*)[3]) old[r].c, old[r].n);
      if (old[r].n && !g_hash_table_contains (by_centre, &keys[r]))
        g_hash_table_insert (by_centre, &keys[r], GUINT_TO_POINTER (r + 1));
    }
  GByteArray *group[3] = { g_byte_array_new (), g_byte_array_new (),
                           g_byte_array_new () };
  WkEngModel *m = collision_records (ref, ref_spill, in, res, spill, old, by_centre,
                                     group, error);
  for (int g = 0; g < 3; g++)
    g_byte_array_unref (group[g]);
  return m;
}

/* The records of polygons in->…, kept or encoded, by group; the model. */
static WkEngModel *
collision_records (const WkEngModel *ref, const GArray *ref_spill,
                   const WkEngCollEdit *in, WkEngEditCollResult *res, GArray *spill,
                   const OldRecord *old, GHashTable *by_centre, GByteArray *group[3],
                   GError **error)
{
  guint n_old = ref->n_coll;
  for (gsize p = 0; p < in->n_polys; p++)
    {
      guint n = in->polygons[4 * p + 3] < 0 ? 3 : 4;
      double c[4][3];
      for (guint i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
          c[i][k] = in->positions[3 * (gsize) in->polygons[4 * p + i] + k];
      guint8 material = in->material ? in->material[p] : 0;
      const OldRecord *hit = NULL;
      if (p < n_old && same_polygon (&old[p], (const double (*)[3]) c, n, material))
        hit = &old[p];
      else
        {
          guint64 key = centre_key ((const double (*)[3]) c, n);
          gpointer r = g_hash_table_lookup (by_centre, &key);
          if (r && same_polygon (&old[GPOINTER_TO_UINT (r) - 1],
                                 (const double (*)[3]) c, n, material))
            hit = &old[GPOINTER_TO_UINT (r) - 1];
        }
      if (hit != NULL)
        {
          g_byte_array_append (group[hit->group], hit->raw, 32);
          carry_spill (ref_spill, hit->raw, spill);
          res->kept++;
          continue;
        }
      guint8 raw[64];
      double halves[2][4][3];
      gint k = encode ((const double (*)[3]) c, n, material, raw, halves,
                       &res->split, error);
      if (k < 0)
        {
          wk_error_prefix (error, "collision polygon %" G_GSIZE_FORMAT, p);
          return NULL;
        }
      if (k == 0)
        res->dropped++;
      for (gint h = 0; h < k; h++)
        {
          g_byte_array_append (group[wk_eng_edit_group_of (raw + 32 * h)], raw + 32 * h, 32);
          WkEngSpillPoly sp = { k == 1 ? n : 3, { { 0 } }, material };
          memcpy (sp.c, halves[h], sizeof (double) * 3 * sp.n);
          memcpy (sp.raw, raw + 32 * h, 32);
          g_array_append_val (spill, sp);
          res->encoded++;
        }
    }
  for (int g = 0; g < 3; g++)
    if (group[g]->len / 32 > G_MAXUINT16)
      {
        wk_set_error (error, WK_ERROR_LIMIT, -1,
                      "%u collision records in group %c: the header counts a "
                      "group in a u16 (at most 65535)", group[g]->len / 32, 'A' + g);
        return NULL;
      }
  g_autoptr (WkEngModel) m = wk_eng_model_new (FALSE);
  WkEngModel copy = *ref;
  copy.backing = NULL;
  *m = copy;              /* header and counts; the arrays are copied below */
  /* one spare element: an empty array is not a NULL pointer */
  m->verts = g_new (gfloat, (gsize) ref->n_verts * 6 + 1);
  m->faces = g_new (WkEngFace, (gsize) ref->n_faces + 1);
  if (ref->n_verts)
    memcpy (m->verts, ref->verts, (gsize) ref->n_verts * 24);
  if (ref->n_faces)
    memcpy (m->faces, ref->faces, (gsize) ref->n_faces * 28);
  m->bone_counts = NULL;
  m->offset = m->faces_offset = -1;
  m->n_coll = 0;
  m->coll = g_malloc ((gsize) (group[0]->len + group[1]->len + group[2]->len) + 1);
  for (int g = 0; g < 3; g++)
    {
      if (group[g]->len)
        memcpy (m->coll + 32 * (gsize) m->n_coll, group[g]->data, group[g]->len);
      m->coll_groups[g] = (guint16) (group[g]->len / 32);
      m->n_coll += group[g]->len / 32;
      res->groups[g] = m->coll_groups[g];
    }
  return g_steal_pointer (&m);
}

gboolean
wk_eng_edit_set_collision (WkEngEdit *e, const WkEngCollEdit *in,
                           WkEngEditCollResult *out, GError **error)
{
  const char *name = in->name;
  if (!check_tiles (e, "set_collision", name, in->tiles, in->n_tiles, error))
    return FALSE;
  guint32 m0 = tile_at (e, in->tiles[0])->model;
  const WkEngModel *ref = reference (e, in->tiles, in->n_tiles, TRUE,
                                     "set_collision", name, error);
  if (ref == NULL)
    return FALSE;
  /* the corners polygons use must be finite (unused positions, such as the
   * NaN 4th corner of a decoded triangle, may be anything) */
  gboolean ok = TRUE;
  for (gsize p = 0; ok && p < in->n_polys; p++)
    for (int k = 0; ok && k < 4; k++)
      {
        gint32 v = in->polygons[4 * p + k];
        if (k == 3 && v == -1)
          continue;
        if (v >= 0 && (gsize) v < in->n_verts)
          {
            ok = check_points (in->positions, (gsize) v, 1, "positions", error);
            if (!ok)
              wk_error_prefix (error, "polygon %" G_GSIZE_FORMAT, p);
            continue;
          }
        wk_set_error (error, WK_ERROR_ARGUMENT, -1,
                      "polygons: polygon %" G_GSIZE_FORMAT " uses vertex %d of %"
                      G_GSIZE_FORMAT, p, v, in->n_verts);
        ok = FALSE;
      }
  memset (out, 0, sizeof *out);
  GArray *spill = g_array_new (FALSE, FALSE, sizeof (WkEngSpillPoly));
  WkEngModel *m = ok ? collision_model (ref, model_at (e, m0)->spill, in, out,
                                        spill, error) : NULL;
  if (m == NULL)
    {
      g_array_unref (spill);
      wk_eng_edit_error (error, name, in->tiles[0], m0);
      return FALSE;
    }
  if (out->dropped)
    g_ptr_array_add (e->warnings, g_strdup_printf (
        "%s%s%u degenerate collision polygons dropped (tiles from %u, model %u)",
        name ? name : "", name ? ": " : "", out->dropped, in->tiles[0], m0));
  if (out->split)
    g_ptr_array_add (e->warnings, g_strdup_printf (
        "%s%s%u collision quads are not planar or not convex; each was written "
        "as two triangles", name ? name : "", name ? ": " : "", out->split));
  if (spill->len == 0)
    g_clear_pointer (&spill, g_array_unref);
  out->in_place = exclusive (e, m0, in->tiles, in->n_tiles);
  out->model = install (e, m, out->in_place, m0, in->tiles, in->n_tiles, spill, name);
  return TRUE;
}
