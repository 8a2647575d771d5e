/* A native backtrace for a process that dies of a fatal signal, where no debugger is installed
 * (issue 26's AOTInductor crash on the device machine, docs/gpu/aoti_load_repro.py). Preloaded
 * (LD_PRELOAD), it installs a handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT that
 * writes to stderr the signal, the faulting address, the instruction pointer with the shared
 * object holding it (and that object's nearest exported symbol), then the frames glibc's
 * backtrace() unwinds; it then lets the signal kill the process as it would have.
 * Build: cc -shared -fPIC -O1 -o segv_backtrace.so segv_backtrace.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

/* Writes text to stderr without stdio's locks (the handler may interrupt them). */
static void say(const char* text) {
    ssize_t ignored = write(STDERR_FILENO, text, strlen(text));
    (void)ignored;
}

/* Writes where address lies: its shared object, the offset in it, the nearest exported symbol. */
static void say_where(const char* what, void* address) {
    char line[1024];
    Dl_info info;
    if (dladdr(address, &info) && info.dli_fname) {
        snprintf(line, sizeof line, "%s %p: %s+0x%lx (%s+0x%lx)\n", what, address, info.dli_fname,
                 (unsigned long)((char*)address - (char*)info.dli_fbase), info.dli_sname ? info.dli_sname : "?",
                 info.dli_saddr ? (unsigned long)((char*)address - (char*)info.dli_saddr) : 0UL);
    } else {
        snprintf(line, sizeof line, "%s %p: in no shared object\n", what, address);
    }
    say(line);
}

/* The handler: what died and where, the unwound frames, then the default action. */
static void on_fatal_signal(int signal_number, siginfo_t* info, void* context) {
    char line[256];
    snprintf(line, sizeof line, "\nsegv_backtrace: signal %d (%s), fault address %p\n", signal_number,
             strsignal(signal_number), info ? info->si_addr : NULL);
    say(line);
#if defined(__x86_64__)
    ucontext_t* registers = (ucontext_t*)context;
    say_where("segv_backtrace: instruction", (void*)registers->uc_mcontext.gregs[REG_RIP]);
#else
    (void)context;
#endif
    void* frames[64];
    int count = backtrace(frames, 64);
    say("segv_backtrace: frames\n");
    for (int i = 0; i < count; ++i) say_where("  frame", frames[i]);
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

/* Installs the handler on an alternate stack (a stack overflow is a SIGSEGV too) as the library loads. */
__attribute__((constructor)) static void install(void) {
    static char alternate[1 << 16];
    stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate, .ss_flags = 0};
    sigaltstack(&stack, NULL);
    void* warm[1];
    backtrace(warm, 1); /* loads libgcc_s now, not inside the handler */
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fatal_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (unsigned i = 0; i < sizeof fatal / sizeof fatal[0]; ++i) sigaction(fatal[i], &action, NULL);
}
