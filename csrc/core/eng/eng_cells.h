/* Which grid cells a collision polygon belongs to. The engine tests only the
 * tiles of the cell the player stands in (docs/formats/eng-collision.md
 * "The floor test"), so a written polygon must be entered into every cell
 * it covers.
 * Cells are half-open: a polygon belongs to the cells its interior covers,
 * and one that ends on a cell line is not entered into the next cell.
 * docs/formats/eng.md "Writing new geometry", "Editing a level in place". */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

/* A polygon reaching less than this (units) into a cell is not in it: f32
 * positions near x = 1024 are only good to ~6e-5, and a point that close to
 * a cell line lies within every polygon's edge tolerance (≥ 1/64) anyway. */
#define WK_ENG_CELL_EPS (1.0 / 2048.0)

typedef struct {
  guint32 x, z;
} WkEngCell;

/* d/4064 of an i16 reaches ±8.06 units from a tile origin, so no polygon
 * wider than this along x or z can be stored in any tile. */
#define WK_ENG_COLL_MAX_SPAN 16.0

static inline gboolean
wk_eng_coll_reachable (const double xz[][2], guint n)
{
  for (int a = 0; a < 2; a++)
    {
      double lo = xz[0][a], hi = xz[0][a];
      for (guint k = 1; k < n; k++)
        {
          lo = MIN (lo, xz[k][a]);
          hi = MAX (hi, xz[k][a]);
        }
      if (!(hi - lo <= WK_ENG_COLL_MAX_SPAN))
        return FALSE;
    }
  return TRUE;
}

/* Append to out (WkEngCell) the cells of the W×H grid that the polygon's
 * x/z projection (n = 3 or 4 corners {x, z}, file space) covers. A polygon
 * with no extent across one axis (a wall on a cell line) belongs to the cell
 * on the + side of the line. FALSE when it also covers a cell outside the
 * grid (bad = one of them); the cells inside are appended either way. */
gboolean wk_eng_cells_covered (const double xz[][2], guint n, guint32 w,
                               guint32 h, GArray *out, gint64 bad[2]);

G_END_DECLS
