/* Crash reports of the libFuzzer targets. PoCL's LLVM installs its crash handlers
 * (SIGABRT, SIGILL, SIGFPE, SIGBUS, SIGSEGV, SIGINT, SIGTERM, ...) when the first context
 * finds its device, which happens in LLVMFuzzerInitialize, and libFuzzer then installs its
 * own only where a signal still has the default action (SIGSEGV: chained). So an abort
 * (a failed FZ_REQUIRE, an assert, std::terminate) killed the fuzzer by a bare SIGABRT: no
 * "deadly signal" report, no stack, no crash- file with the input. The targets save the
 * handlers before making their context and put them back after it; LLVM registers its
 * handlers once per process and does not take them again. */
#ifndef FUZZ_SIGNALS_H
#define FUZZ_SIGNALS_H

#include <signal.h>
#include <stddef.h>

static const int fz_signals[] = {SIGABRT, SIGILL,  SIGFPE,  SIGBUS,  SIGSEGV, SIGINT,  SIGTERM,
                                 SIGQUIT, SIGTRAP, SIGSYS,  SIGXCPU, SIGXFSZ, SIGHUP,  SIGUSR2};
#define FZ_NSIGNALS (sizeof fz_signals / sizeof fz_signals[0])

static inline void fz_save_signals(struct sigaction saved[FZ_NSIGNALS]) {
    for (size_t i = 0; i < FZ_NSIGNALS; i++)
        sigaction(fz_signals[i], NULL, &saved[i]);
}

static inline void fz_restore_signals(const struct sigaction saved[FZ_NSIGNALS]) {
    for (size_t i = 0; i < FZ_NSIGNALS; i++)
        sigaction(fz_signals[i], &saved[i], NULL);
}

#endif
