/* O_TMPFILE, linkat and AT_EMPTY_PATH are Linux (GNU) extensions. */
#define _GNU_SOURCE
#include "wk_file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean
set_errno_error (GError **error, int saved_errno, const char *what,
                 const char *path)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
               "cannot write %s: %s: %s", path, what, g_strerror (saved_errno));
  return FALSE;
}

/* A folder is refused by its own errno (mmap would say "no such device"). */
GBytes *
wk_file_map (const char *path, GError **error)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                   "cannot read %s: %s", path, g_strerror (e));
      return NULL;
    }
  GStatBuf st;
  GMappedFile *mf = NULL;
  int e = 0;
  if (fstat (fd, &st) != 0)
    e = errno;
  else if (S_ISDIR (st.st_mode))
    e = EISDIR;
  else
    mf = g_mapped_file_new_from_fd (fd, FALSE, error);
  close (fd);
  if (e)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                 "cannot read %s: %s", path, g_strerror (e));
  if (mf == NULL)
    return NULL;
  GBytes *bytes = g_mapped_file_get_bytes (mf);
  g_mapped_file_unref (mf);
  return bytes;
}

/* Refuse to replace a file that is marked read-only (even as root: the mode
 * bits say the owner does not want it changed) or a folder. *mode gets the
 * old file's permissions, -1 when there is no old file. */
static gboolean
check_target (const char *path, int *mode, GError **error)
{
  GStatBuf st;
  *mode = -1;
  if (g_lstat (path, &st) != 0)
    return errno == ENOENT ? TRUE : set_errno_error (error, errno, "stat", path);
  if (S_ISDIR (st.st_mode))
    return set_errno_error (error, EISDIR, "the target", path);
  if (!S_ISREG (st.st_mode))
    return TRUE; /* a symlink is replaced, not followed, as GLib does */
  if ((st.st_mode & 0222) == 0 || access (path, W_OK) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_ACCES,
                   "cannot write %s: the file is read-only", path);
      return FALSE;
    }
  *mode = (int) (st.st_mode & 07777);
  return TRUE;
}

typedef enum { SAVE_OK, SAVE_FAILED, SAVE_UNSUPPORTED } SaveResult;

#ifdef O_TMPFILE
/* data may be a file mapping nothing has read yet (an unchanged level's
 * bytes are the mapped source, wk_file_map): its page tables are filled in
 * one call here, not page by page by the kernel inside write(). Only a
 * hint: where the kernel cannot (before Linux 5.14), write() faults. */
static void
prefault (const guint8 *data, gsize size)
{
#ifdef MADV_POPULATE_READ
  long page = sysconf (_SC_PAGESIZE);
  if (page <= 0 || size == 0)
    return;
  guintptr start = (guintptr) data & ~(guintptr) (page - 1);
  (void) madvise ((void *) start, size + ((guintptr) data - start), MADV_POPULATE_READ);
#else
  (void) data, (void) size;
#endif
}

static gboolean
write_all (int fd, const guint8 *data, gsize size, int *saved_errno)
{
  prefault (data, size);
  while (size > 0)
    {
      ssize_t n = write (fd, data, MIN (size, (gsize) 1 << 30));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          *saved_errno = n < 0 ? errno : EIO;
          return FALSE;
        }
      data += n;
      size -= (gsize) n;
    }
  return TRUE;
}

/* Give the unnamed file fd a temporary name in dirfd. */
static gboolean
link_temp (int fd, int dirfd, const char *base, gchar **tmp_name,
           int *saved_errno)
{
  g_autofree gchar *proc = g_strdup_printf ("/proc/self/fd/%d", fd);
  for (int attempt = 0; attempt < 100; attempt++)
    {
      g_autofree gchar *name = g_strdup_printf (".%.200s.%08x.tmp", base,
                                                g_random_int ());
      /* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH on older kernels; the
       * /proc link works for everyone. */
      if (linkat (fd, "", dirfd, name, AT_EMPTY_PATH) == 0
          || (errno != EEXIST
              && linkat (AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW) == 0))
        {
          *tmp_name = g_steal_pointer (&name);
          return TRUE;
        }
      if (errno != EEXIST)
        break;
    }
  *saved_errno = errno;
  return FALSE;
}

/* Write into an unnamed O_TMPFILE in the target's folder, fsync it, link it
 * in under a temporary name, rename that over the target, fsync the folder.
 * Until the rename nothing is visible; a process killed before the link
 * leaves nothing at all (the kernel drops the unnamed file). */
static SaveResult
save_tmpfile (const char *path, const guint8 *data, gsize size, int mode,
              GError **error)
{
  g_autofree gchar *dir = g_path_get_dirname (path);
  g_autofree gchar *base = g_path_get_basename (path);
  int dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirfd < 0)
    {
      set_errno_error (error, errno, "open the folder", path);
      return SAVE_FAILED;
    }
  int fd = openat (dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC,
                   mode >= 0 ? (mode_t) mode : 0666);
  if (fd < 0)
    {
      int e = errno;
      close (dirfd);
      if (e == EOPNOTSUPP || e == EISDIR || e == EINVAL)
        return SAVE_UNSUPPORTED;
      set_errno_error (error, e, "create", path);
      return SAVE_FAILED;
    }
  int e = 0;
  g_autofree gchar *tmp_name = NULL;
  const char *step = "write";
  gboolean ok = write_all (fd, data, size, &e);
  if (ok && mode >= 0 && fchmod (fd, (mode_t) mode) != 0)
    ok = FALSE, e = errno, step = "set permissions";
  if (ok && fsync (fd) != 0)
    ok = FALSE, e = errno, step = "fsync";
  if (ok && !link_temp (fd, dirfd, base, &tmp_name, &e))
    {
      if (e == ENOENT || e == EPERM)
        {
          /* no /proc and no CAP_DAC_READ_SEARCH: the file cannot be
           * named; closing drops it, the fallback writes again */
          close (fd);
          close (dirfd);
          return SAVE_UNSUPPORTED;
        }
      ok = FALSE, step = "link the temporary file";
    }
  close (fd);
  if (ok && renameat (dirfd, tmp_name, dirfd, base) != 0)
    {
      ok = FALSE, e = errno, step = "rename";
      unlinkat (dirfd, tmp_name, 0);
    }
  /* The rename is done: a failing folder fsync (some file systems refuse
   * it) cannot undo it, so it is not reported. */
  if (ok)
    (void) fsync (dirfd);
  close (dirfd);
  if (!ok)
    {
      set_errno_error (error, e, step, path);
      return SAVE_FAILED;
    }
  return SAVE_OK;
}
#else
static SaveResult
save_tmpfile (const char *path, const guint8 *data, gsize size, int mode,
              GError **error)
{
  return SAVE_UNSUPPORTED;
}
#endif

gboolean
wk_file_save_atomic (const char *path, const guint8 *data, gsize size,
                     GError **error)
{
  int mode;
  if (!check_target (path, &mode, error))
    return FALSE;
  switch (save_tmpfile (path, data, size, mode, error))
    {
    case SAVE_OK: return TRUE;
    case SAVE_FAILED: return FALSE;
    case SAVE_UNSUPPORTED: break;
    }
  /* No O_TMPFILE here (old kernel, some file systems): GLib's named temp
   * file, fsync, rename. A process killed mid-write can leave that temp
   * file behind. In-memory sizes never exceed G_MAXSSIZE. */
  return g_file_set_contents_full (path, (const gchar *) data, (gssize) size,
                                   G_FILE_SET_CONTENTS_CONSISTENT,
                                   mode >= 0 ? mode : 0666, error);
}
