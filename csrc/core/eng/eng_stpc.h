/* ENG STPC chunk: object ("strat") models, skeletal animations, then data
 * the geometry code keeps opaque (the WFPC&0x100 block and strat scripts).
 * docs/formats/eng.md "STPC animations".
 *
 * u32 n1; n1 × (0x8c header + data); u32 n2; n2 × animation; rest.
 * Animation: 32-byte header {+0 nA, +4 ptr, +8 nFrames, +0xc flag,
 * +0x10 nDelta, +0x14 ptr, +0x18 nBones, +0x1c ptr}, then nA×4 bytes,
 * nFrames×8 bytes when flag is 0, then per frame the deltas (frame 0:
 * nDelta×8 bytes, later frames nDelta×2 rounded up to 4) and nBones 4×4
 * f32 matrices. The Croc 2 layout (public project) has two more arrays of
 * nFrames zero words before the frames (the first only when nDelta != 0);
 * both layouts are read, the one that fits is reported. */
#pragma once
#include <glib.h>

#include "eng_model.h"

G_BEGIN_DECLS

/* Most frames an animation may have when its frames hold no bytes (no
 * deltas, no bones) [assumed; bounds what a tiny file can ask for]. */
#define WK_ENG_ANIM_MAX_EMPTY_FRAMES 65536u

typedef enum {
  WK_ENG_ANIM_LAYOUT_SPEC = 0,  /* as our spec lists it */
  WK_ENG_ANIM_LAYOUT_CROC2 = 1, /* with the two nFrames-word arrays */
} WkEngAnimLayout;

typedef struct {
  gsize offset;          /* of the 32-byte header, within the payload */
  gsize size;            /* header + data */
  guint32 n_a, n_frames, flag, n_delta, n_bones;
  gsize a_off;           /* nA × u32 */
  gsize frame_words_off; /* nFrames × 8 bytes, or 0 when flag != 0 */
  gsize frames_off;      /* first frame */
} WkEngAnim;

typedef struct {
  GPtrArray *models;     /* WkEngModel (stpc), owning */
  GArray *anims;         /* WkEngAnim */
  WkEngAnimLayout layout;
  GBytes *payload;       /* copy of the parsed payload */
  gsize anims_start;     /* offset of u32 n2 */
  gsize anims_end;       /* end of the last animation = start of the rest */
  gint64 base;
} WkEngStpc;

WkEngStpc *wk_eng_stpc_parse (const guint8 *data, gsize size, gint64 base,
                              GError **error);
void wk_eng_stpc_free (WkEngStpc *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkEngStpc, wk_eng_stpc_free)

/* The deltas of frame f start at this offset; the matrices follow them. */
gsize wk_eng_anim_frame_offset (const WkEngAnim *a, guint32 f);
guint64 wk_eng_anim_delta_size (const WkEngAnim *a, guint32 f);

/* nDelta as the engine uses it (the public project reads -1 as none). */
guint32 wk_eng_anim_delta_count (const WkEngAnim *a);

/* Frame f of a parsed animation: its deltas (frame 0: count×4 i16, later
 * frames: count i16, count = wk_eng_anim_delta_count) and its n_bones 4×4
 * f32 matrices (row after row, as stored). */
void wk_eng_anim_frame (const WkEngStpc *s, const WkEngAnim *a, guint32 f,
                        gint16 *deltas, gfloat *matrices);

/* The n_a u32 words after the header and, when flag is 0, the n_frames×4
 * i16 frame words (frame_words is not written otherwise). */
void wk_eng_anim_words (const WkEngStpc *s, const WkEngAnim *a,
                        guint32 *a_words, gint16 *frame_words);

/* A frame's bone matrix as stored (16 f32 read in file order: the renderer
 * transforms a bone's vertex v as the row vector v·M, translation in
 * m[12..14]; docs/formats/eng.md "STPC animations") -> a matrix out[r][c]
 * acting on column vectors (p' = out·(p, 1)), in file space (z negated on
 * both sides) or, when file_space is FALSE, in export space as stored. */
void wk_eng_bone_matrix (const gfloat stored[16], gboolean file_space,
                         gfloat out[4][4]);

/* Models rebuilt from their fields; animations and the rest kept exact. */
GBytes *wk_eng_stpc_build (const WkEngStpc *s, GError **error);

G_END_DECLS
