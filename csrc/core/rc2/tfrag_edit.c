/* Editing the tfrag terrain: in-place patching of a patch's stored values
 * where its strips still hold the edit, else a re-encode by the tfrag
 * writer (tfrag_write.c) from the patch's LOD 0 triangles, split into
 * vertices and greedy strips. docs/formats/rc2-writing.md ("Terrain"). */
#include "tfrag_edit.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_num.h"
#include "../common/wk_reader.h"
#include "tfrag_priv.h"

#define MAX_STRIP 127u

typedef struct {
  const guint8 *block;
  gsize size;
  gint64 base;
  guint32 table;
  const WkTfragEdit *e;
  const WkTfrags *t;
  /* the stored LOD 0 terrain */
  const gfloat *pos, *uv, *color;
  const gint32 *tex;
  guint8 *out;          /* the block being written */
} Ctx;

gint
wk_tfrags_count (const guint8 *block, gsize size)
{
  if (size < 12)
    return -1;
  gint32 n = wk_les32 (block + 4);
  return n < 0 ? -1 : n;
}

static void
put16 (guint8 *p, gint v)
{
  guint16 le = GUINT16_TO_LE ((guint16) v);
  memcpy (p, &le, 2);
}

static void
put32 (guint8 *p, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  memcpy (p, &le, 4);
}

/* The stored UV quantisation (docs: negative values by 8192). */
static gboolean
quant_uv (gfloat u, gint *q)
{
  gdouble s = round ((gdouble) u * (u < 0 ? 8192.0 : 4096.0));
  if (!(s >= -32768 && s <= 32767))
    return FALSE;
  *q = (gint) s;
  return TRUE;
}

/* LOD 0 triangles of a patch as the reader makes them: per triangle the
 * three vertex-info indices (winding fixed), its strip record and ad-gif. */
typedef guint32 Corner[3];

typedef struct {
  Corner *corner;
  gint *run, *adgif;
  guint n;
} Tris;

static void
lod0_tris (const Patch *pt, Tris *o)
{
  const Span *s = &pt->strips[0], *ix = &pt->indices[0];
  guint k = 0, t = 0;
  gint adgif = -1;
  for (guint r = 0; r < s->n; r++)
    {
      const guint8 *rec = s->p + 4 * r;
      guint n = wk_tfrag_record (rec, &adgif);
      if (n == 0)
        break;
      for (guint j = 0; j + 2 < n; j++, t++)
        {
          guint c[3];
          wk_tfrag_corners (ix->p + k, j, c);
          memcpy (o->corner[t], c, sizeof c);
          o->run[t] = (gint) r;
          o->adgif[t] = adgif;
        }
      k += n;
    }
  o->n = t;
}

static const guint8 *
vinfo_ptr (const Patch *pt, guint v, gsize *off, gint64 base)
{
  int t = 0;
  while (t < 2 && v >= pt->vinfo[t].n)
    v -= pt->vinfo[t++].n;
  *off = (gsize) (pt->vinfo[t].abs - base) + 8 * (gsize) v;
  return pt->vinfo[t].p + 8 * (gsize) v;
}

#define LIMIT(...)                                                      \
  G_STMT_START {                                                        \
    wk_set_error (error, WK_ERROR_LIMIT, -1, __VA_ARGS__);              \
    wk_error_prefix (error, "tfrag patch %u", index);                   \
    return -1;                                                          \
  } G_STMT_END

/* Patch `index` in place. 1 done, 0 the edit needs a re-encode, -1 error. */
static int
in_place (Ctx *x, guint index, const Decoded *d, const WkTfragPatch *info,
          GError **error)
{
  const Patch *pt = &d->pt;
  const WkTfragEdit *e = x->e;
  guint nv = info->vert_count, nt = info->lod_tris[0];
  gsize v0 = d->pos_base, t0 = d->tri_base;
  /* positions */
  gboolean moved = FALSE;
  gint32 qpos[256][3];
  for (guint j = 0, tier = 0, in_tier = 0; j < nv; j++, in_tier++)
    {
      while (in_tier >= pt->pos[tier].n)
        tier++, in_tier = 0;
      const gfloat *p = e->positions + 3 * (v0 + j);
      const guint8 *stored = pt->pos[tier].p + 6 * (gsize) in_tier;
      for (int a = 0; a < 3; a++)
        qpos[j][a] = wk_les16 (stored + 2 * a) + pt->origin[tier][a];
      if (memcmp (p, x->pos + 3 * (v0 + j), 12) == 0)
        continue;
      for (int a = 0; a < 3; a++)
        {
          gdouble q = round ((gdouble) p[a] * 1024.0);
          if (!(fabs (q) < 2e9))
            LIMIT ("vertex %u at %g is outside the fixed-point range", j, p[a]);
          gint64 rel = (gint64) q - pt->origin[tier][a];
          if (rel < -32768 || rel > 32767)
            return 0; /* past the s16 range around the stored origin */
          qpos[j][a] = (gint32) q;
        }
      moved = TRUE;
    }
  gboolean uv_changed = memcmp (e->uv + 6 * t0, x->uv + 6 * t0, 24 * (gsize) nt) != 0;
  gboolean col_changed = memcmp (e->color + 12 * t0, x->color + 12 * t0,
                                 48 * (gsize) nt) != 0;
  gboolean tex_changed = memcmp (e->texture + t0, x->tex + t0, 4 * (gsize) nt) != 0;
  g_autofree Corner *corner = g_new (Corner, MAX (nt, 1));
  g_autofree gint *run = g_new (gint, MAX (nt, 1));
  g_autofree gint *adgif = g_new (gint, MAX (nt, 1));
  Tris tris = { corner, run, adgif, 0 };
  lod0_tris (pt, &tris);
  guint nvi = pt->vinfo[0].n + pt->vinfo[1].n + pt->vinfo[2].n;
  g_autofree gint32 *st = g_new0 (gint32, 2 * (gsize) MAX (nvi, 1));
  g_autofree guint8 *st_set = g_new0 (guint8, MAX (nvi, 1));
  guint8 rgba[256][4];
  guint8 rgba_set[256] = { 0 };
  gint ad_tex[256];
  guint8 ad_set[256] = { 0 };
  for (guint t = 0; t < nt; t++)
    for (int c = 0; c < 3; c++)
      {
        guint vi = corner[t][c];
        gsize voff;
        guint p = (guint) wk_les16 (vinfo_ptr (pt, vi, &voff, x->base) + 6) / 2;
        if (uv_changed)
          {
            const gfloat *u = e->uv + 6 * (t0 + t) + 2 * c;
            gint q[2];
            for (int a = 0; a < 2; a++)
              if (!quant_uv (u[a], &q[a]))
                LIMIT ("triangle %u: UV %g outside -4..8", t, u[a]);
            if (st_set[vi] && (st[2 * vi] != q[0] || st[2 * vi + 1] != q[1]))
              return 0; /* two corners of one vertex info disagree */
            st[2 * vi] = q[0], st[2 * vi + 1] = q[1], st_set[vi] = 1;
          }
        if (col_changed)
          {
            const gfloat *cl = e->color + 12 * (t0 + t) + 4 * c;
            guint8 b[4];
            for (int a = 0; a < 4; a++)
              b[a] = wk_round_byte ((gdouble) cl[a] * 128.0);
            if (rgba_set[p] && memcmp (rgba[p], b, 4) != 0)
              return 0; /* two corners of one position disagree */
            memcpy (rgba[p], b, 4), rgba_set[p] = 1;
          }
      }
  if (tex_changed)
    for (guint t = 0; t < nt; t++)
      {
        gint tex = e->texture[t0 + t], a = adgif[t];
        if (t > 0 && run[t] == run[t - 1] && tex != e->texture[t0 + t - 1])
          return 0; /* a strip's triangles would need two textures */
        if (ad_set[a] && ad_tex[a] != tex)
          return 0; /* an ad-gif shared by runs that now differ */
        ad_tex[a] = tex, ad_set[a] = 1;
      }
  /* Everything fits: write it. */
  guint8 *o = x->out;
  if (moved)
    for (guint j = 0, tier = 0, in_tier = 0; j < nv; j++, in_tier++)
      {
        while (in_tier >= pt->pos[tier].n)
          tier++, in_tier = 0;
        gsize off = (gsize) (pt->pos[tier].abs - x->base) + 6 * (gsize) in_tier;
        for (int a = 0; a < 3; a++)
          put16 (o + off + 2 * a, qpos[j][a] - pt->origin[tier][a]);
      }
  for (guint vi = 0; vi < nvi; vi++)
    if (st_set[vi])
      {
        gsize voff;
        vinfo_ptr (pt, vi, &voff, x->base);
        put16 (o + voff, st[2 * vi]);
        put16 (o + voff + 2, st[2 * vi + 1]);
      }
  gsize rgba_off = (gsize) (d->rgba - x->block);
  for (guint p = 0; p < 256; p++)
    if (rgba_set[p])
      memcpy (o + rgba_off + 4 * p, rgba[p], 4);
  for (guint a = 0; a < 256; a++)
    if (ad_set[a])
      put32 (o + (gsize) (pt->adgifs.abs - x->base) + 80 * a, (guint32) ad_tex[a]);
  if (moved)
    { /* keep the bounding sphere while it holds every vertex */
      const guint8 *h = x->block + x->table + (gsize) index * WK_TFRAG_HEADER;
      gdouble c[3] = { wk_lef32 (h), wk_lef32 (h + 4), wk_lef32 (h + 8) };
      gdouble r = wk_lef32 (h + 12), lo[3], hi[3], far = 0;
      for (int a = 0; a < 3; a++)
        lo[a] = hi[a] = qpos[0][a] / 1024.0;
      for (guint j = 0; j < nv; j++)
        {
          gdouble dd = 0;
          for (int a = 0; a < 3; a++)
            {
              gdouble v = qpos[j][a] / 1024.0;
              dd += (v - c[a]) * (v - c[a]);
              lo[a] = MIN (lo[a], v), hi[a] = MAX (hi[a], v);
            }
          far = MAX (far, sqrt (dd));
        }
      if (far > r)
        {
          gfloat s[4];
          for (int a = 0; a < 3; a++)
            s[a] = (gfloat) ((lo[a] + hi[a]) / 2);
          gdouble rr = 0;
          for (guint j = 0; j < nv; j++)
            {
              gdouble dd = 0;
              for (int a = 0; a < 3; a++)
                dd += (qpos[j][a] / 1024.0 - s[a]) * (qpos[j][a] / 1024.0 - s[a]);
              rr = MAX (rr, sqrt (dd));
            }
          s[3] = (gfloat) rr;
          memcpy (o + x->table + (gsize) index * WK_TFRAG_HEADER, s, 16);
        }
    }
  return 1;
}

/* ---- re-encoding ------------------------------------------------------ */

typedef struct {
  GArray *pos, *uv, *col;      /* gfloat per vertex */
  GHashTable *ids;             /* key -> vertex id + 1 */
  GArray *idx, *len, *tex;     /* strips */
} Mesh;

typedef struct {
  guint32 position;
  gint32 st[2];
  guint8 rgba[4];
} VKey;

static guint
vkey_hash (gconstpointer k)
{
  const VKey *v = k;
  return v->position * 2654435761u ^ (guint) v->st[0] * 40503u
         ^ (guint) v->st[1] * 65599u ^ wk_le32 (v->rgba);
}

static gboolean
vkey_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (VKey)) == 0;
}

/* Greedy strips over triangles in order: a triangle continues the strip
 * when one of its rotations shares the strip's last two vertices in strip
 * order and its texture is the strip's. */
static void
strip_add (Mesh *m, const guint32 c[3], gint tex, guint *open)
{
  if (*open)
    {
      guint L = g_array_index (m->len, guint32, m->len->len - 1);
      guint32 *s = &g_array_index (m->idx, guint32, m->idx->len - L);
      guint j = L - 2;
      gint stex = g_array_index (m->tex, gint32, m->tex->len - 1);
      for (int r = 0; r < 3 && stex == tex && L < MAX_STRIP; r++)
        {
          guint32 a = c[r], b = c[(r + 1) % 3], n = c[(r + 2) % 3];
          gboolean ok = (j & 1) ? (s[j] == b && s[j + 1] == a)
                                : (s[j] == a && s[j + 1] == b);
          if (ok)
            {
              g_array_append_val (m->idx, n);
              g_array_index (m->len, guint32, m->len->len - 1) = L + 1;
              return;
            }
        }
    }
  g_array_append_vals (m->idx, c, 3);
  guint32 three = 3;
  g_array_append_val (m->len, three);
  g_array_append_val (m->tex, tex);
  *open = 1;
}

static guint32
vertex_of (Mesh *m, guint32 position, const gfloat *pos, const gfloat uv[2],
           const gfloat col[4])
{
  VKey k = { position, { 0, 0 }, { 0 } };
  for (int a = 0; a < 2; a++)
    if (!quant_uv (uv[a], &k.st[a]))
      k.st[a] = uv[a] < 0 ? -32768 : 32767; /* the writer refuses it */
  for (int a = 0; a < 4; a++)
    k.rgba[a] = wk_round_byte ((gdouble) col[a] * 128.0);
  gpointer hit = g_hash_table_lookup (m->ids, &k);
  if (hit)
    return GPOINTER_TO_UINT (hit) - 1;
  guint32 id = m->pos->len / 3;
  g_array_append_vals (m->pos, pos, 3);
  g_array_append_vals (m->uv, uv, 2);
  g_array_append_vals (m->col, col, 4);
  g_hash_table_insert (m->ids, g_memdup2 (&k, sizeof k), GUINT_TO_POINTER (id + 1));
  return id;
}

static void
mesh_clear (Mesh *m)
{
  g_clear_pointer (&m->pos, g_array_unref);
  g_clear_pointer (&m->uv, g_array_unref);
  g_clear_pointer (&m->col, g_array_unref);
  g_clear_pointer (&m->idx, g_array_unref);
  g_clear_pointer (&m->len, g_array_unref);
  g_clear_pointer (&m->tex, g_array_unref);
  g_clear_pointer (&m->ids, g_hash_table_unref);
}

/* Write the patch from triangles (corners into positions) into pd/h. */
static gboolean
reencode (guint index, const gfloat *positions, const guint32 *tris,
          const gfloat *uv, const gfloat *color, const gint32 *texture,
          guint n_tris, gint texture_count, GByteArray *pd,
          guint8 h[WK_TFRAG_HEADER], GError **error)
{
  Mesh m = {
    g_array_new (FALSE, FALSE, sizeof (gfloat)), g_array_new (FALSE, FALSE, sizeof (gfloat)),
    g_array_new (FALSE, FALSE, sizeof (gfloat)),
    g_hash_table_new_full (vkey_hash, vkey_equal, g_free, NULL),
    g_array_new (FALSE, FALSE, sizeof (guint32)), g_array_new (FALSE, FALSE, sizeof (guint32)),
    g_array_new (FALSE, FALSE, sizeof (gint32)),
  };
  guint open = 0;
  gboolean ok = TRUE;
  for (guint t = 0; t < n_tris && ok; t++)
    {
      if (texture_count >= 0 && (texture[t] < 0 || texture[t] >= texture_count))
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1, "texture of triangle %u is "
                        "%d, the level has %d tfrag textures", t, texture[t],
                        texture_count);
          ok = FALSE;
          break;
        }
      guint32 c[3];
      for (int k = 0; k < 3; k++)
        c[k] = vertex_of (&m, tris[3 * t + k], positions + 3 * (gsize) tris[3 * t + k],
                          uv + 6 * (gsize) t + 2 * k, color + 12 * (gsize) t + 4 * k);
      strip_add (&m, c, texture[t], &open);
    }
  if (ok)
    {
      WkTfragMesh mesh = {
        (const gfloat *) m.pos->data, (const gfloat *) m.uv->data,
        (const gfloat *) m.col->data, m.pos->len / 3,
        (const guint32 *) m.idx->data, m.idx->len,
        (const guint32 *) m.len->data, (const gint32 *) m.tex->data, m.len->len,
      };
      ok = wk_tfrag_patch_write (pd, &mesh, index, h, error);
    }
  if (!ok)
    wk_error_prefix (error, "tfrag patch %u", index);
  mesh_clear (&m);
  return ok;
}

/* Header fields that describe the patch's place, not its lists, carried
 * over to a re-encoded patch; lights, mspheres and the cube are not
 * written [assumed: docs]. */
static void
carry_header (guint8 *nh, const guint8 *old)
{
  nh[0x2b] = old[0x2b];           /* occl_index_stash */
  nh[0x2d] = old[0x2d];           /* flags */
  nh[0x34] = 0xff;                /* dir_lights_one: none */
  nh[0x35] = old[0x35];
  put16 (nh + 0x36, 0xffff);      /* point_lights: none */
  memcpy (nh + 0x3a, old + 0x3a, 2); /* occl_index */
  memcpy (nh + 0x3e, old + 0x3e, 2); /* mip_dist */
}

/* ---- the whole block ------------------------------------------------- */

typedef struct {
  gsize start, end;  /* data extent in the block: to the next patch's data */
} Extent;

static int
cmp_start (gconstpointer a, gconstpointer b, gpointer user)
{
  const Extent *e = user;
  gsize x = e[*(const guint *) a].start, y = e[*(const guint *) b].start;
  return x < y ? -1 : x > y;
}

/* Each patch's extent and the first free byte after all of them: past
 * every patch's lists and colours, every offset its header names, and
 * the last non-zero byte of the region [assumed: docs]. */
static gsize
extents (const Ctx *x, guint n, Extent *ext)
{
  gsize used = x->table + (gsize) n * WK_TFRAG_HEADER;
  for (guint i = 0; i < n; i++)
    {
      const guint8 *h = x->block + x->table + (gsize) i * WK_TFRAG_HEADER;
      gsize data = x->table + (gsize) wk_les32 (h + 0x10);
      gsize end = data + wk_le16 (h + 0x1e) + 16 * (gsize) h[0x29];
      static const guint ofs[] = { 0x2e, 0x30, 0x32, 0x38 };
      for (guint k = 0; k < G_N_ELEMENTS (ofs); k++)
        end = MAX (end, data + wk_le16 (h + ofs[k]));
      ext[i].start = data;
      ext[i].end = end;
      used = MAX (used, end);
    }
  gsize nz = x->size;
  while (nz > used && x->block[nz - 1] == 0)
    nz--;
  used = MAX (used, nz);
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof *order, cmp_start, ext);
  for (guint k = 0; k < n; k++)
    {
      gsize next = k + 1 < n ? ext[order[k + 1]].start : used;
      Extent *e = &ext[order[k]];
      /* the patch owns the bytes up to the next one (never into it) */
      e->end = MAX (next, e->start);
    }
  return (used + 15) & ~(gsize) 15;
}

static gboolean
check_edit (const WkTfragEdit *e, const WkTfrags *t, GError **error)
{
  if (e->positions && e->n_positions != t->n_positions)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "positions: %" G_GSIZE_FORMAT
                    " rows, the terrain has %" G_GSIZE_FORMAT, e->n_positions,
                    t->n_positions);
      return FALSE;
    }
  if ((e->uv || e->color || e->texture) && e->n_tris != t->n_tris)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "uv / color / texture: %"
                    G_GSIZE_FORMAT " triangles, the LOD 0 terrain has %"
                    G_GSIZE_FORMAT, e->n_tris, t->n_tris);
      return FALSE;
    }
  for (gsize i = 0; e->positions && i < 3 * e->n_positions; i++)
    if (!isfinite (e->positions[i]))
      {
        wk_set_error (error, WK_ERROR_ARGUMENT, -1, "positions: row %" G_GSIZE_FORMAT
                      " is not finite", i / 3);
        return FALSE;
      }
  for (guint k = 0; k < e->n_meshes; k++)
    {
      const WkTfragPatchMesh *m = &e->meshes[k];
      if (m->patch >= t->patches->len)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1, "mesh %u: patch %u of %u",
                        k, m->patch, t->patches->len);
          return FALSE;
        }
      for (gsize i = 0; i < 3 * (gsize) m->n_tris; i++)
        if (m->triangles[i] >= m->n_positions)
          {
            wk_set_error (error, WK_ERROR_ARGUMENT, -1, "mesh for patch %u: "
                          "triangle %" G_GSIZE_FORMAT " names vertex %u of %u",
                          m->patch, i / 3, m->triangles[i], m->n_positions);
            return FALSE;
          }
      for (gsize i = 0; i < 3 * (gsize) m->n_positions; i++)
        if (!isfinite (m->positions[i]))
          {
            wk_set_error (error, WK_ERROR_ARGUMENT, -1, "mesh for patch %u: "
                          "position %" G_GSIZE_FORMAT " is not finite", m->patch, i / 3);
            return FALSE;
          }
    }
  return TRUE;
}

/* Re-encode patch i (from the edited LOD 0 triangles or its new mesh) and
 * place it. */
static gboolean
place (Ctx *x, guint i, const Decoded *d, const WkTfragPatch *info,
       const WkTfragPatchMesh *mesh, Extent *ext, gsize *free_at, guint8 *status,
       GError **error)
{
  const WkTfragEdit *e = x->e;
  g_autoptr (GByteArray) pd = g_byte_array_new ();
  guint8 h[WK_TFRAG_HEADER];
  gboolean ok;
  if (mesh)
    ok = reencode (i, mesh->positions, mesh->triangles, mesh->uv, mesh->color,
                   mesh->texture, mesh->n_tris, e->texture_count, pd, h, error);
  else
    {
      gsize t0 = d->tri_base, nt = info->lod_tris[0];
      g_autofree guint32 *tri = g_new (guint32, 3 * MAX (nt, 1));
      g_autofree Corner *corner = g_new (Corner, MAX (nt, 1));
      g_autofree gint *run = g_new (gint, MAX (nt, 1));
      g_autofree gint *adgif = g_new (gint, MAX (nt, 1));
      Tris tris = { corner, run, adgif, 0 };
      lod0_tris (&d->pt, &tris);
      for (gsize t = 0; t < nt; t++)
        for (int c = 0; c < 3; c++)
          {
            gsize voff;
            tri[3 * t + c] = (guint) wk_les16 (vinfo_ptr (&d->pt, corner[t][c], &voff,
                                                          x->base) + 6) / 2;
          }
      ok = reencode (i, e->positions + 3 * (gsize) d->pos_base, tri,
                     e->uv + 6 * t0, e->color + 12 * t0, e->texture + t0,
                     (guint) nt, e->texture_count, pd, h, error);
    }
  if (!ok)
    return FALSE;
  const guint8 *old_h = x->block + x->table + (gsize) i * WK_TFRAG_HEADER;
  carry_header (h, old_h);
  gsize at, room = ext[i].end - ext[i].start;
  memset (x->out + ext[i].start, 0, room);
  if (pd->len <= room)
    {
      at = ext[i].start;
      status[i] = WK_TFRAG_REENCODED;
    }
  else if (*free_at + pd->len <= x->size)
    {
      at = *free_at;
      *free_at += pd->len;
      status[i] = WK_TFRAG_MOVED;
    }
  else
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "tfrag patch %u: re-encoded it "
                    "takes %u bytes; its old place holds %" G_GSIZE_FORMAT " and "
                    "the tfrags region has %" G_GSIZE_FORMAT " bytes free after "
                    "the last patch (regions never move: docs)", i, pd->len, room,
                    x->size > *free_at ? x->size - *free_at : 0);
      return FALSE;
    }
  memcpy (x->out + at, pd->data, pd->len);
  put32 (h + 0x10, (guint32) (at - x->table));
  memcpy (x->out + x->table + (gsize) i * WK_TFRAG_HEADER, h, WK_TFRAG_HEADER);
  return TRUE;
}

static GBytes *
edit (Ctx *x, guint8 *status, GError **error)
{
  const WkTfrags *t = x->t;
  const WkTfragEdit *e = x->e;
  guint n = t->patches->len;
  g_autofree Extent *ext = g_new0 (Extent, MAX (n, 1));
  gsize free_at = extents (x, n, ext);
  g_autofree const WkTfragPatchMesh **mesh_of = g_new0 (const WkTfragPatchMesh *, MAX (n, 1));
  for (guint k = 0; k < e->n_meshes; k++)
    mesh_of[e->meshes[k].patch] = &e->meshes[k];
  for (guint i = 0; i < n; i++)
    {
      const Decoded *d = &g_array_index (t->decoded, Decoded, i);
      const WkTfragPatch *info = &g_array_index (t->patches, WkTfragPatch, i);
      status[i] = WK_TFRAG_KEPT;
      gsize t0 = d->tri_base, nt = info->lod_tris[0];
      gboolean changed = mesh_of[i] != NULL
          || memcmp (e->positions + 3 * (gsize) d->pos_base,
                     x->pos + 3 * (gsize) d->pos_base, 12 * (gsize) info->vert_count)
          || memcmp (e->uv + 6 * t0, x->uv + 6 * t0, 24 * nt)
          || memcmp (e->color + 12 * t0, x->color + 12 * t0, 48 * nt)
          || memcmp (e->texture + t0, x->tex + t0, 4 * nt);
      if (!changed)
        continue;
      if (!mesh_of[i])
        {
          for (gsize k = t0; k < t0 + nt; k++)
            if (e->texture_count >= 0
                && (e->texture[k] < 0 || e->texture[k] >= e->texture_count))
              {
                wk_set_error (error, WK_ERROR_ARGUMENT, -1, "texture: triangle %"
                              G_GSIZE_FORMAT " names tfrag texture %d, the level "
                              "has %d", k, e->texture[k], e->texture_count);
                return NULL;
              }
          int r = in_place (x, i, d, info, error);
          if (r < 0)
            return NULL;
          if (r == 1)
            {
              status[i] = WK_TFRAG_IN_PLACE;
              continue;
            }
        }
      if (!place (x, i, d, info, mesh_of[i], ext, &free_at, status, error))
        return NULL;
    }
  return g_bytes_new (x->out, x->size);
}

struct _WkTfragsBase {
  const guint8 *block;
  gsize size;
  gint64 base;
  gint texture_count;
  WkTfrags *t;
  gfloat *pos, *uv, *color;  /* the stored LOD 0 terrain (wk_tfrags_fill) */
  gint32 *tex;
};

void
wk_tfrags_base_free (WkTfragsBase *b)
{
  if (b == NULL)
    return;
  wk_tfrags_free (b->t);
  g_free (b->pos);
  g_free (b->uv);
  g_free (b->color);
  g_free (b->tex);
  g_free (b);
}

WkTfragsBase *
wk_tfrags_base_new (const guint8 *block, gsize size, gint64 base, gint texture_count,
                    GError **error)
{
  WkTfrags *t = wk_tfrags_parse (block, size, base, 0, texture_count, error);
  if (t == NULL)
    return NULL;
  WkTfragsBase *b = g_new0 (WkTfragsBase, 1);
  *b = (WkTfragsBase) { block, size, base, texture_count, t, NULL, NULL, NULL, NULL };
  gsize nv = MAX (t->n_positions, 1), nt = MAX (t->n_tris, 1);
  b->pos = g_new (gfloat, 3 * nv);
  b->uv = g_new (gfloat, 6 * nt);
  b->color = g_new (gfloat, 12 * nt);
  b->tex = g_new (gint32, nt);
  /* the triangles and their patches: not needed by an edit */
  g_autofree guint32 *tri = g_new (guint32, 3 * nt);
  g_autofree gint32 *patch = g_new (gint32, nt);
  WkTfragOut out = { b->pos, tri, b->uv, b->color, b->tex, patch };
  wk_tfrags_fill (t, &out);
  return b;
}

guint
wk_tfrags_base_count (const WkTfragsBase *b)
{
  return b->t->patches->len;
}

GBytes *
wk_tfrags_base_edit (const WkTfragsBase *b, const WkTfragEdit *e, guint8 *status,
                     GError **error)
{
  const WkTfrags *t = b->t;
  if (e->texture_count != b->texture_count)
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "texture_count %d: the block was "
                    "parsed with %d", e->texture_count, b->texture_count);
      return NULL;
    }
  if (!check_edit (e, t, error))
    return NULL;
  /* NULL arrays stand for the stored ones */
  WkTfragEdit full = *e;
  if (!full.positions)
    full.positions = b->pos, full.n_positions = t->n_positions;
  if (!full.uv)
    full.uv = b->uv;
  if (!full.color)
    full.color = b->color;
  if (!full.texture)
    full.texture = b->tex;
  full.n_tris = t->n_tris;
  g_autofree guint8 *copy = g_memdup2 (b->block, b->size);
  Ctx x = { b->block, b->size, b->base, (guint32) wk_les32 (b->block), &full, t, b->pos,
            b->uv, b->color, b->tex, copy };
  g_autoptr (GBytes) result = edit (&x, status, error);
  if (result == NULL)
    return NULL;
  gsize rs;
  const guint8 *rp = g_bytes_get_data (result, &rs);
  /* the patches the edit wrote parse again; the rest kept their bytes */
  if (!wk_tfrags_recheck (rp, rs, b->block, b->base, e->texture_count, error))
    {
      wk_error_prefix (error, "edited tfrags do not read back");
      return NULL;
    }
  return g_steal_pointer (&result);
}

GBytes *
wk_tfrags_edit (const guint8 *block, gsize size, gint64 base,
                const WkTfragEdit *e, guint8 *status, GError **error)
{
  g_autoptr (WkTfragsBase) b = wk_tfrags_base_new (block, size, base, e->texture_count,
                                                   error);
  return b ? wk_tfrags_base_edit (b, e, status, error) : NULL;
}
