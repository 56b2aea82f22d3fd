/* libFuzzer harness: RC2 gameplay (csrc/core/rc2/rc2_gameplay.c). On
 * success: every block lies in the input and its decoded part inside the
 * block; every field of every instance fills exactly its array (ASan); the
 * tie and shrub instances pass the class check against their own class
 * lists (the lists are checked to be the instances' classes); ambient
 * records lie in the input and every tie's record index is valid. Round
 * trip (rc2_gameplay_write.c): every instance given back as read either is
 * refused (LIMIT / ARGUMENT: e.g. a matrix that is not finite) or writes a
 * gameplay that parses, and the input byte for byte when no two slots
 * share a block and every moby class is in the moby list. */
#include <stdint.h>

#include "fuzz_util.h"
#include "core/common/wk_reader.h"
#include "core/rc2/rc2_gameplay.h"
#include "core/rc2/rc2_gameplay_write.h"

WK_FUZZ_INITIALIZE

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WkRc2Gameplay) gp = wk_rc2_gameplay_parse (data, size, &error);
  if (gp == NULL)
    {
      wk_fuzz_check_format_error (error, size, "");
      return 0;
    }
  for (guint i = 0; i < WK_RC2_GAMEPLAY_SLOTS; i++)
    {
      const WkRc2Block *b = &gp->blocks[i];
      WK_FUZZ_CHECK (b->offset + b->size <= size && b->decoded <= b->size,
                     "block %s: %zu + %zu, decoded %zu of %zu bytes", b->name,
                     b->offset, b->size, b->decoded, size);
    }
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[k];
      guint n = gp->inst[k].count;
      if (gp->inst[k].records == NULL)
        continue;
      WK_FUZZ_CHECK (gp->inst[k].records + (gsize) n * L->record <= data + size,
                     "%s records past the input", L->name);
      for (const WkRc2Field *f = L->fields; f->name; f++)
        {
          void *out = g_malloc (MAX (n, 1) * wk_rc2_field_bytes (f));
          wk_rc2_field_fill (f, gp->inst[k].records, n, L->record, out);
          g_free (out);
        }
      if (k != WK_RC2_MOBY && gp->classes[k].ids != NULL)
        {
          g_autofree gint32 *ids = g_new (gint32, MAX (gp->classes[k].count, 1));
          for (guint i = 0; i < gp->classes[k].count; i++)
            ids[i] = wk_les32 (gp->classes[k].ids + 4 * (gsize) i);
          g_autoptr (GError) e2 = NULL;
          WK_FUZZ_CHECK (wk_rc2_gameplay_check_classes (gp, k, ids, gp->classes[k].count,
                                                        &e2),
                         "%s instances fail their own class list: %s", L->name,
                         e2->message);
        }
    }
  if (gp->ambient != NULL)
    {
      for (guint i = 0; i < gp->ambient->len; i++)
        {
          const WkRc2Ambient *a = &g_array_index (gp->ambient, WkRc2Ambient, i);
          WK_FUZZ_CHECK (a->offset + 2 * (gsize) a->count <= size
                         && (guint) a->instance < gp->inst[WK_RC2_TIE].count,
                         "ambient record %u", i);
        }
      for (guint i = 0; i < gp->inst[WK_RC2_TIE].count; i++)
        WK_FUZZ_CHECK (gp->tie_ambient[i] >= -1
                       && gp->tie_ambient[i] < (gint32) gp->ambient->len,
                       "tie %u: ambient record %d", i, gp->tie_ambient[i]);
    }
  /* the round trip */
  WkRc2InstanceEdit ie[WK_RC2_KINDS];
  WkRc2GameplayEdit e = { { NULL } };
  gint32 *buf[WK_RC2_KINDS][2] = { { NULL } };
  gfloat *mat[WK_RC2_KINDS] = { NULL };
  gboolean listed = TRUE;
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      const WkRc2InstanceLayout *L = &wk_rc2_instance_layouts[k];
      guint n = gp->inst[k].count;
      buf[k][0] = g_new (gint32, MAX (n, 1));
      buf[k][1] = g_new (gint32, MAX (n, 1));
      mat[k] = g_new (gfloat, 16 * (gsize) MAX (n, 1));
      const WkRc2Field *m = L->fields;
      while (strcmp (m->name, "matrix") != 0)
        m++;
      if (n)
        wk_rc2_field_fill (m, gp->inst[k].records, n, L->record, mat[k]);
      for (guint i = 0; i < n; i++)
        {
          buf[k][0][i] = (gint32) i;
          buf[k][1][i] = wk_les32 (gp->inst[k].records + (gsize) i * L->record
                                   + L->class_field);
          gboolean in = FALSE;
          for (guint c = 0; k == WK_RC2_MOBY && c < gp->classes[k].count; c++)
            in = in || wk_les32 (gp->classes[k].ids + 4 * (gsize) c) == buf[k][1][i];
          if (k == WK_RC2_MOBY && gp->classes[k].ids && !in)
            listed = FALSE;
        }
      ie[k] = (WkRc2InstanceEdit) { n, buf[k][0], buf[k][1], mat[k] };
      e.inst[k] = &ie[k];
      e.core_ids[k] = buf[k][1];
      e.n_core_ids[k] = n;
    }
  for (guint i = 0; i < WK_RC2_GAMEPLAY_SLOTS; i++)
    for (guint j = i + 1; j < WK_RC2_GAMEPLAY_SLOTS; j++)
      if (gp->blocks[i].offset && gp->blocks[i].offset == gp->blocks[j].offset)
        listed = FALSE;
  WkRc2GameplayReport rep;
  g_autoptr (GError) e2 = NULL;
  g_autoptr (GBytes) out = wk_rc2_gameplay_write (gp, &e, &rep, &e2);
  if (out == NULL)
    WK_FUZZ_CHECK (e2 && e2->domain == WK_ERROR
                   && (e2->code == WK_ERROR_LIMIT || e2->code == WK_ERROR_ARGUMENT),
                   "round trip: %s", e2 ? e2->message : "no error");
  else if (listed)
    WK_FUZZ_CHECK (g_bytes_get_size (out) == size
                   && memcmp (g_bytes_get_data (out, NULL), data, size) == 0,
                   "the gameplay given back as read changed");
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      g_free (buf[k][0]);
      g_free (buf[k][1]);
      g_free (mat[k]);
    }
  return 0;
}
