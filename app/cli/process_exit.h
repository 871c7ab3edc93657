// How warplab-cli leaves once a command is done. By then every output is complete: files are
// written, closed and renamed into place by the command itself (HDF5's own exit clean-up is off,
// io/hdf5_handles.cpp), MPI is finalised, and only the process-wide teardown is left: static
// destructors, the GPU runtime destroying its contexts, the pinned host memory given back. So
// after the standard streams are flushed (a failed flush of stdout is an error) the process
// ends at once (_exit), unless the full teardown is asked for: WARPLAB_FULL_EXIT=1 (to time
// both, or to look for a fault there), or a build whose checks run at exit (AddressSanitizer's
// leak check, ThreadSanitizer, coverage counters), which always get it. Measured on GPU
// machines, the time after the last byte is the same either way (0.2-0.5 s): the kernel and the
// driver tearing the process down. What ending at once does buy: a command refused before its
// job need not wait for the GPUs' start-up (gpu_start_up.h).
#pragma once

namespace warplab::cli {

// Whether the process ends through the full teardown (exit) rather than _exit.
bool fullTeardownAtExit();

// Flushes stdout and stderr (C and C++ streams), then, unless fullTeardownAtExit(), ends the
// process with `code`; otherwise returns the code for main to return. A flush of stdout that
// fails turns a success into exit code 1 with a message, as a failed write in a command does.
int leave(int code);

}  // namespace warplab::cli
