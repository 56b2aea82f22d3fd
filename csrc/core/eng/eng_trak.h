/* ENG TRAK chunk: the world's tile models. u32 n; n model headers (0x84
 * bytes); then the data of models 0..n-1. docs/formats/eng.md "Model format". */
#pragma once
#include <glib.h>

#include "eng_model.h"

G_BEGIN_DECLS

/* Parse a TRAK payload at absolute file offset base. Returns a GPtrArray of
 * WkEngModel (owning). The payload must end exactly after the last model. */
GPtrArray *wk_eng_trak_parse (const guint8 *data, gsize size, gint64 base,
                              GError **error);
/* The same over bytes that cannot change: the models view their vertices,
 * faces and collision records in place and hold a reference to bytes
 * (wk_eng_model_own before editing one). */
GPtrArray *wk_eng_trak_parse_bytes (GBytes *bytes, gint64 base, GError **error);
/* backing: NULL to copy, or the GBytes that data lies in. */
GPtrArray *wk_eng_trak_parse_in (const guint8 *data, gsize size, GBytes *backing,
                                 gint64 base, GError **error);

/* Build a TRAK payload from models (the write path's "TRAK from models"). */
GBytes *wk_eng_trak_build (const GPtrArray *models, GError **error);

G_END_DECLS
