/* Reads the tuning files for a context, once, at the first call that needs parameters:
 * $BCHOL_TUNING_FILE ("off" reads none), else every *.json in $BCHOL_TUNING_DIR, else in
 * the shipped folder (the tuning folder of the installation bchol runs from, wherever it
 * was moved: install_dir.c; else the source tree's data/tuning). A
 * file that cannot be used, or a BCHOL_TUNING_FILE with nothing for this device, gives
 * one warning through the context's message channel, and the backend defaults apply; so
 * does a BCHOL_TUNING_DIR that is not a folder, and memory running out while loading. */
#include "core/file_read.h"
#include "core/core.h"
#include "tuning/tuning.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILE_BYTES (64u << 20)

#ifndef BCHOL_TUNING_SOURCE_DIR
#define BCHOL_TUNING_SOURCE_DIR ""
#endif

static char *read_text(const char *path, size_t *length, char *why, size_t why_size)
{
    char *text = NULL;
    bchol__read_file(path, 0, MAX_FILE_BYTES, &text, length, why, why_size);
    return text;
}

static int load_file(bchol_tuning *t, const char *path, char *why, size_t why_size)
{
    size_t length = 0;
    char *text = read_text(path, &length, why, why_size);
    if (!text) return -1;
    int bad = bchol__tuning_parse(t, text, length, path, why, why_size);
    free(text);
    return bad;
}

static int matching_sections(const bchol_tuning *t, const bchol_device_info *dev)
{
    int count = 0;
    for (int i = 0; i < t->nsections; i++) count += bchol__tuning_match(&t->sections[i], dev) >= 0;
    return count;
}

static void identity(const bchol_device_info *d, char *out, size_t size)
{
    snprintf(out, size, "%s/%s/%s (family %s)", d->vendor, *d->architecture ? d->architecture : "-",
             d->name, d->family);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* The warnings of one load, sent once the context's lock is released: one line each. */
#define MAX_WARNINGS 4
typedef struct {
    int count;
    char text[MAX_WARNINGS][1024];
} warnings;

static void warn(warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(warnings *w, const char *fmt, ...)
{
    if (w->count == MAX_WARNINGS) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->text[w->count++], sizeof w->text[0], fmt, ap);
    va_end(ap);
}

/* Every *.json of dir into t, in name order (as many as the folder holds); the first
 * unusable file is described in a warning, as is a listing cut short by memory. */
static void load_dir(bchol_tuning *t, const char *dir, warnings *w)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    int count = 0, cap = 0, skipped = 0, lost = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !has_suffix(e->d_name, ".json")) continue;
        if (count == cap) {
            char **more = cap < INT_MAX / 2 ? realloc(names, (size_t)(cap ? 2 * cap : 64) * sizeof *names) : NULL;
            if (!more) {
                lost++;
                continue;
            }
            names = more;
            cap = cap ? 2 * cap : 64;
        }
        if ((names[count] = strdup(e->d_name))) count++;
        else lost++;
    }
    closedir(d);
    if (lost)
        warn(w, "bchol: out of memory listing the tuning files in %s: %d of them not read", dir, lost);
    if (count) qsort(names, (size_t)count, sizeof names[0], cmp_name);
    char first[512] = "";
    for (int i = 0; i < count; i++) {
        char path[4096], why[400];
        int bad = snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= (int)sizeof path;
        if (bad) snprintf(why, sizeof why, "path too long");
        if (bad || load_file(t, path, why, sizeof why)) {
            if (!skipped++) snprintf(first, sizeof first, "%.100s: %.400s", path, why);
        }
        free(names[i]);
    }
    free(names);
    if (skipped)
        warn(w, "bchol: %d tuning file%s in %s could not be used and %s skipped (%s)", skipped,
             skipped > 1 ? "s" : "", dir, skipped > 1 ? "were" : "was", first);
}

/* The folder of tuning files when BCHOL_TUNING_FILE is unset: $BCHOL_TUNING_DIR, else the
 * installed one (install_dir.c), else the source tree's if it exists (into buffer). A BCHOL_TUNING_DIR that is not a folder gives a warning
 * and no folder: it replaces the shipped files, so none are read. */
static const char *tuning_dir(bchol_context *ctx, warnings *w, char *buffer, size_t size)
{
    const char *env = getenv("BCHOL_TUNING_DIR");
    if (env && *env) {
        DIR *d = opendir(env);
        if (d) {
            closedir(d);
            return env;
        }
        const int err = errno;
        warn(w, "bchol: BCHOL_TUNING_DIR=%s cannot be read as a folder (%s): no tuning files are read, "
             "the shipped ones neither; using the built-in defaults", env, strerror(err));
        snprintf(ctx->tuning_note, sizeof ctx->tuning_note, "BCHOL_TUNING_DIR=%s cannot be read as a folder (%s)",
                 env, strerror(err));
        return NULL;
    }
    if (bchol__installed_dir("tuning", buffer, size)) return buffer;
    DIR *d = *BCHOL_TUNING_SOURCE_DIR ? opendir(BCHOL_TUNING_SOURCE_DIR) : NULL;
    if (d) {
        closedir(d);
        return BCHOL_TUNING_SOURCE_DIR;
    }
    snprintf(ctx->tuning_note, sizeof ctx->tuning_note, "no tuning folder found");
    return NULL;
}

/* Fills ctx->tuning and ctx->tuning_note; warnings for the caller to send. */
static void load(bchol_context *ctx, warnings *w)
{
    char who[300], why[400];
    identity(&ctx->info, who, sizeof who);
    bchol_tuning *t = calloc(1, sizeof *t);
    if (!t) {
        warn(w, "bchol: out of memory for the tuning tables; using the built-in defaults");
        snprintf(ctx->tuning_note, sizeof ctx->tuning_note, "no memory for tuning tables");
        return;
    }
    const char *file = getenv("BCHOL_TUNING_FILE");
    if (file && (!strcmp(file, "off") || !strcmp(file, "none") || !strcmp(file, "0"))) {
        snprintf(ctx->tuning_note, sizeof ctx->tuning_note, "BCHOL_TUNING_FILE=%s", file);
    } else if (file && *file) {
        if (load_file(t, file, why, sizeof why)) {
            warn(w,
                 "bchol: tuning file %s (BCHOL_TUNING_FILE) could not be used: %s; using the "
                 "built-in defaults",
                 file, why);
            snprintf(ctx->tuning_note, sizeof ctx->tuning_note,
                     "tuning file %s could not be used: %s", file, why);
        } else if (!matching_sections(t, &ctx->info)) {
            char holds[200] = "no device sections";
            if (t->nsections)
                snprintf(holds, sizeof holds, "%d section%s, the first for %.40s/%.40s/%.60s", t->nsections,
                         t->nsections > 1 ? "s" : "", t->sections[0].vendor,
                         t->sections[0].architecture, t->sections[0].name);
            warn(w,
                 "bchol: tuning file %s (BCHOL_TUNING_FILE) has nothing for this device %s "
                 "(it holds %s); using the built-in defaults",
                 file, who, holds);
            snprintf(ctx->tuning_note, sizeof ctx->tuning_note,
                     "tuning file %s has nothing for %s", file, who);
        }
    } else {
        char installed[4096];
        const char *dir = tuning_dir(ctx, w, installed, sizeof installed);
        if (dir) {
            load_dir(t, dir, w);
            if (!matching_sections(t, &ctx->info))
                snprintf(ctx->tuning_note, sizeof ctx->tuning_note,
                         "no tuning file in %.180s is for %.300s", dir, who);
        }
    }
    if (!matching_sections(t, &ctx->info)) {
        bchol__tuning_free(t);
        free(t);
        t = NULL;
    }
    ctx->tuning = t;
}

const bchol_tuning *bchol__tuning_for(bchol_context *ctx)
{
    warnings w = {0};
    char defaults[sizeof ctx->defaults_warning] = "";
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->tuning_loaded) {
        ctx->tuning_loaded = 1;
        ctx->release_tuning = bchol__tuning_release;
        load(ctx, &w);
        /* a bad BCHOL_DEFAULTS found when the context was made goes out now as well, when
         * the caller has had the chance to set a handler (defaults.c) */
        memcpy(defaults, ctx->defaults_warning, sizeof defaults);
        ctx->defaults_warning[0] = 0;
    }
    const bchol_tuning *t = ctx->tuning;
    pthread_mutex_unlock(&ctx->lock);
    /* after the unlock: the message channel takes the lock itself */
    if (*defaults) bchol__warn(ctx, "%s", defaults);
    for (int i = 0; i < w.count; i++) bchol__warn(ctx, "%s", w.text[i]);
    return t;
}

void bchol__tuning_release(bchol_context *ctx)
{
    if (ctx->tuning) bchol__tuning_free(ctx->tuning);
    free(ctx->tuning);
    ctx->tuning = NULL;
    ctx->tuning_loaded = 0;
}
