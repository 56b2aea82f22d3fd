/* WAD-LZ: the LZ compression of Ratchet & Clank 2 (PS2) level data.
 *
 * A stream is a 16-byte header ("WAD", an unaligned little-endian s32 total
 * size including the header, padding) and a packet stream. Packet kinds,
 * the game's two layout rules and the [assumed] readings are described in
 * docs/formats/rc2-wadlz.md. Pure C11 + GLib. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_LZ_HEADER 16u
#define WK_LZ_BLOCK 0x2000u       /* packets never cross these, counted from 0x10 */
#define WK_LZ_MAX_RUN 273u        /* longest literal run */
#define WK_LZ_NEAR_MAX 0x4000u    /* medium match distance limit */
#define WK_LZ_FAR_BASE 0x4000u    /* far distance = base + 14-bit field [+ 0x4000] */
#define WK_LZ_FAR_MAX_SAFE 0x7fffu /* farthest distance whose reading is undisputed */

/* Reads the header of the stream at src (size bytes available; base = its
 * absolute file offset, for errors): checks the magic and that the declared
 * size (returned) lies between 16 and size. */
gboolean wk_lz_header (const guint8 *src, gsize size, gint64 base,
                       gsize *declared, GError **error);

/* Most bytes a stream of `declared` bytes (header included) can decode to:
 * the best packet, a medium match with a length byte, gives 288 bytes for
 * 4. Lets a caller refuse a lying declared output size before allocating. */
#define WK_LZ_MAX_RATIO 72u
static inline guint64
wk_lz_max_output (gsize declared)
{
  return declared > WK_LZ_HEADER
             ? (guint64) (declared - WK_LZ_HEADER) * WK_LZ_MAX_RATIO : 0;
}

typedef enum {
  WK_LZ_DONE,  /* the stream ended; out holds `produced` bytes */
  WK_LZ_FULL,  /* the next packet does not fit in the output capacity */
  WK_LZ_ERROR, /* the stream is broken; error set */
} WkLzStatus;

/* A resumable decoder. The output buffer may move (be grown) between calls
 * to wk_lz_decoder_run; only its first `produced` bytes must be kept. */
typedef struct {
  const guint8 *stream; /* the header */
  const guint8 *ip;     /* next packet */
  const guint8 *end;    /* stream + declared size */
  gint64 base;          /* absolute offset of stream[0] */
  gsize produced;
  gboolean after_run;   /* the previous packet was a literal run */
} WkLzDecoder;

gboolean wk_lz_decoder_init (WkLzDecoder *d, const guint8 *src, gsize size,
                             gint64 base, GError **error);

/* Decodes packets into out[produced..cap). Every back-reference is checked
 * against the output start and every read against the stream end. A packet
 * that does not fit is not started (WK_LZ_FULL): grow and call again. */
WkLzStatus wk_lz_decoder_run (WkLzDecoder *d, guint8 *out, gsize cap,
                              GError **error);

/* Does the stream decode (to exactly `expected` bytes if >= 0, and to
 * want[0, want_n) if want is set)? Decodes through a fixed buffer of the
 * longest match distance plus 64 KiB (no output-sized allocation): a
 * cheap check of a freshly written stream. FormatError naming the first
 * wrong output offset otherwise. */
gboolean wk_lz_decodes_to (const guint8 *src, gsize size, gint64 base,
                           gint64 expected, const guint8 *want, gsize want_n,
                           GError **error);

typedef enum {
  WK_LZ_GREEDY,  /* the first encoder's greedy parse (kept for comparison) */
  WK_LZ_LAZY,    /* the first encoder's lazy parse (kept for comparison) */
  WK_LZ_BEST,    /* the smaller of LAZY and GREEDY (the first default) */
  WK_LZ_DEFAULT, /* the default: fast parse, smaller than BEST */
  WK_LZ_MAX,     /* optimal parse over the format's costs: smallest, slow */
  WK_LZ_FAST,    /* greedy fast parse: fastest, ~4 % larger than BEST */
  WK_LZ_N_MODES,
} WkLzMode;

/* Input bytes per independently parsed block of the DEFAULT, FAST and MAX modes
 * (the legacy modes parse the whole input as one block). */
#define WK_LZ_DEFAULT_BLOCK ((gsize) 1 << 20)

/* A game-safe stream: no two literal runs in a row, no packet crossing a
 * block boundary, far matches only where every reading agrees. Fails only
 * when the result would not fit the header's s32 size (WK_ERROR_LIMIT).
 * Same as wk_lz_compress_full (src, size, mode, 1, 0, error). */
GBytes *wk_lz_compress (const guint8 *src, gsize size, WkLzMode mode,
                        GError **error);

/* The input is parsed in blocks of `block` bytes (0: the mode's default)
 * on up to `threads` threads (0: one per processor). The stream depends on
 * the mode and the block size only, never on the number of threads. */
GBytes *wk_lz_compress_full (const guint8 *src, gsize size, WkLzMode mode,
                             guint threads, gsize block, GError **error);

/* Continues a stream: o (taken) holds a header and packets whose output
 * ends with src[0, start); the result is o with the packets of
 * src[start, end) appended (one thread), whose matches may reach back
 * into src[0, start) (at most the encoder's window, 32 KiB). It may
 * follow any packet (literals after a run or a small literal start on a
 * dummy) and keeps the game's rules from o's length on. The size field
 * is left to the caller. Fewer than WK_LZ_ONTO_LITERALS bytes are written
 * as literals (a parse sets up ~1.3 MB of tables; at 0.5 MB they cost
 * 1.8 M instructions, the price of parsing ~35 KB:
 * docs/performance-rc2-export.md, not measured again at 1.3 MB). */
#define WK_LZ_ONTO_LITERALS 512u
GByteArray *wk_lz_compress_onto (GByteArray *o, const guint8 *src, gsize start,
                                 gsize end, WkLzMode mode);

/* Processors wk_lz_compress_full uses for threads = 0. */
guint wk_lz_threads_available (void);

/* One packet read without producing output (the validator's walk). */
typedef struct {
  gsize size;          /* its bytes, small literal included (a pad: its own 3-4) */
  gsize len, dist;     /* the match it copies (len 0: none) */
  gsize lit;           /* literal bytes it carries: a run's or a small literal's */
  const guint8 *lit_at;
  gboolean run, pad, far_high; /* far_high: the disputed far distance bit */
} WkLzPacket;

enum {
  WK_LZ_PACKET_OK,
  WK_LZ_PACKET_SHORT,         /* its fixed part runs past end (size: what it needs) */
  WK_LZ_PACKET_SHORT_LITERAL, /* its small literal does (lit: how many) */
};

/* Reads the packet at src[pos] of a stream whose declared size is end
 * (pos < end). Returns a WK_LZ_PACKET_ value. */
int wk_lz_packet (const guint8 *src, gsize pos, gsize end, WkLzPacket *p);

/* Every rule violation found in the stream, as messages naming offsets
 * (gchar*; empty when clean). Structural errors end the walk. At most
 * `limit` messages. */
GPtrArray *wk_lz_validate (const guint8 *src, gsize size, guint limit);

G_END_DECLS
