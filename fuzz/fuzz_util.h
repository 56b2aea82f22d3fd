/* Shared checks for the libFuzzer harnesses in fuzz/ (see docs/testing.md).
 *
 * A harness calls a core parser on the fuzzer's bytes. Failure is fine, but
 * it must be a well-formed WK_ERROR_FORMAT; success must satisfy the format's
 * invariants and, where a writer exists, survive the round trip. Anything
 * else aborts, which libFuzzer reports as a crash with the input saved. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common/wk_error.h"

#define WK_FUZZ_CHECK(cond, ...)                                           \
  do                                                                       \
    {                                                                      \
      if (!(cond))                                                         \
        {                                                                  \
          fprintf (stderr, "%s:%d: check failed: %s: ", __FILE__,          \
                   __LINE__, #cond);                                       \
          fprintf (stderr, __VA_ARGS__);                                   \
          fputc ('\n', stderr);                                            \
          abort ();                                                        \
        }                                                                  \
    }                                                                      \
  while (0)

/* GLib criticals and warnings (a g_return_if_fail tripped) are bugs. */
static inline void
wk_fuzz_init (void)
{
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
}

/* libFuzzer's entry points, declared once; every harness starts with
 * WK_FUZZ_INITIALIZE and then defines LLVMFuzzerTestOneInput. */
int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define WK_FUZZ_INITIALIZE                                                 \
  int LLVMFuzzerInitialize (int *argc, char ***argv)                       \
  {                                                                        \
    (void) argc;                                                           \
    (void) argv;                                                           \
    wk_fuzz_init ();                                                       \
    return 0;                                                              \
  }

/* The fuzzer's bytes read one at a time by harnesses that build their
 * input structures from them; 0 once they run out. */
typedef struct
{
  const uint8_t *p;
  size_t n;
} WkFuzzSrc;

static inline guint8
wk_fuzz_take (WkFuzzSrc *s)
{
  if (s->n == 0)
    return 0;
  s->n--;
  return *s->p++;
}

/* A parse of `size` input bytes failed: the error must be a FORMAT error
 * whose offset lies within the input and whose context starts with
 * `context_prefix`. */
static inline void
wk_fuzz_check_format_error (const GError *error, gsize size,
                            const char *context_prefix)
{
  WK_FUZZ_CHECK (error != NULL, "failure without an error");
  WK_FUZZ_CHECK (error->domain == WK_ERROR && error->code == WK_ERROR_FORMAT,
                 "not a FORMAT error: %s", error->message);
  WK_FUZZ_CHECK (error->message != NULL && error->message[0] != '\0',
                 "empty message");
  gint64 off = wk_error_offset (error);
  WK_FUZZ_CHECK (off >= -1 && off <= (gint64) size,
                 "offset %" G_GINT64_FORMAT " outside the %" G_GSIZE_FORMAT
                 "-byte input: %s", off, size, error->message);
  WK_FUZZ_CHECK (g_str_has_prefix (wk_error_context (error), context_prefix),
                 "context '%s' does not start with '%s'",
                 wk_error_context (error), context_prefix);
}

/* Two byte strings must be equal; says where they first differ. */
static inline void
wk_fuzz_check_same (GBytes *a, GBytes *b, const char *what)
{
  gsize na, nb;
  const guint8 *pa = g_bytes_get_data (a, &na);
  const guint8 *pb = g_bytes_get_data (b, &nb);
  gsize i = 0;
  while (i < na && i < nb && pa[i] == pb[i])
    i++;
  WK_FUZZ_CHECK (na == nb && i == na,
                 "%s: %" G_GSIZE_FORMAT " vs %" G_GSIZE_FORMAT
                 " bytes, first difference at %" G_GSIZE_FORMAT,
                 what, na, nb, i);
}

/* A rebuilt payload must equal the input bytes. */
static inline void
wk_fuzz_check_same_data (const guint8 *data, gsize size, GBytes *built,
                         const char *what)
{
  g_autoptr (GBytes) in = g_bytes_new_static (data, size);
  wk_fuzz_check_same (in, built, what);
}
