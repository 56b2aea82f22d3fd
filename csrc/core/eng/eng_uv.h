/* ENG texture-table entries and the engine's UV rules — the ONE
 * implementation shared by the texture code (TEXT) and the geometry code
 * (world mesh, write path). docs/formats/eng.md "World mesh", "TEXT". */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_ENG_TEX_ENTRY_SIZE 8
/* A face's u16 texture field reaches no further entry. */
#define WK_ENG_TEX_MAX_ENTRIES 65536u

/* Texture-table entry flags */
#define WK_ENG_TEX_FLAT    0x0001u  /* flat colour: u0,u1,v0 = R,G,B */
#define WK_ENG_TEX_BORDER  0x0004u  /* 1-pixel border */
#define WK_ENG_TEX_WIDE    0x0008u  /* width ×2 */
#define WK_ENG_TEX_TALL    0x0010u  /* height ×2 */
#define WK_ENG_TEX_BLEND(flags)  (((flags) >> 12) & 7u)  /* blend mode */
#define WK_ENG_TEX_MODE2(flags)  (((flags) >> 8) & 7u)   /* the other mode */

/* Face flags that select UV corners */
#define WK_ENG_FACE_BATCH    0x0008u  /* new render batch */
#define WK_ENG_FACE_SECOND   0x0010u  /* with QUAD: second half of a quad */
#define WK_ENG_FACE_MIRROR_U 0x0020u  /* mirror U */
#define WK_ENG_FACE_QUAD     0x0800u  /* half of a quad */
#define WK_ENG_FACE_TWOSIDED 0x0400u
#define WK_ENG_FACE_NOCOLOR  0x4000u  /* ignore vertex colours */

typedef struct {
  guint16 flags;
  gint8 page;    /* texture page index */
  gint8 page2;   /* -1 in the files seen */
  guint8 u0, u1, v0, v1; /* u1, v1 inclusive */
} WkEngTexEntry;

/* Decode one 8-byte entry (u16 flags, i8 page, i8 page2, u8 u0 u1 v0 v1). */
void wk_eng_tex_entry_decode (const guint8 raw[WK_ENG_TEX_ENTRY_SIZE],
                              WkEngTexEntry *e);
void wk_eng_tex_entry_encode (const WkEngTexEntry *e,
                              guint8 raw[WK_ENG_TEX_ENTRY_SIZE]);

/* UV rectangle in 0..1: rect = {U0, V0, U1, V1} with U0 = u0/256,
 * U1 = (u1+1)/256, V0 = v0/256, V1 = (v1+1)/256. */
void wk_eng_tex_uv_rect (const WkEngTexEntry *e, gfloat rect[4]);

/* The flat colour of an entry with WK_ENG_TEX_FLAT, as RGB bytes. */
gboolean wk_eng_tex_flat_rgb (const WkEngTexEntry *e, guint8 rgb[3]);

/* A flat-colour entry of colour rgb with flags (bit 0 set here): page 0,
 * page2 -1, u0, u1, v0 = R, G, B and 255 in v1 (as the original files have
 * it; docs/formats/eng.md "TEXT"). */
void wk_eng_tex_flat_entry (const guint8 rgb[3], guint16 flags, WkEngTexEntry *e);

/* UVs of a face's corners (v0, v1, v2 in file order) from the rectangle and
 * the face flags, by the three corner rules of the renderer.
 * Inline: the world-mesh fill calls it per face. */
static inline void
wk_eng_face_uvs (const gfloat rect[4], guint16 face_flags, gfloat uv[3][2])
{
  const gboolean mirror = (face_flags & WK_ENG_FACE_MIRROR_U) != 0;
  const gfloat a = mirror ? rect[0] : rect[2];
  const gfloat b = mirror ? rect[2] : rect[0];
  const gfloat v0 = rect[1], v1 = rect[3];
  if (!(face_flags & WK_ENG_FACE_QUAD))
    { /* (a,V1) (b,V1) (a,V0) */
      uv[0][0] = a; uv[0][1] = v1;
      uv[1][0] = b; uv[1][1] = v1;
      uv[2][0] = a; uv[2][1] = v0;
    }
  else if (!(face_flags & WK_ENG_FACE_SECOND))
    { /* first half of a quad: (a,V1) (b,V1) (b,V0) */
      uv[0][0] = a; uv[0][1] = v1;
      uv[1][0] = b; uv[1][1] = v1;
      uv[2][0] = b; uv[2][1] = v0;
    }
  else
    { /* second half: (b,V0) (a,V0) (a,V1) */
      uv[0][0] = b; uv[0][1] = v0;
      uv[1][0] = a; uv[1][1] = v0;
      uv[2][0] = a; uv[2][1] = v1;
    }
}

G_END_DECLS
