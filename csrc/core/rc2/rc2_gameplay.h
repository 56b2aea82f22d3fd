/* RC2 gameplay (the decompressed gameplay extent of a LEVEL<n>.WAD).
 *
 * A 0x9c-byte header of 39 s32 block offsets (0 = absent), then the blocks.
 * A block has no stored size: it runs to the next block offset (or the end).
 * Decoded here: level settings, the tie / shrub / moby class lists, tie,
 * shrub and moby instances, the tie ambient RGBA records. Every other block
 * is kept as its byte range. Each decoded block records how many of its
 * bytes the decode consumed, so that a writer re-serialising the fields and
 * copying the rest (the block's tail) reproduces the block byte for byte.
 * See docs/formats/rc2-gameplay.md ("Gameplay"). Offsets in errors are offsets into
 * the decompressed gameplay. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_RC2_GAMEPLAY_HEADER 0x9cu
#define WK_RC2_GAMEPLAY_SLOTS (WK_RC2_GAMEPLAY_HEADER / 4)

/* A field of a fixed-size record: n components of a type at an offset. */
typedef enum {
  WK_RC2_I32,        /* s32 */
  WK_RC2_F32,        /* f32 */
  WK_RC2_MAT4,       /* 16 f32 stored column by column; read as a 4x4 matrix
                      * for column vectors (row-major out), m[3][3] forced
                      * to 1 (the stored value is a separate F32 field) */
  WK_RC2_MOBY_MAT4,  /* computed: T(position) S(scale) Rz Ry Rx (not stored) */
} WkRc2FieldType;

typedef struct {
  const char *name;
  guint offset;      /* in the record */
  guint type;        /* WkRc2FieldType */
  guint n;           /* components: 1, 3, 16 */
} WkRc2Field;

typedef enum { WK_RC2_TIE, WK_RC2_SHRUB, WK_RC2_MOBY, WK_RC2_KINDS } WkRc2Kind;

typedef struct {
  const char *name;          /* "tie", "shrub", "moby" */
  guint instance_slot;       /* header slot of the instance block */
  guint class_slot;          /* header slot of the class list */
  guint record;              /* bytes per instance */
  guint class_field;         /* offset of the class number in the record */
  const WkRc2Field *fields;  /* NULL-terminated */
} WkRc2InstanceLayout;

extern const WkRc2InstanceLayout wk_rc2_instance_layouts[WK_RC2_KINDS];
extern const WkRc2Field wk_rc2_settings_fields[];    /* the 0x5c-byte first part */
extern const WkRc2Field wk_rc2_chunk_plane_fields[]; /* 0x20-byte records */
#define WK_RC2_SETTINGS_FIRST 0x5cu
#define WK_RC2_CHUNK_PLANE 0x20u

typedef struct {
  const char *name;   /* Wrench's name of the block */
  guint slot;         /* offset of its pointer in the header */
  gsize offset, size; /* in the gameplay; size: to the next block (0 if absent) */
  gsize decoded;      /* bytes from offset the reader decodes (0: kept raw) */
} WkRc2Block;

typedef struct {
  gint32 instance;    /* tie instance index */
  gint32 count;       /* s16 size field: number of 16-bit words */
  gsize offset;       /* of the data, in the gameplay */
} WkRc2Ambient;

typedef struct {
  const guint8 *data;
  gsize size;
  WkRc2Block blocks[WK_RC2_GAMEPLAY_SLOTS];      /* in header order */
  /* level settings (slot 0x00); NULL when absent */
  const guint8 *settings;
  guint chunk_records;     /* chunk-plane records stored (>= 1) */
  guint chunk_planes;      /* planes they declare (0 for a lone terminator) */
  gint32 core_sounds_count;
  /* instances of each kind: records (NULL when the block is absent) */
  struct {
    const guint8 *records;
    guint count;
    gint32 header[4];      /* the block's 16-byte header as stored */
  } inst[WK_RC2_KINDS];
  /* class lists (NULL when absent): count s32 numbers */
  struct {
    const guint8 *ids;
    guint count;
  } classes[WK_RC2_KINDS];
  GArray *ambient;         /* WkRc2Ambient, in stored order; NULL if absent */
  gint32 *tie_ambient;     /* per tie instance: ambient record or -1 */
} WkRc2Gameplay;

/* Parse and check the gameplay (the bytes must outlive the result). */
WkRc2Gameplay *wk_rc2_gameplay_parse (const guint8 *data, gsize size,
                                      GError **error);
void wk_rc2_gameplay_free (WkRc2Gameplay *gp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (WkRc2Gameplay, wk_rc2_gameplay_free)

/* Every instance of kind must name a class among ids[0..n) (the core class
 * table). FALSE with a FormatError naming the first instance that does not. */
gboolean wk_rc2_gameplay_check_classes (const WkRc2Gameplay *gp, WkRc2Kind kind,
                                        const gint32 *ids, gsize n,
                                        GError **error);

/* The 16-bit words of every tie ambient record, decoded in stored order
 * (record i's count words follow record i-1's) into out (NULL: only
 * count them); returns how many there are. */
gsize wk_rc2_ambient_words (const WkRc2Gameplay *gp, guint16 *out);

/* Bytes one element of a field takes in an output array (4 per component). */
gsize wk_rc2_field_bytes (const WkRc2Field *f);
/* Fill out[i * n .. ] with field f of count records of stride bytes. */
void wk_rc2_field_fill (const WkRc2Field *f, const guint8 *records, guint count,
                        gsize stride, void *out);

G_END_DECLS
