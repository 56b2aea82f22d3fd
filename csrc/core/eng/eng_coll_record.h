/* ENG collision polygon record (32 bytes), as stored in TRAK/STPC models.
 * docs/formats/eng-collision.md "The record (32 bytes)". Shared by the model parser (which
 * keeps records exact) and the collision/floor code (which uses them). */
#pragma once
#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

#define WK_ENG_COLL_RECORD_SIZE 32
#define WK_ENG_COLL_QUAD 0x01u   /* type bit 0: 4 edges, else 3 */

typedef struct {
  guint8 type;      /* bit0 quad; bit2 ≈ normal points down [likely] */
  guint8 material;  /* ground type; 0x1e water/death plane [likely] */
  gint8 n[5][3];    /* plane normals ×127: [0] surface, [1..4] edges (inwards) */
  guint8 pad[5];    /* byte after each normal: 0 in the files, kept exact */
  gint16 d[5];      /* plane distances, 1/4096 units (engine compares n·32 vs d·4096) */
} WkEngCollRecord;

/* Decode/encode one record; encode(decode(x)) == x for any 32 bytes. */
static inline void
wk_eng_coll_record_decode (const guint8 *raw, WkEngCollRecord *rec)
{
  rec->type = raw[0];
  rec->material = raw[1];
  for (int k = 0; k < 5; k++)
    {
      const guint8 *p = raw + 2 + 6 * k;
      rec->n[k][0] = (gint8) p[0];
      rec->n[k][1] = (gint8) p[1];
      rec->n[k][2] = (gint8) p[2];
      rec->pad[k] = p[3];
      rec->d[k] = (gint16) (guint16) (p[4] | (p[5] << 8));
    }
}

static inline void
wk_eng_coll_record_encode (const WkEngCollRecord *rec, guint8 *raw)
{
  raw[0] = rec->type;
  raw[1] = rec->material;
  for (int k = 0; k < 5; k++)
    {
      guint8 *p = raw + 2 + 6 * k;
      p[0] = (guint8) rec->n[k][0];
      p[1] = (guint8) rec->n[k][1];
      p[2] = (guint8) rec->n[k][2];
      p[3] = rec->pad[k];
      p[4] = (guint8) ((guint16) rec->d[k] & 0xff);
      p[5] = (guint8) ((guint16) rec->d[k] >> 8);
    }
}

static inline guint
wk_eng_coll_record_edges (const WkEngCollRecord *rec)
{
  return (rec->type & WK_ENG_COLL_QUAD) ? 4 : 3;
}

G_END_DECLS
