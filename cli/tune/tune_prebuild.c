/*
 * Builds of the sweep's configurations in build processes, each build with a time limit
 * (--build-timeout), up to --jobs - 1 at once ahead of the configuration being timed (also
 * across sizes: the next size's builds run while this one's finalists are confirmed).
 *
 * An OpenCL build cannot be stopped inside a process (NVIDIA's compiler takes minutes for
 * some generated kernels), so the builds run in child processes, and one that overruns is
 * killed with its process group; the configuration is then recorded as failed ("build too
 * slow") and never retried by --resume. A child is this executable (/proc/self/exe, started
 * with posix_spawn: NVIDIA's driver does not survive a fork of a process that initialized
 * it) in the hidden mode `bchol tune --build-server ...` (tune_build_server below): it
 * creates a context on the parent's device once, then builds the configurations the
 * parent writes to its stdin, one a line, running the variant's prepare for each, and
 * ends after SERVER_BUILDS of them (the programs it built stay loaded in it) or at the end
 * of its input. What it builds lands in the on-disk caches that the parent reads, since the
 * child inherits the environment: bchol's binary cache (BCHOL_CACHE_DIR) where the backend
 * keeps one (NVIDIA, generic), PoCL's own (POCL_CACHE_DIR) on PoCL. The parent's build
 * afterwards is then a cache load. (With BCHOL_CACHE_DIR=off or POCL_KERNEL_CACHE=0 the
 * parent builds again, untimed.)
 *
 * Why a process builds many configurations: on the H200 (2026-11-25) a process of its own
 * for each build spent more on its start and its context than on the build. A fused sweep
 * of 142 configurations took 434 summed build seconds in 15 such processes, against 162 s
 * for the same builds one after another in one process.
 *
 * A build process says "ready" on fd 3 once its context is made, then reports each build
 * there: "ok SECONDS", "failed SECONDS REASON" (the prepare failed: the configuration's
 * record says why) or "error MESSAGE" (it could not do its work, e.g. no context: the
 * parent builds that configuration itself). The limit covers a build from the moment it
 * is handed over, or from "ready" for a new process's first: its start and context, slow
 * on a loaded machine (over 3 s on the H200's during CTest), are not the build's. A
 * process that makes no context within START_LIMIT_S leaves its configuration to the
 * parent. A process also ends itself by alarm() one second past a build's limit, for when
 * the parent is busy timing, and dies with the parent (PR_SET_PDEATHSIG).
 *
 * Configurations that differ only in their variant's launch parameters (vbatched: tbc,
 * shape, order) build the same programs: one build serves them all, the others take its
 * outcome (on the H200 most of the vbatched sweep's 2494 builds rebuilt a program another
 * one had built; they took 89 of the file's 143 summed build minutes).
 *
 * Testing aids: BCHOL_TUNE_BUILD_DELAY_MS=M makes a build process sleep M ms before it
 * builds a configuration whose text ("s fused n=4 ib=4 tbc=1 rpt=2 shape=fixed", "s solve
 * n=4 nrhs=16 nt=4 rpt=1 tbc=2") contains BCHOL_TUNE_BUILD_DELAY_MATCH (every
 * configuration if that is unset); BCHOL_TUNE_BUILD_START_DELAY_MS=M makes it sleep M ms
 * once its context is made, before it says "ready"; BCHOL_TUNE_BUILD_LOG=FILE makes it
 * append that text and " pid=PID" (its own) to FILE for each build.
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
/* builds a process serves before it ends: bounds the programs loaded in it */
#define SERVER_BUILDS 64
/* how long a build process may take to make its context (a loaded machine is slow at it) */
#define START_LIMIT_S 120

/* QUEUED: to be handed to the next free build process before any other (the one the
 * parent waits for, whose shared build failed) */
enum { WAITING, QUEUED, RUNNING, BUILT, FAILED, LOCAL, SAME };

typedef struct {
    int state;
    int same;       /* SAME: the job whose build this configuration shares */
    double start;   /* when it was handed over (monotonic seconds) */
    double seconds; /* its build time (BUILT) or how long it ran (FAILED) */
    char why[600];  /* FAILED: the record's reason */
} job;

typedef struct {
    pid_t pid;  /* 0: a free slot */
    int in;     /* the write end of its stdin: the configurations to build */
    int out;    /* the read end of its reports */
    int job;    /* the job it builds, -1: none */
    int builds; /* jobs handed to it */
    int ready;  /* it has made its context */
    int used;   /* bytes of a report line in buf */
    char buf[1024];
} server;

static struct {
    tune_build_options o;
    char uplo;
    const tune_item *items;
    const int *todo;
    int count, next, consumed, max_running, window;
    job *jobs;
    server *servers;     /* max_running slots */
    pid_t *retired;      /* processes told to end (their input closed), not yet reaped */
    int nretired;
    struct sigaction old_pipe;
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

/* A pipe whose end child_end is not fd target (dup2 onto itself would keep close-on-exec). */
static int make_pipe(int fds[2], int child_end, int target)
{
    if (pipe2(fds, O_CLOEXEC)) return -1;
    if (fds[child_end] == target) {
        int other = fcntl(fds[child_end], F_DUPFD_CLOEXEC, REPORT_FD + 1);
        close(fds[child_end]);
        fds[child_end] = other;
        if (other < 0) {
            close(fds[1 - child_end]);
            return -1;
        }
    }
    return 0;
}

/* Starts a build process in slot s; 0, or an errno. */
static int start_server(int s)
{
    server *v = &pb.servers[s];
    char ppid[24], timeout[32], uplo[2] = {pb.uplo, 0};
    snprintf(ppid, sizeof ppid, "%ld", (long)getpid());
    snprintf(timeout, sizeof timeout, "%g", pb.o.timeout_s);
    char *argv[] = {"bchol", "tune", "--build-server", ppid, (char *)(pb.o.device ? pb.o.device : "-"),
                    uplo, timeout, NULL};
    int in[2], out[2];
    if (make_pipe(in, 0, 0)) return errno;
    if (make_pipe(out, 1, REPORT_FD)) {
        int err = errno;
        close(in[0]);
        close(in[1]);
        return err;
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
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], REPORT_FD);
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
    pid_t pid;
    int err = posix_spawn(&pid, "/proc/self/exe", &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(out[1]);
    if (err) {
        close(in[1]);
        close(out[0]);
        return err;
    }
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    memset(v, 0, sizeof *v);
    v->pid = pid;
    v->in = in[1];
    v->out = out[0];
    v->job = -1;
    return 0;
}

/* Kills a build process with its group and reaps it; its status. */
static int kill_process(pid_t pid)
{
    int status = 0;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

/* Kills the process of slot s and frees the slot. */
static void kill_server(int s, int *status)
{
    server *v = &pb.servers[s];
    const int st = kill_process(v->pid);
    if (status) *status = st;
    close(v->in);
    close(v->out);
    v->pid = 0;
}

/* Slot s's process has served its builds: its input is closed, so it ends by itself. */
static void retire_server(int s)
{
    server *v = &pb.servers[s];
    close(v->in);
    close(v->out);
    pid_t *more = realloc(pb.retired, (size_t)(pb.nretired + 1) * sizeof *more);
    if (more) {
        pb.retired = more;
        pb.retired[pb.nretired++] = v->pid;
    } else {
        kill_process(v->pid);
    }
    v->pid = 0;
}

static void reap_retired(void)
{
    for (int i = 0; i < pb.nretired;)
        if (waitpid(pb.retired[i], NULL, WNOHANG) != 0) pb.retired[i] = pb.retired[--pb.nretired];
        else i++;
}

/* Job k's outcome from its build process's report line (NULL: the process ended without
 * one, with this status; killed: by us, past the limit). */
static void finish(job *j, const tune_item *it, const char *report, int status, int killed)
{
    const double ran = now_s() - j->start;
    double seconds = -1;
    int offset = 0;
    j->seconds = ran;
    if (killed || (!report && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)) {
        j->state = FAILED;
        snprintf(j->why, sizeof j->why, "build too slow (> %g s)", pb.o.timeout_s);
    } else if (report && sscanf(report, "ok %lf", &seconds) == 1) {
        j->seconds = seconds;
        if (pb.o.timeout_s > 0 && seconds > pb.o.timeout_s) {
            j->state = FAILED;
            snprintf(j->why, sizeof j->why, "build too slow (> %g s)", pb.o.timeout_s);
        } else {
            j->state = BUILT;
        }
    } else if (report && sscanf(report, "failed %lf %n", &seconds, &offset) == 1 && offset > 0) {
        j->state = FAILED;
        j->seconds = seconds;
        snprintf(j->why, sizeof j->why, "%s", report + offset);
    } else if (!report && WIFSIGNALED(status)) {
        /* a crash in the driver's compiler would have taken the tuner with it */
        j->state = FAILED;
        snprintf(j->why, sizeof j->why, "the build process died of signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else {
        j->state = LOCAL;
        char what[1200];
        if (report && !strncmp(report, "error ", 6))
            snprintf(what, sizeof what, "a build process could not build: %s", report + 6);
        else if (report)
            snprintf(what, sizeof what, "a build process reported \"%.200s\"", report);
        else
            snprintf(what, sizeof what, "a build process ended with status %d", WEXITSTATUS(status));
        warn_once(what, it);
    }
}

/* Reads slot s's reports, ends its job when one is complete, and kills it past the limit. */
static void poll_server(int s)
{
    server *v = &pb.servers[s];
    if (!v->pid) return;
    ssize_t got = 0;
    while (v->used < (int)sizeof v->buf - 1 &&
           (got = read(v->out, v->buf + v->used, sizeof v->buf - 1 - (size_t)v->used)) > 0)
        v->used += (int)got;
    v->buf[v->used] = 0;
    char *nl = strchr(v->buf, '\n');
    job *j = v->job >= 0 ? &pb.jobs[v->job] : NULL;
    const tune_item *it = j ? &pb.items[pb.todo[v->job]] : NULL;
    if (nl && !strncmp(v->buf, "ready\n", 6)) {
        /* its context is made: the limit counts the build from here */
        v->ready = 1;
        if (j) j->start = now_s();
        v->used -= 6;
        memmove(v->buf, v->buf + 6, (size_t)v->used + 1);
        nl = strchr(v->buf, '\n');
    }
    if (nl || v->used == (int)sizeof v->buf - 1) {
        if (nl) *nl = 0;
        const int error = !strncmp(v->buf, "error ", 6);
        if (j) finish(j, it, v->buf, 0, 0);
        v->job = -1;
        const int rest = nl ? v->used - (int)(nl + 1 - v->buf) : 0;
        if (rest > 0) memmove(v->buf, nl + 1, (size_t)rest);
        v->used = rest;
        if (error || !nl) kill_server(s, NULL);
        else if (v->builds >= SERVER_BUILDS) retire_server(s);
        return;
    }
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
        /* ended without a report */
        int status = 0;
        kill_server(s, &status);
        if (j) finish(j, it, NULL, status, 0);
        return;
    }
    if (j && !v->ready && now_s() - j->start > START_LIMIT_S) {
        kill_server(s, NULL);
        j->state = LOCAL;
        char what[64];
        snprintf(what, sizeof what, "a build process made no context in %d s", START_LIMIT_S);
        warn_once(what, it);
    } else if (j && v->ready && pb.o.timeout_s > 0 && now_s() - j->start > pb.o.timeout_s) {
        int status = 0;
        kill_server(s, &status);
        finish(j, it, NULL, status, 1);
    }
}

/* Hands job k to a free build process (started if need be): 1, or 0 when none is free.
 * A job that cannot be handed over becomes LOCAL. */
static int hand_over(int k)
{
    const tune_item *it = &pb.items[pb.todo[k]];
    char cfg[TUNE_MAX_PARAMS * 12 + 1] = "", line[TUNE_MAX_PARAMS * 12 + 128];
    for (int i = 0; i < it->v->nparams; i++)
        snprintf(cfg + strlen(cfg), sizeof cfg - strlen(cfg), "%s%d", i ? "," : "", it->cfg[i]);
    const int len = snprintf(line, sizeof line, "%c %d %d %s %s\n", it->precision, it->n, it->nrhs, it->v->name, cfg);
    for (int tries = 0; tries < 2; tries++) {
        int s = -1, free_slot = -1;
        for (int i = 0; i < pb.max_running && s < 0; i++) {
            if (pb.servers[i].pid && pb.servers[i].job < 0) s = i;
            else if (!pb.servers[i].pid && free_slot < 0) free_slot = i;
        }
        if (s < 0 && free_slot < 0) return 0;
        if (s < 0) {
            int err = start_server(free_slot);
            if (err) {
                char what[200];
                snprintf(what, sizeof what, "could not start a build process: %s", strerror(err));
                pb.jobs[k].state = LOCAL;
                warn_once(what, it);
                return 1;
            }
            s = free_slot;
        }
        server *v = &pb.servers[s];
        if (write(v->in, line, (size_t)len) == len) {
            v->job = k;
            v->builds++;
            pb.jobs[k].start = now_s();
            pb.jobs[k].state = RUNNING;
            return 1;
        }
        kill_server(s, NULL); /* it has ended: another one */
    }
    pb.jobs[k].state = LOCAL;
    warn_once("could not hand a build to a build process", it);
    return 1;
}

/* An earlier job (not passed over) whose build configuration k shares, or -1. */
static int same_build(int k)
{
    const tune_item *a = &pb.items[pb.todo[k]];
    if (!a->v->launch_params) return -1;
    for (int j = 0; j < k; j++) {
        const tune_item *b = &pb.items[pb.todo[j]];
        const int st = pb.jobs[j].state;
        if (st == WAITING || st == QUEUED || st == LOCAL || st == SAME || b->v != a->v ||
            b->precision != a->precision || b->n != a->n || b->nrhs != a->nrhs)
            continue;
        int i = 0;
        while (i < a->v->nparams && (a->cfg[i] == b->cfg[i] || (a->v->launch_params >> i & 1u))) i++;
        if (i == a->v->nparams) return j;
    }
    return -1;
}

/* Collects reports, kills builds past the limit, hands out the next ones. */
static void pump(void)
{
    for (int s = 0; s < pb.max_running; s++) poll_server(s);
    reap_retired();
    for (int k = pb.consumed; k < pb.next; k++)
        if (pb.jobs[k].state == QUEUED && !hand_over(k)) return;
    /* the window counts builds, not configurations: on the H200 a vbatched build served
     * four configurations on average, and a window of configurations kept half the
     * builders idle */
    int ahead = 0;
    for (int k = pb.consumed; k < pb.next; k++) ahead += pb.jobs[k].state != SAME;
    while (pb.next < pb.count && ahead <= pb.window) {
        const int k = pb.next, j = same_build(k);
        if (j >= 0) {
            pb.jobs[k].state = SAME;
            pb.jobs[k].same = j;
        } else {
            if (!hand_over(k)) break;
            ahead++;
        }
        pb.next++;
    }
}

void tune_prebuild_start(const tune_build_options *o, char uplo, const tune_item *items,
                         const int *todo, int count)
{
    memset(&pb, 0, sizeof pb);
    pb.o = *o;
    if (!(o->timeout_s > 0 || o->jobs > 1)) return; /* the caller builds */
    /* jobs = J: J - 1 build processes while the parent times (the J-th job), within 8 (J - 1)
     * builds of it; J = 1: one, for the configuration about to be timed. The window is
     * wide because one slow build (an interleaved kernel runs into the limit) holds the
     * parent while the others go on: with 2 (J - 1) the H200's builders were busy 63% of a
     * sweep */
    pb.max_running = o->jobs > 1 ? o->jobs - 1 : 1;
    pb.window = o->jobs > 1 ? 8 * (o->jobs - 1) : 0;
    pb.jobs = calloc((size_t)count + 1, sizeof *pb.jobs);
    pb.servers = calloc((size_t)pb.max_running, sizeof *pb.servers);
    if (!pb.jobs || !pb.servers) {
        free(pb.jobs);
        free(pb.servers);
        pb.jobs = NULL;
        pb.servers = NULL;
        return;
    }
    /* a build process that has ended makes a write to it fail, not end the tuner */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &pb.old_pipe);
    pb.uplo = uplo;
    pb.items = items;
    pb.todo = todo;
    pb.count = count;
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
        job *j = &pb.jobs[k];
        if (j->state == SAME) {
            /* that build's outcome, if it built or was too slow (no build of the program
             * is faster); any other failure may be the configuration's own: built again */
            const job *o = &pb.jobs[j->same];
            if ((o->state == FAILED && strncmp(o->why, "build too slow", 14)) || o->state == LOCAL) {
                j->state = QUEUED;
                continue;
            }
            j = &pb.jobs[j->same];
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
    for (int s = 0; pb.servers && s < pb.max_running; s++)
        if (pb.servers[s].pid) kill_server(s, NULL);
    for (int i = 0; i < pb.nretired; i++) kill_process(pb.retired[i]);
    if (pb.servers) sigaction(SIGPIPE, &pb.old_pipe, NULL);
    free(pb.retired);
    free(pb.servers);
    free(pb.jobs);
    memset(&pb, 0, sizeof pb);
}

/* ---- the build process ------------------------------------------------------------------ */

static int report_fd(void) { return fcntl(REPORT_FD, F_GETFD) != -1 ? REPORT_FD : 2; }

static int server_error(const char *fmt, const char *arg)
{
    dprintf(report_fd(), "error ");
    dprintf(report_fd(), fmt, arg);
    dprintf(report_fd(), "\n");
    return 2;
}

/* One configuration's build, reported on fd 3: 0 built, 1 failed. */
static int build_one(bchol_context *ctx, const bchol_device_info *dev, char uplo, const tune_item *job_item)
{
    const double t0 = now_s();
    tune_item it = *job_item;
    const char *delay = getenv("BCHOL_TUNE_BUILD_DELAY_MS"), *match = getenv("BCHOL_TUNE_BUILD_DELAY_MATCH");
    char text[500];
    describe(&it, text, sizeof text);
    if (delay && atol(delay) > 0 && (!match || strstr(text, match))) sleep_ms(atol(delay));
    const char *log = getenv("BCHOL_TUNE_BUILD_LOG");
    FILE *lf = log && *log ? fopen(log, "a") : NULL;
    if (lf) {
        fprintf(lf, "%s pid=%ld\n", text, (long)getpid());
        fclose(lf);
    }
    tune_target t;
    memset(&t, 0, sizeof t);
    t.precision = it.precision;
    t.n = it.n;
    t.nrhs = it.nrhs;
    t.dev = *dev;
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
    return st ? 1 : 0;
}

/* argv: --build-server PARENT_PID DEVICE UPLO TIMEOUT; stdin: one configuration a line,
 * "PRECISION N NRHS VARIANT CFG" (CFG: the parameters' indices, comma-separated) */
int tune_build_server(int argc, char **argv)
{
    if (argc != 5) return server_error("%s", "usage: --build-server PID DEVICE UPLO TIMEOUT");
    /* die with the tuner (a killed tuner leaves no builds behind) */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != (pid_t)atol(argv[1])) return 2;
    const char uplo = argv[3][0];
    const double timeout = atof(argv[4]);

    setenv("BCHOL_TUNING_FILE", "off", 1); /* the backend's defaults, as the parent's */
    bchol_context *ctx;
    if (bchol_context_create(strcmp(argv[2], "-") ? argv[2] : NULL, &ctx))
        return server_error("%s", bchol_last_error(NULL));
    bchol_device_info dev;
    bchol_context_device_info(ctx, &dev);
    const char *start_delay = getenv("BCHOL_TUNE_BUILD_START_DELAY_MS");
    if (start_delay && atol(start_delay) > 0) sleep_ms(atol(start_delay));
    dprintf(report_fd(), "ready\n");
    char line[1024];
    int rc = 0;
    while (!rc && fgets(line, sizeof line, stdin)) {
        tune_item it;
        memset(&it, 0, sizeof it);
        char prec[2], variant[64], cfg[256];
        if (sscanf(line, "%1s %d %d %63s %255s", prec, &it.n, &it.nrhs, variant, cfg) != 5) {
            rc = server_error("bad job \"%s\"", line);
            break;
        }
        it.precision = prec[0];
        if (!(it.v = tune_variant_named(variant))) {
            rc = server_error("no variant \"%s\"", variant);
            break;
        }
        const char *p = cfg;
        for (int i = 0; i < it.v->nparams && !rc; i++) {
            char *end;
            it.cfg[i] = (int)strtol(p, &end, 10);
            if (end == p || (*end && *end != ',')) rc = server_error("bad configuration \"%s\"", cfg);
            p = *end ? end + 1 : end;
        }
        if (rc) break;
        if (timeout > 0) alarm((unsigned)ceil(timeout) + 1);
        build_one(ctx, &dev, uplo, &it);
        alarm(0);
    }
    bchol_context_destroy(ctx);
    return rc;
}
