/* libFuzzer harness: RC2 core class tables (csrc/core/rc2/rc2_classes.c),
 * input = a core_index (core header first). On success: every entry lies in
 * the input; a class with data has 0 < offset < core_data's size and ends
 * at or before it; the non-zero offsets increase in each table; textures
 * before the first 0xff are below the kind's texture count. */
#include <stdint.h>

#include "fuzz_util.h"
#include "core/common/wk_reader.h"
#include "core/rc2/rc2_classes.h"
#include "core/rc2/rc2_level.h"

WK_FUZZ_INITIALIZE

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (WkRc2Classes) c = wk_rc2_classes_parse (data, size, 0, &error);
  if (c == NULL)
    {
      wk_fuzz_check_format_error (error, size, "RC2 core");
      return 0;
    }
  gint64 dsize = wk_les32 (data + WK_RC2_DECOMPRESSED_SIZE);
  static const guint tex_slot[WK_RC2_KINDS] = { 0x40, 0x48, 0x38 };
  for (int k = 0; k < WK_RC2_KINDS; k++)
    {
      gint32 last = 0;
      for (guint i = 0; i < c->tables[k]->len; i++)
        {
          const WkRc2Class *e = &g_array_index (c->tables[k], WkRc2Class, i);
          WK_FUZZ_CHECK (e->entry + 0x20 <= size, "entry %u of kind %d", i, k);
          if (e->offset == 0)
            {
              WK_FUZZ_CHECK (e->size == 0, "class %u: size without data", i);
              continue;
            }
          WK_FUZZ_CHECK (e->offset > 0 && e->offset < dsize
                         && (gint64) e->offset + (gint64) e->size <= dsize
                         && e->size > 0 && e->offset > last,
                         "class %u: %d + %zu of %" G_GINT64_FORMAT, i, e->offset,
                         e->size, dsize);
          last = e->offset;
          for (guint t = 0; t < e->n_textures; t++)
            WK_FUZZ_CHECK (e->textures[t] < wk_les32 (data + tex_slot[k]),
                           "class %u texture %u", i, t);
        }
    }
  return 0;
}
