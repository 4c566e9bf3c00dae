/* The bchol command's strict option reader (options.h). */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void opt_begin(opt_reader *r, const char *cmd, int argc, char **argv, const char *const *flags)
{
    r->cmd = cmd;
    r->argc = argc;
    r->argv = argv;
    r->i = 1;
    r->flags = flags;
    r->key = r->value = NULL;
    r->err = stderr;
}

/* Command-line text in a message: control and non-ASCII bytes as \xNN, so that every
 * message stays one line whatever the argument holds. */
static void put_text(FILE *f, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c < 32 || *c > 126 || *c == '\\') fprintf(f, "\\x%02x", *c);
        else fputc(*c, f);
}

static int is_flag(const opt_reader *r, const char *key)
{
    if (!strcmp(key, "--help") || !strcmp(key, "-h")) return 1;
    for (const char *const *f = r->flags; f && *f; f++)
        if (!strcmp(*f, key)) return 1;
    return 0;
}

int opt_next(opt_reader *r)
{
    r->key = r->value = NULL;
    if (r->i >= r->argc) return 0;
    const char *key = r->argv[r->i++];
    r->key = key;
    if (strncmp(key, "--", 2) && strcmp(key, "-h")) {
        fprintf(r->err, "bchol %s: \"", r->cmd);
        put_text(r->err, key);
        fprintf(r->err, "\" is not an option (options start with --)\n");
        return -1;
    }
    if (is_flag(r, key)) return 1;
    /* A value that is itself an option means the value is missing: "--explain needs a
     * value" came from a flag the reader did not know, taking the next option as value. */
    if (r->i >= r->argc || !strncmp(r->argv[r->i], "--", 2)) {
        fprintf(r->err, "bchol %s: ", r->cmd);
        put_text(r->err, key);
        fprintf(r->err, " needs a value\n");
        return -1;
    }
    r->value = r->argv[r->i++];
    return 1;
}

int opt_bad(const opt_reader *r, const char *why, ...)
{
    va_list ap;
    fprintf(r->err, "bchol %s: ", r->cmd);
    put_text(r->err, r->key ? r->key : "");
    if (r->value) {
        fprintf(r->err, " \"");
        put_text(r->err, r->value);
        fputc('"', r->err);
    }
    fprintf(r->err, ": ");
    va_start(ap, why);
    vfprintf(r->err, why, ap);
    va_end(ap);
    fputc('\n', r->err);
    return -1;
}

/* A whole decimal integer: optional '-', digits, nothing else; 0 or -1 (malformed) or -2
 * (beyond long long). */
static int whole(const char *text, long long *out)
{
    const char *p = text + (*text == '-');
    if (*p < '0' || *p > '9') return -1;
    for (const char *c = p; *c; c++)
        if (*c < '0' || *c > '9') return -1;
    char *end;
    errno = 0;
    *out = strtoll(text, &end, 10);
    return errno == ERANGE ? -2 : 0;
}

int opt_llong(const opt_reader *r, long long min, long long max, long long *out)
{
    long long v = 0;
    const int k = r->value ? whole(r->value, &v) : -1;
    if (k == -1) return opt_bad(r, "not a whole number");
    if (k == -2 || v < min || v > max)
        return opt_bad(r, "must be in [%lld, %lld]", min, max);
    *out = v;
    return 0;
}

int opt_int(const opt_reader *r, long long min, long long max, int *out)
{
    long long v = 0;
    if (opt_llong(r, min, max, &v)) return -1;
    *out = (int)v; /* callers' ranges lie within int */
    return 0;
}

int opt_u64(const opt_reader *r, uint64_t *out)
{
    const char *p = r->value ? r->value : "";
    if (*p < '0' || *p > '9') return opt_bad(r, "not a whole number >= 0");
    for (const char *c = p; *c; c++)
        if (*c < '0' || *c > '9') return opt_bad(r, "not a whole number >= 0");
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 10);
    if (errno == ERANGE) return opt_bad(r, "must be below 2^64");
    *out = (uint64_t)v;
    return 0;
}

int opt_double(const opt_reader *r, double min, double max, double *out)
{
    char *end;
    if (!r->value || !*r->value) return opt_bad(r, "not a number");
    errno = 0;
    double v = strtod(r->value, &end);
    if (*end || end == r->value || isspace((unsigned char)r->value[0]))
        return opt_bad(r, "not a number");
    if (!isfinite(v) || errno == ERANGE || v < min || v > max)
        return opt_bad(r, "must be in [%g, %g]", min, max);
    *out = v;
    return 0;
}

int opt_word(const opt_reader *r, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (r->value && !strcmp(r->value, words[i])) return i;
    char list[256];
    size_t at = 0;
    list[0] = 0;
    for (int i = 0; words[i] && at < sizeof list; i++) {
        int k = snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", words[i]);
        at += k > 0 ? (size_t)k : 0;
    }
    return opt_bad(r, "must be one of %s", list);
}

int opt_word_list(const opt_reader *r, const char *const *words, int *out, int max_count,
                  int *count)
{
    int c = 0;
    for (const char *t = r->value ? r->value : "";;) {
        const size_t len = strcspn(t, ",");
        int found = -1;
        for (int i = 0; words[i] && found < 0; i++)
            if (strlen(words[i]) == len && !strncmp(t, words[i], len)) found = i;
        if (found < 0 || c == max_count) {
            char list[256];
            size_t at = 0;
            list[0] = 0;
            for (int i = 0; words[i] && at < sizeof list; i++) {
                int k = snprintf(list + at, sizeof list - at, "%s%s", i ? "," : "", words[i]);
                at += k > 0 ? (size_t)k : 0;
            }
            return opt_bad(r, "takes a comma list of up to %d of %s", max_count, list);
        }
        out[c++] = found;
        if (!t[len]) break;
        t += len + 1;
    }
    *count = c;
    return 0;
}

int opt_char(const opt_reader *r, const char *allowed, char *out)
{
    if (r->value && r->value[0] && !r->value[1] && strchr(allowed, r->value[0])) {
        *out = r->value[0];
        return 0;
    }
    char list[64];
    size_t at = 0;
    for (const char *c = allowed; *c && at + 4 < sizeof list; c++) {
        if (c != allowed) list[at++] = '|';
        list[at++] = *c;
    }
    list[at] = 0;
    return opt_bad(r, "must be %s", list);
}

/* One number of a list, [*p, up to a stop character), into *v: 0, or -1 (malformed) or
 * -2 (beyond long long). Moves *p past it. */
static int list_number(const char **p, long long *v)
{
    size_t n = 0;
    while ((*p)[n] && (*p)[n] != ',' && (*p)[n] != ':') n++;
    char *buf = malloc(n + 1);
    if (!buf) return -1;
    memcpy(buf, *p, n);
    buf[n] = 0;
    *p += n;
    const int k = whole(buf, v);
    free(buf);
    return k;
}

int opt_parse_list(const char *text, long long min, long long max, int *out, int max_count,
                   const char **why)
{
    long long a[3];
    int parts = 0, k;
    const char *p = text;
    *why = "not a list of sizes (a,b,c | a:b | a:b:step)";
    if (strchr(text, ':')) { /* a range: parsed once, its length known before it is made */
        for (;;) { /* "a:b:c:" ended with a separator and passed: stop before it */
            if ((k = list_number(&p, &a[parts++]))) {
                if (k == -2) *why = "a number is out of range";
                return -1;
            }
            if (*p != ':' || parts == 3) break;
            p++;
        }
        if (*p || parts < 2) return -1;
        if (a[0] < min || a[1] > max || a[1] < a[0]) {
            *why = a[0] < min   ? "the range starts below the option's bound"
                   : a[1] > max ? "the range ends above the option's bound"
                                : "the range runs downwards";
            return -1;
        }
        uint64_t count = 0;
        if (parts == 3) {
            if (a[2] <= 0) {
                *why = "the step must be >= 1";
                return -1;
            }
            count = (uint64_t)(a[1] - a[0]) / (uint64_t)a[2] + 1;
        } else {
            if (a[0] <= 0) {
                *why = "a doubling range must start at 1 or more";
                return -1;
            }
            for (long long v = a[0]; v <= a[1]; v *= 2) count++; /* a[1] <= max: no overflow */
        }
        if (count > (uint64_t)max_count) {
            *why = "the range has more values than the option takes";
            return -1;
        }
        long long v = a[0];
        for (int c = 0; c < (int)count; c++) { /* never past a[1]: no overflow */
            out[c] = (int)v;
            if (c + 1 < (int)count) v = parts == 3 ? v + a[2] : v * 2;
        }
        return (int)count;
    }
    int count = 0;
    for (;;) {
        long long v;
        if ((k = list_number(&p, &v))) {
            if (k == -2) *why = "a number is out of range";
            return -1;
        }
        if (v < min || v > max) {
            *why = "a size is out of the option's bounds";
            return -1;
        }
        if (count == max_count) {
            *why = "the list has more values than the option takes";
            return -1;
        }
        out[count++] = (int)v;
        if (!*p) return count;
        if (*p != ',') return -1;
        p++;
    }
}

int opt_sizes(const opt_reader *r, long long min, long long max, int *out, int max_count,
              int *count)
{
    const char *why;
    int c = r->value ? opt_parse_list(r->value, min, max, out, max_count, &why) : -1;
    if (c < 0) return opt_bad(r, "%s; each value in [%lld, %lld], at most %d of them", why, min,
                              max, max_count);
    *count = c;
    return 0;
}
