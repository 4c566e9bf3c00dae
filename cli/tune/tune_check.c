/* The checks that the tuner's inputs share: a value of the command line (text) and the same
 * value read from a tuning file (a JSON number) pass the same strict rule (an integer in
 * range, written as one), and a file's records are checked before anything computes with
 * them. A resumed file's "tuner" settings once went around the command line's checks
 * (reps: -1 crashed, reps: 0 read past a buffer), and a record's n of 1e300 reached a
 * double-to-int conversion and, as INT_MAX, a 32 GiB allocation. */
#include "tune.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tune_text_int(const char *text, long long lo, long long hi, long long *out)
{
    /* digits with an optional sign, nothing else: no blanks, no "1.5", no "4x" */
    const char *p = text + (*text == '-' || *text == '+');
    if (*p < '0' || *p > '9') return -1;
    errno = 0;
    char *end;
    const long long v = strtoll(text, &end, 10);
    if (*end || errno == ERANGE || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int tune_text_real(const char *text, double *out)
{
    if (!*text || *text == ' ' || *text == '\t') return -1;
    errno = 0;
    char *end;
    const double v = strtod(text, &end);
    if (*end || errno == ERANGE || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

int tune_json_int(const cJSON *v, long long lo, long long hi, long long *out)
{
    if (!cJSON_IsNumber(v)) return -1;
    const double d = v->valuedouble;
    /* compared as doubles before any conversion: 1e300 is out of range, not undefined */
    if (!isfinite(d) || d != floor(d) || d < (double)lo || d > (double)hi) return -1;
    *out = (long long)d;
    return 0;
}

void tune_json_text(const cJSON *v, char *out, size_t size)
{
    if (cJSON_IsString(v)) snprintf(out, size, "%s", v->valuestring);
    else if (cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble == floor(v->valuedouble) &&
             fabs(v->valuedouble) < 1e18)
        snprintf(out, size, "%.0f", v->valuedouble);
    else if (cJSON_IsNumber(v)) snprintf(out, size, "%.17g", v->valuedouble);
    else {
        char *text = cJSON_PrintUnformatted(v);
        snprintf(out, size, "%s", text ? text : "?");
        free(text);
    }
}

/* One record of "tried" or "chosen": its identity and the numbers computed with. */
static int check_record(const cJSON *r, const char *where, char *why, size_t size)
{
    static const char *const times[] = {"ms", "ms_median", "ms_min", "ms_max", "confirm_ms", "default_ms",
                                        "seconds", "build_seconds"};
    char text[64];
    long long x;
    if (!cJSON_IsObject(r)) {
        snprintf(why, size, "%s: expected an object", where);
        return -1;
    }
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(r, "precision"), *v = cJSON_GetObjectItemCaseSensitive(r, "variant"),
                *n = cJSON_GetObjectItemCaseSensitive(r, "n"), *nrhs = cJSON_GetObjectItemCaseSensitive(r, "nrhs"),
                *params = cJSON_GetObjectItemCaseSensitive(r, "params"),
                *batch = cJSON_GetObjectItemCaseSensitive(r, "batch");
    if (!cJSON_IsString(p) || (strcmp(p->valuestring, "s") && strcmp(p->valuestring, "d"))) {
        snprintf(why, size, "%s.precision: expected \"s\" or \"d\"", where);
        return -1;
    }
    if (!cJSON_IsString(v) || !*v->valuestring) {
        snprintf(why, size, "%s.variant: expected a variant's name", where);
        return -1;
    }
    /* the sizes and right-hand sides the command line takes (--n, --nrhs) */
    if (tune_json_int(n, 1, TUNE_MAX_N, &x)) {
        tune_json_text(n, text, sizeof text);
        snprintf(why, size, "%s.n = %s: expected an integer in 1..%d (as --n)", where, text, TUNE_MAX_N);
        return -1;
    }
    if (nrhs && tune_json_int(nrhs, 1, TUNE_MAX_N, &x)) {
        tune_json_text(nrhs, text, sizeof text);
        snprintf(why, size, "%s.nrhs = %s: expected an integer in 1..%d (as --nrhs)", where, text, TUNE_MAX_N);
        return -1;
    }
    if (batch && tune_json_int(batch, 1, TUNE_MAX_BATCH, &x)) {
        tune_json_text(batch, text, sizeof text);
        snprintf(why, size, "%s.batch = %s: expected an integer in 1..%d (as --batch)", where, text, TUNE_MAX_BATCH);
        return -1;
    }
    if (params && !cJSON_IsObject(params)) {
        snprintf(why, size, "%s.params: expected an object", where);
        return -1;
    }
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(r, times[i]);
        if (t && (!cJSON_IsNumber(t) || !isfinite(t->valuedouble) || t->valuedouble < 0)) {
            tune_json_text(t, text, sizeof text);
            snprintf(why, size, "%s.%s = %s: expected a number >= 0", where, times[i], text);
            return -1;
        }
    }
    const cJSON *to = cJSON_GetObjectItemCaseSensitive(r, "between_to");
    if (to && tune_json_int(to, (long long)n->valuedouble + 1, TUNE_MAX_N, &x)) {
        tune_json_text(to, text, sizeof text);
        snprintf(why, size, "%s.between_to = %s: expected an integer in n + 1..%d", where, text, TUNE_MAX_N);
        return -1;
    }
    return 0;
}

int tune_records_check(const cJSON *root, const char *path, char *why, size_t size)
{
    static const char *const lists[] = {"tried", "chosen"};
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(root, "devices"), *s;
    int d = 0;
    cJSON_ArrayForEach(s, devices)
    {
        for (int l = 0; l < 2; l++) {
            const cJSON *list = cJSON_GetObjectItemCaseSensitive(s, lists[l]), *r;
            if (!list) continue;
            char where[160];
            if (!cJSON_IsArray(list)) {
                snprintf(why, size, "%s: devices[%d].%s: expected an array", path, d, lists[l]);
                return -1;
            }
            int k = 0;
            cJSON_ArrayForEach(r, list)
            {
                snprintf(where, sizeof where, "devices[%d].%s[%d]", d, lists[l], k++);
                char fault[400];
                if (check_record(r, where, fault, sizeof fault)) {
                    snprintf(why, size, "%s: %s", path, fault);
                    return -1;
                }
            }
        }
        d++;
    }
    return 0;
}
