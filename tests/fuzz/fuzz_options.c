/* libFuzzer target: the bchol command's option reader (util/options.c), which every
 * subcommand parses its options with. The input is an argument list (NUL-separated
 * words); each option is read with the kind of value a subcommand gives it, and an
 * oracle written apart from the reader decides whether the value is good:
 *   - good: the reader accepts it and stores the value the oracle computed;
 *   - bad: the reader refuses it with exactly one line "bchol fuzz: <option>..." and
 *     nothing stored.
 * No OpenCL: nothing to save of PoCL's signal handlers (fuzz_signals.h). */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 24
#define MAX_SIZES 256

static void fail(const char *what, const char *key, const char *value)
{
    fprintf(stderr, "fuzz_options: %s (option \"%s\", value \"%s\")\n", what, key ? key : "",
            value ? value : "(none)");
    abort();
}

/* ---- the oracle: the grammar of options.h, written without the reader's code ---------- */

/* A whole decimal number in [min, max]: optional '-', digits only. */
static int oracle_number(const char *t, long long min, long long max, long long *out)
{
    size_t i = t[0] == '-';
    if (!t[i]) return 0;
    for (size_t k = i; t[k]; k++)
        if (t[k] < '0' || t[k] > '9') return 0;
    /* compare as decimal text: beyond 19 significant digits is beyond long long */
    while (t[i] == '0' && t[i + 1]) i++;
    if (strlen(t + i) > 19) return 0;
    errno = 0;
    long long v = strtoll(t, NULL, 10);
    if (errno == ERANGE || v < min || v > max) return 0;
    *out = v;
    return 1;
}

/* A size list of options.h: its values in out, or -1. */
static int oracle_sizes(const char *t, long long min, long long max, int *out, int cap)
{
    char buf[128];
    long long v[3];
    if (strlen(t) >= sizeof buf) return -1; /* the oracle's own limit: see the caller */
    strcpy(buf, t);
    int colons = 0, commas = 0;
    for (char *c = buf; *c; c++) colons += *c == ':', commas += *c == ',';
    if (colons && (commas || colons > 2)) return -1;
    if (colons) {
        char *part = buf;
        for (int k = 0; k <= colons; k++) {
            char *end = strchr(part, ':');
            if (end) *end = 0;
            if (!oracle_number(part, LLONG_MIN, LLONG_MAX, &v[k])) return -1;
            part = end ? end + 1 : part;
        }
        if (v[0] < min || v[1] > max || v[1] < v[0]) return -1;
        int count = 0;
        if (colons == 2) {
            if (v[2] < 1) return -1;
            for (long long x = v[0]; x <= v[1]; x += v[2]) {
                if (count == cap) return -1;
                out[count++] = (int)x;
                if (v[2] > v[1] - x) break;
            }
        } else {
            if (v[0] < 1) return -1;
            for (long long x = v[0]; x <= v[1]; x *= 2) {
                if (count == cap) return -1;
                out[count++] = (int)x;
            }
        }
        return count;
    }
    int count = 0;
    char *part = buf;
    for (;;) {
        char *end = strchr(part, ',');
        if (end) *end = 0;
        long long x;
        if (!oracle_number(part, min, max, &x) || count == cap) return -1;
        out[count++] = (int)x;
        if (!end) return count;
        part = end + 1;
    }
}

/* ---- one argument list ------------------------------------------------------------------ */

static const char *const flags[] = {"--explain", "--solve", NULL};
static const char *const shapes[] = {"fixed", "shrink", NULL};
static const char *const orders[] = {"default", "index", "steps", NULL};

/* Reads the current option's value; returns whether the reader accepted it, after
 * checking the reader against the oracle. */
static int read_value(opt_reader *r)
{
    const char *k = r->key, *v = r->value;
    if (!strcmp(k, "--n") || !strcmp(k, "--nrhs")) {
        int got[MAX_SIZES], want[MAX_SIZES], count = -7;
        const long long max = k[3] == 'r' ? 4096 : 46340;
        const int ok = !opt_sizes(r, 1, max, got, MAX_SIZES, &count);
        if (strlen(v) >= 128) return ok; /* beyond the oracle's buffer: no crash is the check */
        const int c = oracle_sizes(v, 1, max, want, MAX_SIZES);
        if (ok != (c >= 0)) fail(ok ? "list accepted, oracle refuses" : "list refused, oracle accepts", k, v);
        if (ok && (count != c || memcmp(got, want, (size_t)c * sizeof(int))))
            fail("list values differ from the oracle's", k, v);
        if (!ok && count != -7) fail("refused list stored a count", k, v);
        return ok;
    }
    if (!strcmp(k, "--batch") || !strcmp(k, "--reps")) {
        const long long min = 1, max = k[2] == 'b' ? 1LL << 40 : 10000;
        long long got = -7, want = 0;
        const int ok = !opt_llong(r, min, max, &got), oracle = oracle_number(v, min, max, &want);
        if (ok != oracle) fail(ok ? "number accepted, oracle refuses" : "number refused, oracle accepts", k, v);
        if (ok ? got != want : got != -7) fail("stored value differs", k, v);
        return ok;
    }
    if (!strcmp(k, "--seed")) {
        uint64_t got = 7;
        const int ok = !opt_u64(r, &got);
        long long x;
        /* in long long range the oracle knows the answer; above it only the digits */
        int digits = v[0] != 0;
        for (const char *c = v; *c; c++) digits &= *c >= '0' && *c <= '9';
        if (!digits && ok) fail("seed accepted without being digits", k, v);
        if (digits && oracle_number(v, 0, LLONG_MAX, &x) && (!ok || got != (uint64_t)x))
            fail("seed refused or wrong", k, v);
        return ok;
    }
    if (!strcmp(k, "--ratio")) {
        double got = -7, want;
        const int ok = !opt_double(r, 0, 1, &got);
        char *end;
        errno = 0;
        want = v[0] && !(v[0] == ' ' || (v[0] >= '\t' && v[0] <= '\r')) ? strtod(v, &end) : NAN;
        const int oracle = !isnan(want) && !*end && end != v && errno != ERANGE && want >= 0 &&
                           want <= 1;
        if (ok != oracle) fail(ok ? "number accepted, oracle refuses" : "number refused, oracle accepts", k, v);
        if (ok && got != want) fail("stored value differs", k, v);
        return ok;
    }
    if (!strcmp(k, "--precision")) {
        char got = 'x';
        const int ok = !opt_char(r, "sd", &got);
        const int oracle = (v[0] == 's' || v[0] == 'd') && !v[1];
        if (ok != oracle || (ok && got != v[0])) fail("precision differs from the oracle", k, v);
        return ok;
    }
    if (!strcmp(k, "--shape")) {
        const int w = opt_word(r, shapes);
        const int want = !strcmp(v, "fixed") ? 0 : !strcmp(v, "shrink") ? 1 : -1;
        if (w != want) fail("word differs from the oracle", k, v);
        return w >= 0;
    }
    if (!strcmp(k, "--order")) {
        int got[3], count = -7, want = 0;
        const int ok = !opt_word_list(r, orders, got, 3, &count);
        /* oracle: split at commas, every part a known word, at most three */
        int good = 1;
        for (const char *t = v;; want++) {
            const char *end = strchr(t, ',');
            const size_t len = end ? (size_t)(end - t) : strlen(t);
            int found = 0;
            for (int i = 0; orders[i]; i++)
                found |= strlen(orders[i]) == len && !strncmp(orders[i], t, len);
            good &= found && want < 3;
            if (!end) {
                want++;
                break;
            }
            t = end + 1;
        }
        if (ok != good || (ok && count != want)) fail("word list differs from the oracle", k, v);
        return ok;
    }
    opt_bad(r, "unknown option");
    return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* NUL-separated words; argv[0] is the subcommand's name, as the reader expects */
    char text[2048];
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    if (size >= sizeof text) size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = 0;
    argv[argc++] = "fuzz";
    for (size_t at = 0; at <= size && argc < MAX_ARGS; at += strlen(text + at) + 1)
        argv[argc++] = text + at;
    argv[argc] = NULL;

    char *msg = NULL;
    size_t msg_size = 0;
    FILE *err = open_memstream(&msg, &msg_size);
    if (!err) return 0;
    opt_reader r;
    opt_begin(&r, "fuzz", argc, argv, flags);
    r.err = err;
    int more, ok = 1, steps = 0;
    while (ok && (more = opt_next(&r)) > 0) {
        steps++;
        const int flag = !strcmp(r.key, "--explain") || !strcmp(r.key, "--solve") ||
                         !strcmp(r.key, "--help") || !strcmp(r.key, "-h");
        if (flag != !r.value) fail("a flag took a value, or an option none", r.key, r.value);
        if (r.value && !strncmp(r.value, "--", 2)) fail("an option taken as a value", r.key, r.value);
        if (!flag) ok = read_value(&r);
    }
    if (steps > argc) fail("more options than arguments", NULL, NULL);
    fflush(err);
    /* a refusal is one line naming the command and the option; success says nothing */
    const int refused = !ok || more < 0;
    size_t lines = 0;
    for (size_t i = 0; i < msg_size; i++) lines += msg[i] == '\n';
    if (refused != (lines == 1) || (!refused && msg_size))
        fail(refused ? "a refusal is not one line" : "an accepted list printed something", r.key,
             r.value);
    if (refused && (strncmp(msg, "bchol fuzz: ", 12) || lines != 1 || msg[msg_size - 1] != '\n'))
        fail("the message does not start with the command or is not one line", r.key, r.value);
    fclose(err);
    free(msg);
    return 0;
}
