/*
 * The bchol command's options, read strictly and in one way for every subcommand: each
 * option is "--name value" or a flag the subcommand names; numbers are whole decimal text
 * within the option's range (no overflow, no trailing characters), words one of a fixed
 * set, lists of sizes "a,b,c", "a:b" (doubling) or "a:b:step", each size within range and
 * the list at most as long as its array. A bad option or value prints one line,
 * "bchol <command>: <option> <value>: <why>", to stderr; the subcommand then exits with
 * status 2.
 */
#ifndef BCHOL_OPTIONS_H
#define BCHOL_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

/* Limits shared by the subcommands (documented in their --help and docs/USAGE.md). */
#define OPT_MAX_N 46340             /* n*n < 2^31: the library's index limit */
#define OPT_MAX_BATCH (1LL << 40)   /* matrices per run (then capped to device memory) */
#define OPT_MAX_REPS 10000          /* timed or warm-up runs per case */
#define OPT_MAX_NRHS 4096           /* right-hand sides per matrix */
#define OPT_MAX_PARAM 1024          /* kernel parameters (the library checks tighter) */

typedef struct {
    const char *cmd;          /* "bench", "bench --solve", ... (messages) */
    int argc, i;
    char **argv;
    const char *const *flags; /* options without a value, NULL-terminated; may be NULL */
    const char *key, *value;  /* the current option; value NULL for a flag */
    FILE *err;                /* where messages go: stderr (the fuzz target reads them) */
} opt_reader;

/* Reads argv[1..argc) (argv[0] is the subcommand). */
void opt_begin(opt_reader *r, const char *cmd, int argc, char **argv, const char *const *flags);

/* Moves to the next option: 1 with r->key (and r->value unless it is a flag), 0 when
 * there are no more, -1 after a message (not an option, or no value). "--help" and "-h"
 * are always flags. */
int opt_next(opt_reader *r);

/* Prints "bchol <cmd>: <key> <value>: <why>" and returns -1. */
int opt_bad(const opt_reader *r, const char *why, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The current value as a number in [min, max]; 0, or -1 after a message. */
int opt_int(const opt_reader *r, long long min, long long max, int *out);
int opt_llong(const opt_reader *r, long long min, long long max, long long *out);
int opt_u64(const opt_reader *r, uint64_t *out);
int opt_double(const opt_reader *r, double min, double max, double *out);

/* The current value as one of words (NULL-terminated): its index, or -1 after a message. */
int opt_word(const opt_reader *r, const char *const *words);

/* The current value as a comma list of words (each non-empty, one of words), at most
 * max_count: their indices in out, *count how many. 0, or -1 after a message. */
int opt_word_list(const opt_reader *r, const char *const *words, int *out, int max_count,
                  int *count);

/* The current value as one character of allowed ("sd"): the value must be that one
 * character. 0, or -1 after a message. */
int opt_char(const opt_reader *r, const char *allowed, char *out);

/* The current value as a list of sizes, each in [min, max], at most max_count of them:
 * *count gets how many. 0, or -1 after a message. */
int opt_sizes(const opt_reader *r, long long min, long long max, int *out, int max_count,
              int *count);

/* The list parser behind opt_sizes: the count, or -1 with *why set (a constant phrase or
 * a thread-unsafe static text) when text is malformed, out of [min, max] or too long. */
int opt_parse_list(const char *text, long long min, long long max, int *out, int max_count,
                   const char **why);

#endif
