/* Rewriting an RC2 gameplay from its parse and an edit: instances moved,
 * added (copies of a stored record) or deleted, level settings fields
 * set. Every block the edit does not touch keeps its bytes; blocks are
 * laid out again in their stored order, each keeping its stored
 * alignment, and the header offsets recomputed. The class lists, the
 * tie ambient records and the instance groups follow the instances. See
 * docs/formats/rc2-writing.md ("Gameplay"). */
#pragma once
#include <glib.h>

#include "rc2_gameplay.h"

G_BEGIN_DECLS

/* The new instance list of one kind, in the new order. */
typedef struct {
  guint n;
  const gint32 *source;   /* n: the stored instance whose record is copied,
                           * -1 = a record of zeros with Wrench's defaults */
  const gint32 *class_id; /* n */
  const gfloat *matrix;   /* n × 16, row-major for column vectors, as the
                           * reader gives it (m[3][3] ignored) */
} WkRc2InstanceEdit;

typedef struct {
  const char *name;       /* a settings field (wk_rc2_settings_fields) */
  gdouble value[3];
  guint n;                /* its component count */
} WkRc2SettingValue;

typedef struct {
  const WkRc2InstanceEdit *inst[WK_RC2_KINDS];   /* NULL: kind unchanged */
  const WkRc2SettingValue *settings;
  guint n_settings;
  /* the core's class numbers per kind: every instance class must be one */
  const gint32 *core_ids[WK_RC2_KINDS];
  gsize n_core_ids[WK_RC2_KINDS];
} WkRc2GameplayEdit;

typedef struct {
  guint new_uids[WK_RC2_KINDS];     /* copies and new records given a new uid */
  guint ambient_copied;             /* ambient records given to copies */
  guint ambient_dropped;            /* records of deleted ties or changed classes */
  gboolean groups_remapped[WK_RC2_KINDS];
  guint moby_classes_added;         /* appended to the moby class list */
} WkRc2GameplayReport;

/* The new gameplay, parsed again before it is returned. LimitError for
 * what the format cannot hold (a moby matrix that is not rotation ×
 * uniform scale, a tie index past s16 in the ambient records, an instance
 * block the level does not have); ArgumentError naming the kind and the
 * instance for an unknown class, a source out of range, a non-finite
 * matrix, an unknown settings field. */
GBytes *wk_rc2_gameplay_write (const WkRc2Gameplay *gp, const WkRc2GameplayEdit *edit,
                               WkRc2GameplayReport *report, GError **error);

/* A gameplay with every block absent: the header of block offsets, all 0,
 * then `tail` (bytes no block points at). */
GBytes *wk_rc2_gameplay_empty (const guint8 *tail, gsize size);

/* A gameplay for a new level: the header, `tail` (bytes no block points
 * at), then the blocks a sample fills through wk_rc2_gameplay_write, each
 * 16-aligned in Wrench's order and empty: settings (all zero, one
 * terminator chunk-plane record, no core sounds), the moby class list and
 * instances, the tie class list and instances, the shrub class list and
 * instances (counts 0). docs/formats/rc2-writers.md, "Gameplay". */
GBytes *wk_rc2_gameplay_skeleton (const guint8 *tail, gsize size);

G_END_DECLS
