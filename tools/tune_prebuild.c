/*
 * Builds of the sweep's configurations in child processes, each with a time limit
 * (--build-timeout), up to --jobs - 1 at once ahead of the configuration being timed (also
 * across sizes: the next size's builds run while this one's finalists are confirmed).
 *
 * An OpenCL build cannot be stopped inside a process (NVIDIA's compiler takes minutes for
 * some generated kernels), so each configuration is built by a child that is killed, with
 * its process group, when it overruns; the configuration is then recorded as failed
 * ("build too slow") and never retried by --resume. The child is this executable
 * (/proc/self/exe, started with posix_spawn: NVIDIA's driver does not survive a fork of a
 * process that initialized it) in the hidden mode `bchol tune --build-child ...`
 * (tune_build_child below): it creates a context on the parent's device, runs the
 * variant's prepare and exits. What it builds lands in the on-disk caches that the
 * parent reads, since the child inherits the environment: bchol's binary cache
 * (BCHOL_CACHE_DIR) where the backend keeps one (NVIDIA, generic), PoCL's own
 * (POCL_CACHE_DIR) on PoCL. The parent's build afterwards is then a cache load. (With
 * BCHOL_CACHE_DIR=off or POCL_KERNEL_CACHE=0 the parent builds again, untimed.)
 *
 * A child reports on fd 3: "ok SECONDS", "failed SECONDS REASON" (the prepare failed: the
 * configuration's record says why) or "error MESSAGE" (it could not do its work, e.g. no
 * context: the parent builds that configuration itself). The limit covers the child's
 * whole life (start, context, build); a child also ends itself by alarm() one second past
 * it, for when the parent is busy timing, and dies with the parent (PR_SET_PDEATHSIG).
 *
 * Configurations that differ only in their variant's launch parameters (vbatched: tbc,
 * shape, order) build the same programs: one child builds them, the others take its
 * outcome (on the H200 most of the vbatched sweep's 2494 build processes rebuilt a program
 * another one had built; their builds took 89 of the file's 143 summed build minutes).
 *
 * Testing aids: BCHOL_TUNE_BUILD_DELAY_MS=M makes a child sleep M ms before it builds a
 * configuration whose text ("s fused n=4 ib=4 tbc=1 rpt=2 shape=fixed", "s solve n=4 nrhs=16
 * nt=4 rpt=1 tbc=2") contains
 * BCHOL_TUNE_BUILD_DELAY_MATCH (every configuration if that is unset);
 * BCHOL_TUNE_BUILD_LOG=FILE makes each child append that text to FILE.
 */
#define _GNU_SOURCE
#include "bchol_util.h"
#include "tune.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define REPORT_FD 3

enum { WAITING, RUNNING, BUILT, FAILED, LOCAL, SAME };

typedef struct {
    int state;
    int same;       /* SAME: the job whose build this configuration shares */
    pid_t pid;
    int fd;         /* the read end of the child's report */
    double start;   /* when it was started (monotonic seconds) */
    double seconds; /* its build time (BUILT) or how long it ran (FAILED) */
    char why[600];  /* FAILED: the record's reason */
} job;

static struct {
    tune_build_options o;
    char uplo;
    const tune_item *items;
    const int *todo;
    int count, next, consumed, running, max_running, window;
    job *jobs;
    int warned;
} pb;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* "s fused n=4 ib=4 tbc=1 rpt=2 shape=fixed", "s solve n=4 nrhs=16 nt=4 rpt=1 tbc=2" */
static void describe(const tune_item *it, char *out, size_t size)
{
    char cfg[400], rhs[32] = "";
    tune_format_config(it->v, it->cfg, cfg, sizeof cfg);
    if (it->nrhs) snprintf(rhs, sizeof rhs, " nrhs=%d", it->nrhs);
    snprintf(out, size, "%c %s n=%d%s %s", it->precision, it->v->name, it->n, rhs, cfg);
}

static void warn_once(const char *what, const tune_item *it)
{
    if (pb.warned++) return;
    char text[500];
    describe(it, text, sizeof text);
    fprintf(stderr, "bchol tune: %s (%s); such configurations are built in this process, "
                    "without a time limit\n", what, text);
}

/* ---- the parent ----------------------------------------------------------------------- */

static void spawn(int k)
{
    job *j = &pb.jobs[k];
    const tune_item *it = &pb.items[pb.todo[k]];
    char ppid[24], n[16], nrhs[16], cfg[TUNE_MAX_PARAMS * 12 + 1] = "", timeout[32],
        prec[2] = {it->precision, 0}, uplo[2] = {pb.uplo, 0};
    snprintf(ppid, sizeof ppid, "%ld", (long)getpid());
    snprintf(n, sizeof n, "%d", it->n);
    snprintf(nrhs, sizeof nrhs, "%d", it->nrhs);
    snprintf(timeout, sizeof timeout, "%g", pb.o.timeout_s);
    for (int i = 0; i < it->v->nparams; i++)
        snprintf(cfg + strlen(cfg), sizeof cfg - strlen(cfg), "%s%d", i ? "," : "", it->cfg[i]);
    char *argv[] = {"bchol", "tune", "--build-child", ppid, (char *)(pb.o.device ? pb.o.device : "-"),
                    prec, n, nrhs, uplo, (char *)it->v->name, cfg, timeout, NULL};

    int fds[2];
    if (pipe2(fds, O_CLOEXEC)) {
        j->state = LOCAL;
        warn_once(strerror(errno), it);
        return;
    }
    if (fds[1] == REPORT_FD) { /* dup2 onto itself would keep close-on-exec */
        int other = fcntl(fds[1], F_DUPFD_CLOEXEC, REPORT_FD + 1);
        close(fds[1]);
        fds[1] = other;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, reset;
    sigemptyset(&none);
    sigemptyset(&reset);
    sigaddset(&reset, SIGINT);
    sigaddset(&reset, SIGTERM);
    sigaddset(&reset, SIGALRM);
    sigaddset(&reset, SIGPIPE);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], REPORT_FD);
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
    /* none of the tuner's other descriptors (the driver's devices, files) */
    posix_spawn_file_actions_addclosefrom_np(&fa, REPORT_FD + 1);
#endif
    posix_spawnattr_init(&attr);
    /* its own process group, to be killed whole; default signal actions */
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &reset);
    util_icd_env_restore(); /* PoCL dropped the other ICDs from it (bchol_util.h) */
    int err = fds[1] < 0 ? errno : posix_spawn(&j->pid, "/proc/self/exe", &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (fds[1] >= 0) close(fds[1]);
    if (err) {
        close(fds[0]);
        j->state = LOCAL;
        char what[200];
        snprintf(what, sizeof what, "could not start a build process: %s", strerror(err));
        warn_once(what, it);
        return;
    }
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    j->fd = fds[0];
    j->start = now_s();
    j->state = RUNNING;
    pb.running++;
}

/* A child has ended (status from waitpid; killed: by us, past the limit): its outcome. */
static void finish(job *j, const tune_item *it, int status, int killed)
{
    char report[1024] = "";
    ssize_t got, used = 0;
    while (used < (ssize_t)sizeof report - 1 &&
           (got = read(j->fd, report + used, sizeof report - 1 - (size_t)used)) > 0)
        used += got;
    report[used] = 0;
    close(j->fd);
    pb.running--;
    const double ran = now_s() - j->start;
    double seconds = -1;
    int offset = 0;
    j->seconds = ran;
    if (killed || (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)) {
        j->state = FAILED;
        snprintf(j->why, sizeof j->why, "build too slow (> %g s)", pb.o.timeout_s);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && sscanf(report, "ok %lf", &seconds) == 1) {
        j->seconds = seconds;
        if (pb.o.timeout_s > 0 && seconds > pb.o.timeout_s) {
            j->state = FAILED;
            snprintf(j->why, sizeof j->why, "build too slow (> %g s)", pb.o.timeout_s);
        } else {
            j->state = BUILT;
        }
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 1 &&
               sscanf(report, "failed %lf %n", &seconds, &offset) == 1 && offset > 0) {
        j->state = FAILED;
        j->seconds = seconds;
        char *nl = strchr(report + offset, '\n');
        if (nl) *nl = 0;
        snprintf(j->why, sizeof j->why, "%s", report + offset);
    } else if (WIFSIGNALED(status)) {
        /* a crash in the driver's compiler would have taken the tuner with it */
        j->state = FAILED;
        snprintf(j->why, sizeof j->why, "the build process died of signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else {
        j->state = LOCAL;
        char *nl = strchr(report, '\n');
        if (nl) *nl = 0;
        char what[1200];
        if (!strncmp(report, "error ", 6))
            snprintf(what, sizeof what, "a build process could not build: %s", report + 6);
        else
            snprintf(what, sizeof what, "a build process ended with status %d", WEXITSTATUS(status));
        warn_once(what, it);
    }
}

/* An earlier job (not passed over) whose build configuration k shares, or -1. */
static int same_build(int k)
{
    const tune_item *a = &pb.items[pb.todo[k]];
    if (!a->v->launch_params) return -1;
    for (int j = 0; j < k; j++) {
        const tune_item *b = &pb.items[pb.todo[j]];
        const int st = pb.jobs[j].state;
        if (st == WAITING || st == LOCAL || st == SAME || b->v != a->v || b->precision != a->precision ||
            b->n != a->n || b->nrhs != a->nrhs)
            continue;
        int i = 0;
        while (i < a->v->nparams && (a->cfg[i] == b->cfg[i] || (a->v->launch_params >> i & 1u))) i++;
        if (i == a->v->nparams) return j;
    }
    return -1;
}

/* Collects ended children, kills those past the limit, starts the next ones. */
static void pump(void)
{
    /* from the first job: a shared build may belong to one the parent has passed */
    for (int k = 0; k < pb.next; k++) {
        job *j = &pb.jobs[k];
        if (j->state != RUNNING) continue;
        const tune_item *it = &pb.items[pb.todo[k]];
        int status = 0;
        pid_t r = waitpid(j->pid, &status, WNOHANG);
        if (r == j->pid) {
            finish(j, it, status, 0);
        } else if (r < 0 && errno != EINTR) {
            close(j->fd);
            pb.running--;
            j->state = LOCAL;
            warn_once(strerror(errno), it);
        } else if (pb.o.timeout_s > 0 && now_s() - j->start > pb.o.timeout_s) {
            kill(-j->pid, SIGKILL);
            kill(j->pid, SIGKILL);
            while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR) {
            }
            finish(j, it, status, 1);
        }
    }
    /* the window counts builds, not configurations: on the H200 a vbatched build served
     * four configurations on average, and a window of configurations kept half the
     * builders idle */
    int ahead = 0;
    for (int k = pb.consumed; k < pb.next; k++) ahead += pb.jobs[k].state != SAME;
    while (pb.running < pb.max_running && pb.next < pb.count && ahead <= pb.window) {
        const int k = pb.next++, j = same_build(k);
        if (j >= 0) {
            pb.jobs[k].state = SAME;
            pb.jobs[k].same = j;
        } else {
            spawn(k);
            ahead++;
        }
    }
}

void tune_prebuild_start(const tune_build_options *o, char uplo, const tune_item *items,
                         const int *todo, int count)
{
    memset(&pb, 0, sizeof pb);
    pb.o = *o;
    if (!(o->timeout_s > 0 || o->jobs > 1)) return; /* the caller builds */
    pb.jobs = calloc((size_t)count + 1, sizeof *pb.jobs);
    if (!pb.jobs) return;
    pb.uplo = uplo;
    pb.items = items;
    pb.todo = todo;
    pb.count = count;
    /* jobs = J: J - 1 children while the parent times (the J-th job), within 8 (J - 1)
     * builds of it; J = 1: one child, for the configuration about to be timed. The window
     * is wide because one slow build (an interleaved kernel runs into the limit) holds the
     * parent while the others go on: with 2 (J - 1) the H200's builders were busy 63% of a
     * sweep */
    pb.max_running = o->jobs > 1 ? o->jobs - 1 : 1;
    pb.window = o->jobs > 1 ? 8 * (o->jobs - 1) : 0;
    pump();
}

int tune_prebuild_wait(int k, char *why, size_t size, double *seconds)
{
    *seconds = 0;
    if (!pb.jobs || k >= pb.count) return -1;
    pb.consumed = k;
    while (pb.next < k) pb.jobs[pb.next++].state = LOCAL; /* passed over (not expected) */
    for (long pause = 1;; pause = pause < 20 ? pause * 2 : 20) {
        pump();
        const job *j = &pb.jobs[k];
        if (j->state == SAME) {
            /* that build's outcome, if it built or was too slow (no build of the program
             * is faster); any other failure may be the configuration's own: built here */
            const job *o = &pb.jobs[j->same];
            if (o->state == FAILED && strncmp(o->why, "build too slow", 14)) spawn(k);
            else if (o->state == LOCAL) spawn(k);
            else j = o;
        }
        if (j->state == BUILT) {
            *seconds = j->seconds;
            return 0;
        }
        if (j->state == FAILED) {
            snprintf(why, size, "%s", j->why);
            *seconds = j->seconds;
            return 1;
        }
        if (j->state == LOCAL) return -1;
        if (pb.o.stop && *pb.o.stop) return -2;
        sleep_ms(pause);
    }
}

void tune_prebuild_stop(void)
{
    for (int k = 0; pb.jobs && k < pb.next; k++) {
        job *j = &pb.jobs[k];
        if (j->state != RUNNING) continue;
        kill(-j->pid, SIGKILL);
        kill(j->pid, SIGKILL);
        while (waitpid(j->pid, NULL, 0) < 0 && errno == EINTR) {
        }
        close(j->fd);
    }
    free(pb.jobs);
    memset(&pb, 0, sizeof pb);
}

/* ---- the child -------------------------------------------------------------------------- */

static int report_fd(void) { return fcntl(REPORT_FD, F_GETFD) != -1 ? REPORT_FD : 2; }

static int child_error(const char *fmt, const char *arg)
{
    dprintf(report_fd(), "error ");
    dprintf(report_fd(), fmt, arg);
    dprintf(report_fd(), "\n");
    return 2;
}

/* argv: --build-child PARENT_PID DEVICE PRECISION N NRHS UPLO VARIANT CFG TIMEOUT */
int tune_build_child(int argc, char **argv)
{
    const double t0 = now_s();
    if (argc != 10)
        return child_error("%s", "usage: --build-child PID DEVICE PREC N NRHS UPLO VARIANT CFG TIMEOUT");
    /* die with the tuner (a killed tuner leaves no builds behind) */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)atol(argv[1])) return 2;
    const double timeout = atof(argv[9]);
    if (timeout > 0) alarm((unsigned)ceil(timeout) + 1);

    tune_item it = {argv[3][0], atoi(argv[4]), tune_variant_named(argv[7]), atoi(argv[5]), {0}, 0, ""};
    const char uplo = argv[6][0];
    if (!it.v) return child_error("no variant \"%s\"", argv[7]);
    const char *p = argv[8];
    for (int i = 0; i < it.v->nparams; i++) {
        char *end;
        it.cfg[i] = (int)strtol(p, &end, 10);
        if (end == p || (*end && *end != ',')) return child_error("bad configuration \"%s\"", argv[8]);
        p = *end ? end + 1 : end;
    }
    const char *delay = getenv("BCHOL_TUNE_BUILD_DELAY_MS"), *match = getenv("BCHOL_TUNE_BUILD_DELAY_MATCH");
    char text[500];
    describe(&it, text, sizeof text);
    if (delay && atol(delay) > 0 && (!match || strstr(text, match))) sleep_ms(atol(delay));
    const char *log = getenv("BCHOL_TUNE_BUILD_LOG");
    FILE *lf = log && *log ? fopen(log, "a") : NULL;
    if (lf) {
        fprintf(lf, "%s\n", text);
        fclose(lf);
    }

    setenv("BCHOL_TUNING_FILE", "off", 1); /* the backend's defaults, as the parent's */
    bchol_context *ctx;
    if (bchol_context_create(strcmp(argv[2], "-") ? argv[2] : NULL, &ctx))
        return child_error("%s", bchol_last_error(NULL));
    tune_target t;
    memset(&t, 0, sizeof t);
    t.precision = it.precision;
    t.n = it.n;
    t.nrhs = it.nrhs;
    bchol_context_device_info(ctx, &t.dev);
    bchol_potrf_params(ctx, t.precision, t.n, &t.defaults, NULL);
    tune_params prm, eff;
    it.v->to_params(it.cfg, &prm);
    bchol_status st = it.v->prepare(ctx, &t, uplo, &prm, &eff);
    const double seconds = now_s() - t0;
    if (st) {
        char line[400];
        snprintf(line, sizeof line, "%s", bchol_last_error(ctx));
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        dprintf(report_fd(), "failed %.3f %s: %s\n", seconds, bchol_status_string(st), line);
    } else {
        dprintf(report_fd(), "ok %.3f\n", seconds);
    }
    bchol_context_destroy(ctx);
    return st ? 1 : 0;
}
