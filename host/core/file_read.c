/* Reading a file whose name the user controls (BCHOL_TUNING_FILE, BCHOL_TUNING_DIR,
 * BCHOL_KERNEL_DIR, binary cache entries): the one place that opens them. Opened without
 * blocking (a FIFO would wait for a writer forever) and checked on the opened descriptor,
 * so that what is read is what was checked: a regular file, no larger than the caller's
 * cap, and for BCHOL_READ_PRIVATE owned by this user and writable by no one else. */
#include "core/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bchol__private_mode(const struct stat *st, char *why, size_t why_size)
{
    if (st->st_uid != geteuid()) {
        snprintf(why, why_size, "is owned by uid %ld, not by this user (%ld)", (long)st->st_uid,
                 (long)geteuid());
        return -1;
    }
    if (st->st_mode & (S_IWGRP | S_IWOTH)) {
        snprintf(why, why_size, "is writable by %s (mode %03o)",
                 st->st_mode & S_IWOTH ? "others" : "its group", (unsigned)(st->st_mode & 0777));
        return -1;
    }
    return 0;
}

int bchol__read_file_at(int dirfd, const char *path, unsigned flags, size_t max, char **data,
                        size_t *size, char *why, size_t why_size)
{
    *data = NULL;
    *size = 0;
    int oflags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (flags & BCHOL_READ_NOFOLLOW ? O_NOFOLLOW : 0);
    int fd = openat(dirfd, path, oflags);
    if (fd < 0) {
        int e = errno;
        snprintf(why, why_size, "cannot be opened (%s)",
                 e == ELOOP && (flags & BCHOL_READ_NOFOLLOW) ? "a symbolic link" : strerror(e));
        if (e == ENOENT) return BCHOL_READ_MISSING;
        return e == ELOOP && (flags & BCHOL_READ_NOFOLLOW) ? BCHOL_READ_REFUSED : BCHOL_READ_FAILED;
    }
    struct stat st;
    char *buf = NULL;
    int result = BCHOL_READ_FAILED;
    if (fstat(fd, &st)) {
        snprintf(why, why_size, "cannot be read (%s)", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "cannot be read: not a regular file");
        result = BCHOL_READ_REFUSED;
    } else if ((flags & BCHOL_READ_PRIVATE) && bchol__private_mode(&st, why, why_size)) {
        result = BCHOL_READ_REFUSED;
    } else if ((uintmax_t)st.st_size > max) {
        snprintf(why, why_size, "is larger than %zu MiB", max >> 20);
    } else if (!(buf = malloc((size_t)st.st_size + 1))) {
        snprintf(why, why_size, "out of memory");
    } else {
        /* A file that shrinks while read is cut where it ends; one that grows, at the size
         * it had: callers that care check a length of their own. */
        size_t want = (size_t)st.st_size, got = 0;
        ssize_t r = 1;
        while (got < want && (r = read(fd, buf + got, want - got)) != 0) {
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) break;
            got += (size_t)r;
        }
        if (r < 0) {
            snprintf(why, why_size, "cannot be read (%s)", strerror(errno));
            free(buf);
            buf = NULL;
        } else {
            buf[got] = 0;
            *data = buf;
            *size = got;
            result = BCHOL_READ_OK;
        }
    }
    close(fd);
    return result;
}

int bchol__read_file(const char *path, unsigned flags, size_t max, char **data, size_t *size,
                     char *why, size_t why_size)
{
    return bchol__read_file_at(AT_FDCWD, path, flags, max, data, size, why, why_size);
}
