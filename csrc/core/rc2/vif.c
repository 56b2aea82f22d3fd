#include "vif.h"

gboolean
wk_vif_next (WkReader *r, WkVifCode *c, GError **error)
{
  memset (c, 0, sizeof *c);
  c->offset = wk_reader_abs (r);
  guint32 word;
  if (!wk_read_u32 (r, &word, "VIF code", error))
    return FALSE;
  c->imm = word & 0xffff;
  c->num = (word >> 16) & 0xff;
  c->cmd = (word >> 24) & 0x7f;
  gsize size = 0;
  if ((c->cmd & 0x60) == 0x60)
    {
      c->unpack = TRUE;
      c->vn = (c->cmd >> 2) & 3;
      c->vl = c->cmd & 3;
      c->elem_size = ((32u >> c->vl) * (c->vn + 1)) / 8;
      c->count = c->num ? c->num : 256;
      c->addr = c->imm & 0x3ff;
      c->usn = (c->imm >> 14) & 1;
      size = ((gsize) c->count * c->elem_size + 3) & ~(gsize) 3;
    }
  else
    switch (c->cmd)
      {
      case WK_VIF_STROW:
      case WK_VIF_STCOL: size = 16; break;
      case WK_VIF_STMASK: size = 4; break;
      case WK_VIF_MPG: size = (gsize) (c->num ? c->num : 256) * 8; break;
      case WK_VIF_DIRECT:
      case WK_VIF_DIRECTHL: size = (gsize) (c->imm ? c->imm : 65536) * 16; break;
      default: break;
      }
  c->payload_size = size;
  if (!wk_reader_check (r, size, "VIF payload", error))
    {
      wk_error_prefix (error, "VIF code 0x%08x", word);
      return FALSE;
    }
  c->payload = wk_reader_ptr (r);
  r->pos += size;
  return TRUE;
}

gboolean
wk_vif_unpacks (const guint8 *list, gsize size, gint64 abs, WkVifCode *out,
                guint max, guint *n, GError **error)
{
  WkReader r;
  wk_reader_init (&r, list, size, abs);
  *n = 0;
  while (wk_reader_left (&r) > 0)
    {
      WkVifCode c;
      if (!wk_vif_next (&r, &c, error))
        return FALSE;
      if (!c.unpack)
        continue;
      if (*n == max)
        {
          wk_set_error (error, WK_ERROR_FORMAT, c.offset,
                        "unpack %u of a list that has at most %u", max + 1, max);
          return FALSE;
        }
      out[(*n)++] = c;
    }
  return TRUE;
}
