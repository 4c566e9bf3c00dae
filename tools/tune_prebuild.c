/* Builds upcoming configurations of a size in worker threads while the main thread times
 * the current one. Each worker has its own bchol context on the tuning queue; what it
 * builds lands in the drivers' on-disk caches (bchol's binary cache on NVIDIA, PoCL's own),
 * so the main thread's build of the same program is a cache load. OpenCL builds are
 * thread-safe; the workers never enqueue anything. */
#include "tune.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 32

enum { UNCLAIMED, BUILDING, BUILT };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t threads[MAX_THREADS];
    int nthreads, stop;
    int next;     /* the next position of todo to claim */
    int consumed; /* the main thread's position: workers stay within lookahead of it */
    int lookahead;
    int count;
    int *state;
    const int *todo;
    const tune_item *items;
    tune_target target;
    char uplo;
    bchol_context *base;
} pb = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static void *worker(void *arg)
{
    bchol_context *ctx;
    if (bchol_context_create_from_queue(bchol_context_queue(pb.base), &ctx)) return NULL;
    pthread_mutex_lock(&pb.lock);
    for (;;) {
        while (!pb.stop && pb.next < pb.count && pb.next >= pb.consumed + pb.lookahead)
            pthread_cond_wait(&pb.cond, &pb.lock);
        if (pb.stop || pb.next >= pb.count) break;
        int k = pb.next++;
        pb.state[k] = BUILDING;
        const tune_item *it = &pb.items[pb.todo[k]];
        pthread_mutex_unlock(&pb.lock);
        tune_params p, eff;
        it->v->to_params(it->cfg, &p);
        it->v->prepare(ctx, &pb.target, pb.uplo, &p, &eff); /* a failure shows when measured */
        pthread_mutex_lock(&pb.lock);
        pb.state[k] = BUILT;
        pthread_cond_broadcast(&pb.cond);
    }
    pthread_mutex_unlock(&pb.lock);
    bchol_context_destroy(ctx);
    return NULL;
}

int tune_prebuild_start(bchol_context *base, const tune_target *t, char uplo,
                        const tune_item *items, const int *todo, int count, int threads)
{
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    pb.state = calloc((size_t)count + 1, sizeof *pb.state);
    if (!pb.state) return -1;
    pb.stop = 0;
    pb.next = 0;
    pb.consumed = 0;
    pb.lookahead = 2 * threads;
    pb.count = count;
    pb.todo = todo;
    pb.items = items;
    pb.target = *t;
    pb.uplo = uplo;
    pb.base = base;
    pb.nthreads = 0;
    for (int i = 0; i < threads; i++)
        if (!pthread_create(&pb.threads[pb.nthreads], NULL, worker, NULL)) pb.nthreads++;
    return 0;
}

void tune_prebuild_wait(int k)
{
    pthread_mutex_lock(&pb.lock);
    pb.consumed = k;
    if (pb.next <= k) pb.next = k + 1; /* not claimed yet: the main thread builds it itself */
    pthread_cond_broadcast(&pb.cond);
    while (pb.state[k] == BUILDING) pthread_cond_wait(&pb.cond, &pb.lock);
    pthread_mutex_unlock(&pb.lock);
}

void tune_prebuild_stop(void)
{
    pthread_mutex_lock(&pb.lock);
    pb.stop = 1;
    pthread_cond_broadcast(&pb.cond);
    pthread_mutex_unlock(&pb.lock);
    for (int i = 0; i < pb.nthreads; i++) pthread_join(pb.threads[i], NULL);
    pb.nthreads = 0;
    free(pb.state);
    pb.state = NULL;
}
