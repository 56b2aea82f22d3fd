/* A small open-addressing map from a 64-bit hash to a u32 id, for
 * deduplicating records held in the caller's own array: the caller hashes
 * a record and confirms a candidate with its own equality test, so keys of
 * any size work (vertex coordinates, faces). Pure C11 + GLib. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 *hash;
  guint32 *id;   /* G_MAXUINT32 = empty slot */
  gsize cap;     /* a power of two */
  gsize len;
} WkIdMap;

/* Sized for about `expected` ids; grows as needed. */
void wk_idmap_init (WkIdMap *m, gsize expected);
void wk_idmap_clear (WkIdMap *m);

/* Does the record with hash h exist? eq (ctx, id) confirms a candidate.
 * Returns its id, or G_MAXUINT32 after inserting new_id. */
guint32 wk_idmap_find_or_add (WkIdMap *m, guint64 h,
                              gboolean (*eq) (gconstpointer ctx, guint32 id),
                              gconstpointer ctx, guint32 new_id);

/* The id of the record with hash h, or G_MAXUINT32 (nothing inserted). */
guint32 wk_idmap_find (const WkIdMap *m, guint64 h,
                       gboolean (*eq) (gconstpointer ctx, guint32 id),
                       gconstpointer ctx);

/* A 64-bit mix of a buffer of 32-bit words (for hashing records). */
static inline guint64
wk_hash_words (const guint32 *w, gsize n)
{
  guint64 h = 0x9e3779b97f4a7c15ull;
  for (gsize i = 0; i < n; i++)
    {
      h ^= w[i];
      h *= 0xbf58476d1ce4e5b9ull;
      h ^= h >> 31;
    }
  return h;
}

G_END_DECLS
