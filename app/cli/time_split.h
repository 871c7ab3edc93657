// The split of a command's wall clock, from the process's start to the last byte of its answer
// (--timing): launch (the loader, static initialisation and argument parsing, up to the
// command), start-up (what the command waited for the GPUs' contexts, peer access and pinned
// buffers after its input was in), input (opening and reading, or generating, what it
// computes on), compute (the job) and output (the answer written and flushed). The phases are
// taken on the command's own thread one after another, so they add up to the time of the last
// byte; start-up work done in the background while the input is read counts only for the wait
// it leaves, and its own length is given beside. What the process spends after the last byte
// (its exit: at once, or through the full teardown of the GPU runtime and the rest with
// WARPLAB_FULL_EXIT=1, process_exit.h) is not seen here: the wall clock of the whole process,
// taken outside it, less the last byte's time. The line says which exit follows.
#pragma once
#include <chrono>
#include <string>

namespace warplab::cli {

class TimeSplit {
public:
    enum Phase { StartUp, Input, Compute, Output, kPhases };

    // The command starts: launch = now - the process's start.
    TimeSplit();
    // The time since the last mark (or the construction) goes to `p`.
    void mark(Phase p);
    // Moves `seconds` from one phase to another (a job that read its input inside counts that
    // reading as input).
    void move(Phase from, Phase to, double seconds);
    // The length of background start-up work (GPU contexts while the input was read), for the line.
    void setBackground(double seconds, const std::string& what);
    double seconds(Phase p) const { return phase_[p]; }
    double launchSeconds() const { return launch_; }  // < 0 where the process start is not known
    double lastByteSeconds() const;                    // launch + every phase

    // "split: dm: last byte 1.234 s after the process started = launch 0.012 + start-up 0.100
    // + input 0.200 + compute 0.900 + output 0.022 s (background: GPU contexts 0.350 s); exit: ..."
    std::string line(const std::string& command) const;
    void print(const std::string& command) const;  // the line on stderr

private:
    std::chrono::steady_clock::time_point last_;
    double launch_ = -1;
    double phase_[kPhases] = {0, 0, 0, 0};
    double background_ = -1;
    std::string backgroundWhat_;
};

// Seconds from this process's start to now (Linux: /proc/self/stat against CLOCK_BOOTTIME, to
// the kernel's clock tick, 10 ms); -1 where not known.
double secondsSinceProcessStart();

}  // namespace warplab::cli
