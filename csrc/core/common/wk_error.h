/* Errors of the wadkit core: one GError domain whose errors carry the byte
 * offset where the problem was found and a context path ("TRAK > model 12").
 * Pure C11 + GLib. */
#pragma once
#include <glib.h>

G_BEGIN_DECLS

#define WK_ERROR (wk_error_quark ())

typedef enum {
  WK_ERROR_FORMAT,   /* the input breaks the format          -> FormatError */
  WK_ERROR_LIMIT,    /* a write the game could not load       -> LimitError  */
  WK_ERROR_ARGUMENT, /* a caller passed something unusable    -> ValueError  */
} WkErrorCode;

GQuark wk_error_quark (void);

/* Set a WK_ERROR. offset < 0 means "no file offset". The message gets
 * " at offset 0x.." appended when an offset is given. */
void wk_set_error (GError **error, WkErrorCode code, gint64 offset,
                   const char *fmt, ...) G_GNUC_PRINTF (4, 5);

/* Add context as an error travels up: prefixes the message with "ctx: " and,
 * for WK_ERROR errors, the context path with "ctx > ". NULL-safe. */
void wk_error_prefix (GError **error, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

/* File offset of a WK_ERROR error, -1 when unknown or another domain. */
gint64 wk_error_offset (const GError *error);

/* Context path of a WK_ERROR error ("" when none). Never NULL. */
const char *wk_error_context (const GError *error);

/* Structured "where" of a WK_ERROR error, for callers that name the object
 * at fault without parsing the message: a tile, a model, a vertex (each -1
 * when unknown) and the name of the caller's object (NULL when none).
 * wk_error_locate sets each given (>= 0) field that is still unknown, so
 * the innermost code that knows a field wins; NULL-safe. */
void wk_error_locate (GError **error, gint64 tile, gint64 model, gint64 vertex);
/* Sets the object name when none is set yet (name NULL: no-op). */
void wk_error_set_object (GError **error, const char *name);
gint64 wk_error_tile (const GError *error);
gint64 wk_error_model (const GError *error);
gint64 wk_error_vertex (const GError *error);
const char *wk_error_object (const GError *error); /* NULL when none */

G_END_DECLS
