/* The tuner's output file as a shared place: one writer at a time (a lock file beside it,
 * OUTPUT.lock, that names its holder), found writable before the sweep starts, and rewritten
 * through a temporary file that no one else can plant (created exclusively, with a random
 * name, in the output's own folder, so that the rename is atomic and follows no link).
 * Two tuners on one output each rewrote the whole file from their own document, so the
 * later save kept only its own records; and the temporary OUTPUT.tmp.PID, a name anyone
 * could guess, was opened through a symbolic link planted there. */
#include "tune.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder of path ("." for a bare name) and its last component. */
static void split(const char *path, char *dir, size_t dsize, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dsize, ".");
        *base = path;
    } else {
        snprintf(dir, dsize, "%.*s", slash == path ? 1 : (int)(slash - path), path);
        *base = slash + 1;
    }
}

/* The lock this process holds (one output per process), dropped at exit. */
static struct {
    int fd; /* -1: none */
    char path[4200];
} held_lock = {-1, ""};

void tune_output_unlock(void)
{
    if (held_lock.fd < 0) return;
    /* unlinked while still locked: whoever opened it meanwhile finds its name gone (below) */
    unlink(held_lock.path);
    close(held_lock.fd);
    held_lock.fd = -1;
}

/* Locks the lock file once: 0; 1 if its name was removed or replaced while we locked it
 * (a holder's exit unlinks it: lock the new one); -1 with why, *held = 1 if another
 * process holds it. */
static int lock_once(const char *output, const char *path, int *held, int *out_fd, char *why, size_t size)
{
    /* O_NOFOLLOW: a link planted under that name is refused, not written through */
    const int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, size, "%s: cannot make the lock file %s (%s)", output, path, strerror(errno));
        return -1;
    }
    struct stat st, now;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        snprintf(why, size, "%s: its lock file %s is not a regular file", output, path);
        close(fd);
        return -1;
    }
    /* fcntl locks end with the process, however it ends: a killed tuner's file stays
     * behind, unlocked, and the next tuner takes it over */
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(fd, F_SETLK, &fl)) {
        const int err = errno;
        if (err != EACCES && err != EAGAIN) {
            snprintf(why, size, "%s: cannot lock %s (%s)", output, path, strerror(err));
            close(fd);
            return -1;
        }
        /* who holds it: the lock's owner, else the pid it wrote there */
        long pid = 0;
        struct flock q = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        if (!fcntl(fd, F_GETLK, &q) && q.l_type != F_UNLCK) pid = (long)q.l_pid;
        char text[32] = "";
        const ssize_t got = pread(fd, text, sizeof text - 1, 0);
        if (!pid && got > 0) pid = strtol(text, NULL, 10);
        close(fd);
        *held = 1;
        snprintf(why, size,
                 "%s is being written by another bchol tune (pid %ld, which holds %s): wait for it to "
                 "end, or choose another --output",
                 output, pid, path);
        return -1;
    }
    if (lstat(path, &now) || now.st_ino != st.st_ino || now.st_dev != st.st_dev) {
        close(fd);
        return 1;
    }
    *out_fd = fd;
    return 0;
}

int tune_output_lock(const char *output, int *held, char *why, size_t size)
{
    *held = 0;
    if (held_lock.fd >= 0) {
        snprintf(why, size, "%s: this process already holds %s", output, held_lock.path);
        return -1;
    }
    char path[sizeof held_lock.path];
    snprintf(path, sizeof path, "%s.lock", output);
    int fd = -1, rc = 1;
    for (int tries = 0; rc == 1 && tries < 100; tries++) rc = lock_once(output, path, held, &fd, why, size);
    if (rc == 1) snprintf(why, size, "%s: its lock file %s keeps changing", output, path);
    if (rc) return -1;
    /* the pid for whoever finds the lock taken, where F_GETLK cannot say (another host) */
    char text[32];
    const int len = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    const int noted = ftruncate(fd, 0) == 0 && pwrite(fd, text, (size_t)len, 0) == len;
    (void)noted;
    held_lock.fd = fd;
    snprintf(held_lock.path, sizeof held_lock.path, "%s", path);
    static int registered;
    if (!registered) registered = atexit(tune_output_unlock) == 0;
    return 0;
}

int tune_output_temp(const char *output, char *tmp, size_t size)
{
    char dir[4096];
    const char *base;
    split(output, dir, sizeof dir, &base);
    if (snprintf(tmp, size, "%s/.%s.tmp.XXXXXX", dir, base) >= (int)size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    /* mkstemp: O_CREAT | O_EXCL (no existing name, no link followed), mode 0600 */
    const int fd = mkstemp(tmp);
    if (fd < 0) return -1;
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    /* the finished file gets the output's mode, or a new file's under the umask */
    struct stat st;
    mode_t mode;
    if (!stat(output, &st) && S_ISREG(st.st_mode)) {
        mode = st.st_mode & 0777;
    } else {
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(fd, mode)) {
        const int err = errno;
        close(fd);
        unlink(tmp);
        errno = err;
        return -1;
    }
    return fd;
}

int tune_output_writable(const char *output, char *why, size_t size)
{
    struct stat st;
    if (!lstat(output, &st) && S_ISDIR(st.st_mode)) {
        snprintf(why, size, "%s is a folder, not a file", output);
        return -1;
    }
    char tmp[4300];
    const int fd = tune_output_temp(output, tmp, sizeof tmp);
    if (fd < 0) {
        char dir[4096];
        const char *base;
        split(output, dir, sizeof dir, &base);
        snprintf(why, size, "%s cannot be written: no new file can be made in %s (%s)", output, dir, strerror(errno));
        return -1;
    }
    close(fd);
    unlink(tmp);
    return 0;
}
