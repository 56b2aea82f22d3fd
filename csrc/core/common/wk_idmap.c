#include "wk_idmap.h"

#include <string.h>

static void
alloc_slots (WkIdMap *m, gsize cap)
{
  m->cap = cap;
  m->hash = g_new (guint64, cap);
  m->id = g_new (guint32, cap);
  memset (m->id, 0xff, cap * sizeof (guint32));
}

void
wk_idmap_init (WkIdMap *m, gsize expected)
{
  gsize cap = 16;
  while (cap < expected * 2 && cap < ((gsize) 1 << 40))
    cap <<= 1;
  m->len = 0;
  alloc_slots (m, cap);
}

void
wk_idmap_clear (WkIdMap *m)
{
  g_clear_pointer (&m->hash, g_free);
  g_clear_pointer (&m->id, g_free);
  m->cap = m->len = 0;
}

static void
grow (WkIdMap *m)
{
  guint64 *oh = m->hash;
  guint32 *oi = m->id;
  gsize ocap = m->cap;
  alloc_slots (m, ocap * 2);
  for (gsize i = 0; i < ocap; i++)
    if (oi[i] != G_MAXUINT32)
      {
        gsize s = (gsize) oh[i] & (m->cap - 1);
        while (m->id[s] != G_MAXUINT32)
          s = (s + 1) & (m->cap - 1);
        m->hash[s] = oh[i];
        m->id[s] = oi[i];
      }
  g_free (oh);
  g_free (oi);
}

guint32
wk_idmap_find_or_add (WkIdMap *m, guint64 h,
                      gboolean (*eq) (gconstpointer ctx, guint32 id),
                      gconstpointer ctx, guint32 new_id)
{
  gsize s = (gsize) h & (m->cap - 1);
  for (; m->id[s] != G_MAXUINT32; s = (s + 1) & (m->cap - 1))
    if (m->hash[s] == h && eq (ctx, m->id[s]))
      return m->id[s];
  m->hash[s] = h;
  m->id[s] = new_id;
  if (++m->len * 2 > m->cap)
    grow (m);
  return G_MAXUINT32;
}

guint32
wk_idmap_find (const WkIdMap *m, guint64 h,
               gboolean (*eq) (gconstpointer ctx, guint32 id), gconstpointer ctx)
{
  for (gsize s = (gsize) h & (m->cap - 1); m->id[s] != G_MAXUINT32;
       s = (s + 1) & (m->cap - 1))
    if (m->hash[s] == h && eq (ctx, m->id[s]))
      return m->id[s];
  return G_MAXUINT32;
}
