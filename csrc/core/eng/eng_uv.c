#include "eng_uv.h"

#include "../common/wk_reader.h"

void
wk_eng_tex_entry_decode (const guint8 raw[WK_ENG_TEX_ENTRY_SIZE],
                         WkEngTexEntry *e)
{
  e->flags = wk_le16 (raw);
  e->page = (gint8) raw[2];
  e->page2 = (gint8) raw[3];
  e->u0 = raw[4];
  e->u1 = raw[5];
  e->v0 = raw[6];
  e->v1 = raw[7];
}

void
wk_eng_tex_entry_encode (const WkEngTexEntry *e,
                         guint8 raw[WK_ENG_TEX_ENTRY_SIZE])
{
  raw[0] = (guint8) (e->flags & 0xff);
  raw[1] = (guint8) (e->flags >> 8);
  raw[2] = (guint8) e->page;
  raw[3] = (guint8) e->page2;
  raw[4] = e->u0;
  raw[5] = e->u1;
  raw[6] = e->v0;
  raw[7] = e->v1;
}

void
wk_eng_tex_uv_rect (const WkEngTexEntry *e, gfloat rect[4])
{
  rect[0] = (gfloat) e->u0 / 256.0f;
  rect[1] = (gfloat) e->v0 / 256.0f;
  rect[2] = (gfloat) (e->u1 + 1) / 256.0f;
  rect[3] = (gfloat) (e->v1 + 1) / 256.0f;
}

gboolean
wk_eng_tex_flat_rgb (const WkEngTexEntry *e, guint8 rgb[3])
{
  if (!(e->flags & WK_ENG_TEX_FLAT))
    return FALSE;
  rgb[0] = e->u0;
  rgb[1] = e->u1;
  rgb[2] = e->v0;
  return TRUE;
}

void
wk_eng_tex_flat_entry (const guint8 rgb[3], guint16 flags, WkEngTexEntry *e)
{
  /* page 0, palette byte -1 and v1 255 as in the files (docs/formats/eng.md
   * "TEXT") */
  *e = (WkEngTexEntry) { (guint16) (flags | WK_ENG_TEX_FLAT), 0, -1, rgb[0], rgb[1],
                         rgb[2], 255 };
}
