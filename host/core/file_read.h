/* Reading files whose names the user controls (file_read.c). No OpenCL here: the fuzz
 * targets and table tests compile it alone. */
#ifndef BCHOL_FILE_READ_H
#define BCHOL_FILE_READ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* flags of bchol__read_file */
#define BCHOL_READ_NOFOLLOW 1u /* a symbolic link as the last component is refused */
#define BCHOL_READ_PRIVATE 2u  /* refused unless owned by this user and writable by no other */

/* results: 0 read; otherwise nothing is returned and why says what happened */
#define BCHOL_READ_OK 0
#define BCHOL_READ_MISSING 1 /* no such file */
#define BCHOL_READ_FAILED 2  /* could not be opened or read, too large, out of memory */
#define BCHOL_READ_REFUSED 3 /* not a regular file, (NOFOLLOW) a link, (PRIVATE) not the user's alone */

/*
 * The whole of the file at path (relative to the folder dirfd, or AT_FDCWD), read without
 * ever blocking: opened with O_NONBLOCK, then fstat of the opened descriptor must show a
 * regular file of at most max bytes. *data (malloc'd, NUL-terminated, for the caller to
 * free) and *size on success; why (if not) a short reason to follow the file's name.
 */
int bchol__read_file_at(int dirfd, const char *path, unsigned flags, size_t max, char **data,
                        size_t *size, char *why, size_t why_size);
int bchol__read_file(const char *path, unsigned flags, size_t max, char **data, size_t *size,
                     char *why, size_t why_size);

/* 0 if st is owned by the effective user and not writable by group or others; else -1 and
 * why. The rule for the binary cache's folder and entries. */
int bchol__private_mode(const struct stat *st, char *why, size_t why_size);

#endif
