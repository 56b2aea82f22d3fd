/* libFuzzer harness: RC2 gameplay (csrc/core/rc2/rc2_gameplay.c). On
 * success: every block lies in the input and its decoded part inside the
 * block; every field of every instance fills exactly its array (ASan); the
 * tie and shrub instances pass the class check against their own class
 * lists (the lists are checked to be the instances' classes); ambient
 * records lie in the input and every tie's record index is valid. (No
 * write-back: the gameplay writer is not in the core yet.) */
#include <stdint.h>

#include "fuzz_util.h"
#include "core/common/wk_reader.h"
#include "core/rc2/rc2_gameplay.h"

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
  return 0;
}
