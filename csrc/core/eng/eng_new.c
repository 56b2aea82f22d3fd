#include "eng_new.h"

#include <math.h>
#include <string.h>

#include "../common/wk_error.h"
#include "../common/wk_reader.h"
#include "eng_import.h"
#include "eng_map.h"
#include "eng_model.h"
#include "eng_stpc.h"
#include "eng_text.h"
#include "eng_trak.h"
#include "eng_uv_fit.h"
#include "eng_wad.h"

#define WFPC_STPC_BLOCK 0x100u /* STPC holds the optional n3 block */
/* [assumed] bound on the pixel bytes of a new TEXT: keeps the WAD far
 * below its 32-bit length field (the game's levels hold a few MiB) */
#define WK_ENG_NEW_MAX_TEXT (512u << 20)

static void
put_chunk (GByteArray *out, const char *name, const guint8 *data, gsize n)
{
  guint32 tag = (guint32) (guint8) name[0] << 24 | (guint32) (guint8) name[1] << 16
                | (guint32) (guint8) name[2] << 8 | (guint8) name[3];
  wk_put_u32 (out, tag);
  wk_put_u32 (out, (guint32) n);
  if (n > 0)
    wk_put_bytes (out, data, n);
}

static gboolean
check_input (const WkEngNewLevel *in, GError **error)
{
  if (in->wfpc & (WK_ENG_WFPC_SWAPS | WFPC_STPC_BLOCK))
    {
      wk_set_error (error, WK_ERROR_ARGUMENT, -1, "WFPC 0x%x: a new level has "
                    "no tile swaps (0x10000) and no STPC block (0x100)", in->wfpc);
      return FALSE;
    }
  if (in->width == 0 || in->height == 0 || in->width > 1024 || in->height > 1024)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "grid %u × %u: sides must be "
                    "1..1024", in->width, in->height);
      return FALSE;
    }
  if (in->n_pages > 128 || in->n_entries > 65536)
    {
      wk_set_error (error, WK_ERROR_LIMIT, -1, "%u pages (at most 128: the entry "
                    "names its page in an i8), %u texture entries (at most 65536)",
                    in->n_pages, in->n_entries);
      return FALSE;
    }
  for (guint i = 0; i < in->n_palettes; i++)
    if (in->palettes[i].count == 0 || in->palettes[i].count > 65536)
      {
        wk_set_error (error, WK_ERROR_ARGUMENT, -1, "palette %u: %u colours "
                      "(1..65536)", i, in->palettes[i].count);
        return FALSE;
      }
  guint64 bytes = 0;
  for (guint i = 0; i < in->n_pages; i++)
    {
      const WkEngNewPage *p = &in->pages[i];
      /* RLE16 is at most 3 words per 2 pixels */
      bytes += (guint64) p->width * p->height * (p->flags ? 3 : 1);
      if (bytes > WK_ENG_NEW_MAX_TEXT)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1, "pages up to page %u need "
                        "more than %u MiB", i, WK_ENG_NEW_MAX_TEXT >> 20);
          return FALSE;
        }
      if (p->width == 0 || p->height == 0 || p->width > WK_ENG_PAGE_MAX_SIDE
          || p->height > WK_ENG_PAGE_MAX_SIDE)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1, "page %u: %u × %u pixels "
                        "(sides 1..%u)", i, p->width, p->height, WK_ENG_PAGE_MAX_SIDE);
          return FALSE;
        }
      if (p->flags == 0 && in->n_palettes == 0)
        {
          wk_set_error (error, WK_ERROR_ARGUMENT, -1, "page %u is 8-bit and "
                        "there is no palette", i);
          return FALSE;
        }
    }
  for (guint64 c = 0; in->zone_grid && c < (guint64) in->width * in->height; c++)
    if (in->zone_grid[c] >= WK_ENG_ZONES)
      {
        wk_set_error (error, WK_ERROR_ARGUMENT, -1, "zone grid cell %" G_GUINT64_FORMAT
                      ": zone %u (0..31)", c, in->zone_grid[c]);
        return FALSE;
      }
  for (guint o = 0; o < in->n_objects; o++)
    {
      const WkEngNewObject *ob = &in->objects[o];
      if (ob->n_verts > G_MAXUINT16 || ob->n_faces > G_MAXUINT16)
        {
          wk_set_error (error, WK_ERROR_LIMIT, -1, "object %u: %u vertices, %u "
                        "faces (at most 65535 each)", o, ob->n_verts, ob->n_faces);
          return FALSE;
        }
      for (gsize k = 0; k < (gsize) ob->n_verts * 3; k++)
        if (!isfinite (ob->positions[k]))
          { /* as the write path (eng_import.c) refuses them */
            wk_set_error (error, WK_ERROR_ARGUMENT, -1, "object %u: vertex %"
                          G_GSIZE_FORMAT " is not finite", o, k / 3);
            return FALSE;
          }
      for (gsize k = 0; k < (gsize) ob->n_faces * 3; k++)
        if (ob->triangles[k] >= ob->n_verts)
          {
            wk_set_error (error, WK_ERROR_ARGUMENT, -1, "object %u: face %"
                          G_GSIZE_FORMAT " uses vertex %u of %u", o, k / 3,
                          ob->triangles[k], ob->n_verts);
            return FALSE;
          }
      for (guint f = 0; f < ob->n_faces; f++)
        if (ob->texture[f] >= in->n_entries)
          {
            wk_set_error (error, WK_ERROR_ARGUMENT, -1, "object %u: face %u uses "
                          "texture %u, the table has %u", o, f, ob->texture[f],
                          in->n_entries);
            return FALSE;
          }
    }
  return TRUE;
}

static void
put_rgba_as_1555 (GByteArray *out, const guint8 *rgba, gsize n)
{
  g_autofree guint16 *px = g_new (guint16, n + 1);
  wk_eng_rgba_to_abgr1555 (rgba, n, px);
  for (gsize i = 0; i < n; i++)
    wk_put_u16 (out, px[i]);
}

static gboolean
build_text (const WkEngNewLevel *in, GByteArray *out, GError **error)
{
  wk_put_u32 (out, in->n_palettes);
  for (guint i = 0; i < in->n_palettes; i++)
    {
      const WkEngNewPalette *p = &in->palettes[i];
      wk_put_u32 (out, p->index);
      wk_put_u32 (out, p->count);
      put_rgba_as_1555 (out, p->rgba, p->count);
      for (guint32 k = 0; k < p->count; k++) /* extra bytes [assumed] 0 */
        wk_put_u8 (out, 0);
    }
  wk_put_u32 (out, in->n_pages);
  for (guint i = 0; i < in->n_pages; i++)
    {
      const WkEngNewPage *p = &in->pages[i];
      gsize n = (gsize) p->width * p->height;
      wk_put_u32 (out, p->flags);
      wk_put_u32 (out, p->width);
      wk_put_u32 (out, p->height);
      if (p->flags == 0)
        {
          for (gsize k = 0; k < n; k++)
            if (p->pixels[k] >= in->palettes[0].count)
              {
                wk_set_error (error, WK_ERROR_ARGUMENT, -1, "page %u: pixel %"
                              G_GSIZE_FORMAT " is index %u, palette 0 has %u "
                              "colours", i, k, p->pixels[k], in->palettes[0].count);
                return FALSE;
              }
          wk_put_bytes (out, p->pixels, n);
        }
      else if (p->flags & WK_ENG_PAGE_FLAG_RLE)
        {
          g_autofree guint16 *px = g_new (guint16, n);
          wk_eng_rgba_to_abgr1555 (p->pixels, n, px);
          g_autoptr (GByteArray) rle = g_byte_array_new ();
          wk_eng_rle16_encode (px, n, rle);
          wk_put_u32 (out, rle->len);
          wk_put_bytes (out, rle->data, rle->len);
        }
      else
        put_rgba_as_1555 (out, p->pixels, n);
    }
  wk_put_u32 (out, in->n_entries);
  wk_put_bytes (out, in->entries, (gsize) in->n_entries * WK_ENG_TEX_ENTRY_SIZE);
  wk_put_u32 (out, 0); /* no texture effects */
  return TRUE;
}

/* The corner flags under which entry e shows uv (stored corner order)
 * most closely. */
static guint16
corner_flags (const gfloat uv[3][2], const WkEngTexEntry *e)
{
  static const guint16 patterns[] = {
    WK_ENG_FACE_QUAD, WK_ENG_FACE_QUAD | WK_ENG_FACE_SECOND,
    WK_ENG_FACE_QUAD | WK_ENG_FACE_MIRROR_U,
    WK_ENG_FACE_QUAD | WK_ENG_FACE_SECOND | WK_ENG_FACE_MIRROR_U,
    0, WK_ENG_FACE_MIRROR_U,
  };
  if (e->flags & WK_ENG_TEX_FLAT)
    return WK_ENG_FACE_QUAD;
  guint16 best = patterns[0];
  gfloat best_err = INFINITY;
  for (guint p = 0; p < G_N_ELEMENTS (patterns); p++)
    {
      gfloat err = wk_eng_uv_error (uv, e, patterns[p]);
      if (err < best_err)
        {
          best_err = err;
          best = patterns[p];
        }
    }
  return best;
}

static WkEngModel *
object_model (const WkEngNewObject *ob, const guint8 *entries)
{
  WkEngModel *m = wk_eng_model_new (TRUE);
  m->n_verts = ob->n_verts;
  m->n_faces = ob->n_faces;
  m->rigid_verts = (guint16) ob->n_verts;
  m->verts = g_new0 (gfloat, (gsize) ob->n_verts * 6 + 1);
  for (guint v = 0; v < ob->n_verts; v++)
    { /* file -> export space: z negated */
      m->verts[6 * v] = ob->positions[3 * v];
      m->verts[6 * v + 1] = ob->positions[3 * v + 1];
      m->verts[6 * v + 2] = -ob->positions[3 * v + 2];
    }
  m->faces = g_new0 (WkEngFace, ob->n_faces + 1);
  guint run = 0; /* faces in the current render batch */
  for (guint f = 0; f < ob->n_faces; f++)
    {
      WkEngFace *face = &m->faces[f];
      const guint32 *t = &ob->triangles[3 * f];
      /* file corners (0,1,2) -> export (0,2,1) keeps the facing */
      face->v[0] = (guint16) t[0];
      face->v[1] = (guint16) t[2];
      face->v[2] = (guint16) t[1];
      face->tex = ob->texture[f];
      WkEngTexEntry e;
      wk_eng_tex_entry_decode (entries + (gsize) WK_ENG_TEX_ENTRY_SIZE * face->tex, &e);
      static const int file_corner[3] = { 0, 2, 1 };
      gfloat uv[3][2];
      for (int k = 0; k < 3; k++)
        for (int c = 0; c < 2; c++)
          uv[k][c] = ob->uv[6 * (gsize) f + 2 * file_corner[k] + c];
      face->flags = corner_flags ((const gfloat (*)[2]) uv, &e);
      if (f == 0 || ob->texture[f] != ob->texture[f - 1]
          || ++run == WK_ENG_MAX_BATCH_FACES)
        {
          face->flags |= WK_ENG_FACE_BATCH;
          run = 0;
        }
    }
  wk_eng_model_recompute (m);
  return m;
}

static void
build_stpc (const WkEngNewLevel *in, GByteArray *out)
{
  wk_put_u32 (out, in->n_objects);
  for (guint o = 0; o < in->n_objects; o++)
    {
      g_autoptr (WkEngModel) m = object_model (&in->objects[o], in->entries);
      wk_eng_model_write_header (m, out);
      wk_eng_model_write_data (m, out);
    }
  wk_put_u32 (out, 0); /* no animations; no strat data */
}

static void
build_map (const WkEngNewLevel *in, GByteArray *out)
{
  wk_put_u32 (out, 0); /* tiles: the write path adds them */
  wk_put_u32 (out, in->width);
  wk_put_u32 (out, in->height);
  for (int k = 0; k < 3; k++) /* the three lists, empty */
    wk_put_u32 (out, 0);
  for (int z = 0; z < WK_ENG_ZONES; z++)
    {
      wk_put_u32 (out, in->zone_table ? in->zone_table[2 * z] : (z ? 0 : 0xffffffffu));
      wk_put_u32 (out, in->zone_table ? in->zone_table[2 * z + 1] : 0);
    }
  for (guint64 c = 0; c < (guint64) in->width * in->height; c++)
    wk_put_u32 (out, in->zone_grid ? in->zone_grid[c] : 0);
  /* no B, model indices or colours with 0 tiles; the tail (docs/formats/eng.md
   * "Writing a new level"):
   * u32 n2, u32 n3 of strat entries, both 0, and the closing u16
   * [assumed: without WFPC 0x200000 / 0x10 no paths or view distance] */
  wk_put_u32 (out, 0);
  wk_put_u32 (out, 0);
  wk_put_u16 (out, 0);
}

/* Everything written must read back with the readers. */
static gboolean
verify (GBytes *wad_bytes, guint32 wfpc, GError **error)
{
  g_autoptr (WkEngWad) wad = wk_eng_wad_parse (wad_bytes, error);
  if (wad == NULL)
    return FALSE;
  gsize n;
  const guint8 *p = wk_eng_wad_payload (wad, (guint) wk_eng_wad_find (wad, "TEXT"), &n);
  g_autoptr (WkEngText) text = wk_eng_text_parse (p, n, 0, error);
  if (text == NULL)
    return FALSE;
  p = wk_eng_wad_payload (wad, (guint) wk_eng_wad_find (wad, "STPC"), &n);
  g_autoptr (WkEngStpc) stpc = wk_eng_stpc_parse (p, n, 0, error);
  if (stpc == NULL)
    return FALSE;
  p = wk_eng_wad_payload (wad, (guint) wk_eng_wad_find (wad, "TRAK"), &n);
  g_autoptr (GPtrArray) models = wk_eng_trak_parse (p, n, 0, error);
  if (models == NULL)
    return FALSE;
  p = wk_eng_wad_payload (wad, (guint) wk_eng_wad_find (wad, "MAP "), &n);
  g_autoptr (WkEngMap) map = wk_eng_map_parse (p, n, 0, wfpc, models, error);
  return map != NULL;
}

GBytes *
wk_eng_new_level (const WkEngNewLevel *in, GError **error)
{
  if (!check_input (in, error))
    return NULL;
  g_autoptr (GByteArray) text = g_byte_array_new ();
  g_autoptr (GByteArray) stpc = g_byte_array_new ();
  g_autoptr (GByteArray) map = g_byte_array_new ();
  if (!build_text (in, text, error))
    return NULL;
  build_stpc (in, stpc);
  build_map (in, map);
  guint8 one[4], wfpc[4], zero[4] = { 0 };
  guint32 v = GUINT32_TO_LE (1);
  memcpy (one, &v, 4);
  v = GUINT32_TO_LE (in->wfpc);
  memcpy (wfpc, &v, 4);

  g_autoptr (GByteArray) out = g_byte_array_new ();
  wk_put_u32 (out, 0); /* total length, set below */
  put_chunk (out, "INFO", one, 4);
  put_chunk (out, "WFPC", wfpc, 4);
  put_chunk (out, "TEXT", text->data, text->len);
  put_chunk (out, "TRAK", zero, 4); /* no tile models yet */
  put_chunk (out, "STPC", stpc->data, stpc->len);
  put_chunk (out, "MAP ", map->data, map->len);
  put_chunk (out, "END ", NULL, 0);
  v = GUINT32_TO_LE (out->len);
  memcpy (out->data, &v, 4);
  GBytes *bytes = g_byte_array_free_to_bytes (g_steal_pointer (&out));
  if (!verify (bytes, in->wfpc, error))
    {
      wk_error_prefix (error, "new level does not read back");
      g_bytes_unref (bytes);
      return NULL;
    }
  return bytes;
}
