/* PS2 VIF1 command lists, as stored in RC2 tfrag patches.
 *
 * A code word is a little-endian u32: imm (bits 0-15), num (16-23), cmd
 * (24-31, bit 7 = interrupt). The payload that follows depends on cmd:
 *  - UNPACK (cmd & 0x60 == 0x60): vn = bits 2-3, vl = bits 0-1 of the
 *    COMMAND (not the immediate); element size ((32 >> vl) * (vn + 1)) / 8;
 *    num elements (0 = 256); payload padded to 4 bytes. imm holds the VU
 *    address (bits 0-9), usn (bit 14) and flg (bit 15).
 *  - STROW, STCOL: 16 bytes; STMASK: 4; MPG: num * 8 (0 = 256);
 *    DIRECT, DIRECTHL: imm * 16 (0 = 65536). Every other code: none. */
#pragma once
#include <glib.h>

#include "../common/wk_reader.h"

G_BEGIN_DECLS

enum {
  WK_VIF_STMASK = 0x20,
  WK_VIF_STROW = 0x30,
  WK_VIF_STCOL = 0x31,
  WK_VIF_MPG = 0x4a,
  WK_VIF_DIRECT = 0x50,
  WK_VIF_DIRECTHL = 0x51,
};

typedef struct {
  guint8 cmd;            /* interrupt bit cleared */
  guint8 num;
  guint16 imm;
  gint64 offset;         /* absolute offset of the code word */
  const guint8 *payload; /* inside the reader's buffer */
  gsize payload_size;    /* with padding */
  /* UNPACK only */
  gboolean unpack;
  guint vn, vl, addr, count, elem_size;
  gboolean usn;          /* unsigned */
} WkVifCode;

/* Reads the next code and its payload; FALSE with a FORMAT error when the
 * payload runs past the end of r. */
gboolean wk_vif_next (WkReader *r, WkVifCode *code, GError **error);

/* Walks a whole list (abs = offset of list[0]) and keeps its unpacks in
 * out[0 .. *n); FALSE with a FORMAT error on a bad code or on unpack
 * number max + 1. */
gboolean wk_vif_unpacks (const guint8 *list, gsize size, gint64 abs,
                         WkVifCode *out, guint max, guint *n, GError **error);

G_END_DECLS
