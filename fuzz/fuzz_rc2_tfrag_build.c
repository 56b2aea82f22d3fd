/* libFuzzer harness: the RC2 tfrag writer (csrc/core/rc2/tfrag_write.c).
 * The input is read as up to 3 meshes (vertices with positions, UVs and
 * colours; strips of indices with a texture each). wk_tfrags_build either
 * refuses (LIMIT/ARGUMENT) or returns a block that parses back with one
 * patch per mesh, positions within half a fixed-point step, the strips'
 * triangles in order with alternating winding, their textures, UVs within
 * 1/8192, colours (clamped to 0..255/128) within 1/256 and patch numbers. */
#include <math.h>
#include <stdint.h>

#include "fuzz_util.h"
#include "fuzz_tfrag.h"

WK_FUZZ_INITIALIZE

typedef struct {
  gfloat pos[64 * 3], uv[64 * 2], color[64 * 4];
  guint32 idx[4 * 10], strip_len[4];
  gint32 strip_tex[4];
} MeshBuf;

static void
make_mesh (WkFuzzSrc *s, MeshBuf *b, WkTfragMesh *m)
{
  guint n = 3 + wk_fuzz_take (s) % 62;
  for (guint i = 0; i < n * 3; i++)
    b->pos[i] = (gint8) wk_fuzz_take (s) / 16.0f;
  for (guint i = 0; i < n * 2; i++)
    b->uv[i] = (gint8) wk_fuzz_take (s) / 64.0f;
  for (guint i = 0; i < n * 4; i++)
    b->color[i] = wk_fuzz_take (s) / 128.0f;
  guint nstrips = 1 + wk_fuzz_take (s) % 4, nidx = 0;
  for (guint k = 0; k < nstrips; k++)
    {
      b->strip_len[k] = 3 + wk_fuzz_take (s) % 8;
      b->strip_tex[k] = wk_fuzz_take (s) % 4;
      for (guint j = 0; j < b->strip_len[k]; j++)
        b->idx[nidx++] = wk_fuzz_take (s) % n;
    }
  *m = (WkTfragMesh) { .pos = b->pos, .uv = b->uv, .color = b->color, .n = n,
                       .idx = b->idx, .nidx = nidx, .strip_len = b->strip_len,
                       .strip_tex = b->strip_tex, .nstrips = nstrips };
}

static void
check (const WkTfragMesh *meshes, guint count, const WkTfrags *t)
{
  WK_FUZZ_CHECK (t->patches->len == count, "%u patches for %u meshes",
                 t->patches->len, count);
  WkFuzzTfrag f;
  wk_fuzz_tfrag_fill (t, &f);
  const gfloat *pos = f.out.positions;
  const guint32 *tris = f.out.triangles;
  const gfloat *uv = f.out.uv;
  const gfloat *col = f.out.color;
  guint base = 0, tri = 0;
  for (guint i = 0; i < count; i++)
    {
      const WkTfragMesh *m = &meshes[i];
      WK_FUZZ_CHECK (base + m->n <= f.nv, "mesh %u: vertices", i);
      for (guint v = 0; v < m->n * 3; v++)
        WK_FUZZ_CHECK (fabsf (pos[base * 3 + v] - m->pos[v]) <= 0.5f / 1024 + 1e-5f,
                       "mesh %u coordinate %u: %g written, %g read", i, v,
                       m->pos[v], pos[base * 3 + v]);
      guint at = 0;
      for (guint k = 0; k < m->nstrips; k++)
        {
          for (guint j = 0; j + 2 < m->strip_len[k]; j++, tri++)
            {
              guint32 a = m->idx[at + j], b = m->idx[at + j + 1], c = m->idx[at + j + 2];
              guint32 want[3] = { j % 2 ? b : a, j % 2 ? a : b, c };
              WK_FUZZ_CHECK (tri < f.nt, "mesh %u: too few triangles", i);
              for (int q = 0; q < 3; q++)
                {
                  WK_FUZZ_CHECK (tris[tri * 3 + q] == base + want[q],
                                 "mesh %u strip %u triangle %u corner %d: %u, want %u",
                                 i, k, j, q, tris[tri * 3 + q] - base, want[q]);
                  for (int e = 0; e < 2; e++)
                    WK_FUZZ_CHECK (fabsf (uv[(tri * 3 + q) * 2 + e]
                                          - m->uv[want[q] * 2 + e]) <= 1.0f / 8192 + 1e-6f,
                                   "mesh %u triangle %u: UV", i, tri);
                  for (int e = 0; e < 4; e++)
                    WK_FUZZ_CHECK (fabsf (col[(tri * 3 + q) * 4 + e]
                                          - CLAMP (m->color[want[q] * 4 + e], 0.0f,
                                                   255.0f / 128)) <= 1.0f / 256 + 1e-6f,
                                   "mesh %u triangle %u: colour", i, tri);
                }
              WK_FUZZ_CHECK (f.out.texture[tri] == m->strip_tex[k],
                             "mesh %u triangle %u: texture", i, tri);
              WK_FUZZ_CHECK (f.out.patch[tri] == (gint32) i,
                             "triangle %u: patch", tri);
            }
          at += m->strip_len[k];
        }
      base += m->n;
    }
  WK_FUZZ_CHECK (tri == f.nt, "%u triangles written, %zu read", tri, f.nt);
  wk_fuzz_tfrag_clear (&f);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  WkFuzzSrc s = { data, size };
  guint count = 1 + wk_fuzz_take (&s) % 3;
  MeshBuf bufs[3];
  WkTfragMesh meshes[3];
  for (guint i = 0; i < count; i++)
    make_mesh (&s, &bufs[i], &meshes[i]);
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) block = wk_tfrags_build (meshes, count, 32.0f, &error);
  if (block == NULL)
    {
      WK_FUZZ_CHECK (error->domain == WK_ERROR && (error->code == WK_ERROR_LIMIT
                                                   || error->code == WK_ERROR_ARGUMENT),
                     "build: %s", error->message);
      return 0;
    }
  gsize n;
  const guint8 *p = g_bytes_get_data (block, &n);
  g_autoptr (WkTfrags) t = wk_tfrags_parse (p, n, 0, 0, 4, &error);
  WK_FUZZ_CHECK (t != NULL, "built block does not parse: %s", error->message);
  check (meshes, count, t);
  return 0;
}
