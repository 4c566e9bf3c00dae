/* Where the installation this copy of bchol runs from keeps its data (share/bchol: the
 * shipped tuning files), wherever its prefix was moved after `cmake --install`:
 * - a program that links the static library through find_package(bchol) is handed the
 *   folder by bcholConfig.cmake (bchol_installed_data_dir, in a source of the program's);
 * - else the folder beside the file this code was loaded from: libbchol.so in the
 *   installed libdir (dladdr), or for the static library the program, if it is installed
 *   in the bindir; the relative paths are the install layout's (CMakeLists.txt);
 * - else the configure-time prefix's folder. */
#define _GNU_SOURCE /* dladdr */
#include "core/core.h"

#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BCHOL_INSTALL_DATA_DIR
#define BCHOL_INSTALL_DATA_DIR ""
#endif
#ifndef BCHOL_LIBDIR_TO_DATA
#define BCHOL_LIBDIR_TO_DATA "../share/bchol"
#endif
#ifndef BCHOL_BINDIR_TO_DATA
#define BCHOL_BINDIR_TO_DATA "../share/bchol"
#endif

#ifndef BCHOL_SHARED_LIBRARY
/* Defined by the program when bcholConfig.cmake gave it the source; else NULL. */
extern const char bchol_installed_data_dir[] __attribute__((weak));
#endif

/* out = the real path of data/sub if that is a folder; 0 if so. */
static int under(const char *data, const char *sub, char *out, size_t size)
{
    char path[PATH_MAX + 512], real[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", data, sub) >= (int)sizeof path) return -1;
    DIR *d = opendir(path);
    if (!d) return -1;
    closedir(d);
    if (!realpath(path, real) || strlen(real) >= size) return -1;
    memcpy(out, real, strlen(real) + 1);
    return 0;
}

/* As under, with the data folder at relative from the folder of file. */
static int beside(const char *file, const char *relative, const char *sub, char *out, size_t size)
{
    char real[PATH_MAX], data[PATH_MAX + 512];
    if (!realpath(file, real)) return -1;
    char *slash = strrchr(real, '/');
    if (!slash) return -1;
    *slash = 0;
    if (snprintf(data, sizeof data, "%s/%s", real, relative) >= (int)sizeof data) return -1;
    return under(data, sub, out, size);
}

const char *bchol__installed_dir(const char *sub, char *out, size_t size)
{
#ifdef BCHOL_SHARED_LIBRARY
    Dl_info self;
    if (dladdr((void *)bchol__installed_dir, &self) && self.dli_fname &&
        !beside(self.dli_fname, BCHOL_LIBDIR_TO_DATA, sub, out, size))
        return out;
#else
    if (bchol_installed_data_dir && !under(bchol_installed_data_dir, sub, out, size)) return out;
    char program[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
    if (length > 0) {
        program[length] = 0;
        if (!beside(program, BCHOL_BINDIR_TO_DATA, sub, out, size)) return out;
    }
#endif
    if (*BCHOL_INSTALL_DATA_DIR && !under(BCHOL_INSTALL_DATA_DIR, sub, out, size)) return out;
    return NULL;
}
