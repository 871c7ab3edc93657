#include "app/cli/process_exit.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <unistd.h>

#include "app/cli/common_options.h"

// Builds that check at exit: the sanitizers' reports (LeakSanitizer's leak check, a
// ThreadSanitizer run's exit code) and coverage counters are written by exit handlers.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WARPLAB_CHECKS_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define WARPLAB_CHECKS_AT_EXIT 1
#endif
#endif

// Present only where the program was built for coverage (gcc --coverage, clang's profile).
extern "C" {
__attribute__((weak)) void __gcov_init(void*);
__attribute__((weak)) int __llvm_profile_write_file(void);
}

namespace warplab::cli {

bool fullTeardownAtExit() {
#if defined(WARPLAB_CHECKS_AT_EXIT)
    return true;
#else
    if (__gcov_init || __llvm_profile_write_file) return true;
    const char* v = std::getenv("WARPLAB_FULL_EXIT");
    return v && *v && std::strcmp(v, "0") != 0;
#endif
}

int leave(int code) {
    std::cout.flush();
    const bool written = static_cast<bool>(std::cout) && std::fflush(stdout) == 0;
    if (!written && code == kExitOk) {
        std::fprintf(stderr, "warplab-cli: error: stdout: write failed\n");
        code = kExitFailure;
    }
    std::cerr.flush();
    std::clog.flush();
    std::fflush(nullptr);
    if (fullTeardownAtExit()) return code;
    ::_exit(code);
}

}  // namespace warplab::cli
