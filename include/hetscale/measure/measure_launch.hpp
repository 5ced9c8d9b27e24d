#pragma once
// `hetscale measure` on one rank (docs/measure.md): its options checked and
// turned into the interposition library's settings, then the user's program
// run as this process's child with the library preloaded and the settings
// in its environment. The program keeps its stdin, stdout, stderr and exit
// code.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hetscale/measure/measure_settings.hpp"

namespace hetscale::measure {

// What the user asked, as given.
struct MeasureRequest {
  std::vector<std::string> program;  // PROGRAM and its arguments
  std::string out, talp_json;        // paths; empty: none
  std::string speeds;                // v1,v2,... per rank
  std::string emulate_speeds;        // v1,v2,... per rank, each in (0, 1]
  std::string emulate_thread_speeds;  // v1,v2,... per OpenMP thread number, each in (0, 1] (implies LLVM's runtime)
  std::string platform;              // a platform file: this host's speed, its network
  std::string comm_profile;          // a communication profile: its send cost is the transfer model
  std::string latency, bandwidth;    // the transfer model, given
  std::string trace;                 // a folder for the run's trace (made when missing); empty: none
  bool time_every_call = false;      // time both ends of every call (no runs of short calls)
};

// The settings of this rank's library. `ranks`: the ranks the launcher
// started (0: unknown); `host`: this rank's host. Paths become absolute; the
// speeds are the given ones, this host's in the platform (relative to its
// reference, or to its fastest node), or the emulated ones; the transfer
// model is the given one, else the profile's send cost, else the platform's
// network (none: calibrated at MPI_Init). Throws InputError whose source is
// the request's field ("out", "talp-json", "speeds", "emulate-speeds",
// "emulate-thread-speeds", "latency", "bandwidth", "trace") or a file and its field.
MeasureSettings measure_settings(const MeasureRequest& request, std::size_t ranks, const std::string& host);

// PROGRAM as execvp would run it (a path, or found in PATH); InputError with
// the source "PROGRAM" saying why it cannot run.
std::string program_to_run(const std::string& program);

// How the program ended.
struct MeasuredExit {
  int code = 0;               // its exit code; 128 + the signal when one ended it
  std::optional<int> signal;  // the signal that ended it
};

// Runs `path` with `arguments` (argv[1..]) as this process's child, `preload`
// first in LD_PRELOAD, `libraries` (when not empty) first in LD_LIBRARY_PATH
// and the settings in its environment, forwards SIGINT and SIGTERM to it,
// and waits for it. Throws std::runtime_error when it cannot be started.
MeasuredExit run_measured(const std::string& path, const std::vector<std::string>& arguments,
                          const std::string& preload, const MeasureSettings& settings,
                          const std::string& libraries = "");

// The folder of the offload host plugin that tells the interposition
// library its devices' work (src/measure/offload/host_plugin.cpp), in the
// interposition libraries' folder; "" when hetscale was built without it.
std::string offload_plugin_folder(const std::string& library_folder);

// The interposition library in `folder` for the MPI `program` is linked
// with: MPICH's (libhetscale_measure_mpich.so) when the dynamic linker
// resolves a libmpich for it (ldd), Open MPI's (libhetscale_measure.so)
// otherwise, and for no program.
std::string interposition_library(const std::string& folder, const std::string& program = "");

// Where and how `measure_program` runs.
struct MeasureLaunch {
  std::string library_folder;  // the interposition libraries'
  std::string preload_first;   // a library to go before it in LD_PRELOAD (a sanitizer's run time; "" none)
  std::size_t ranks = 0;       // the ranks the launcher started (0: unknown)
  std::string host;            // this rank's
  bool speaker = true;         // says when no run record was written (rank 0)
  std::function<void(const std::string& line)> say;
  bool openmp = false;  // LLVM's OpenMP runtime preloaded too (its tool interface: the OpenMP states)
};

// LD_PRELOAD's list for `library`: the launch's first library, LLVM's
// OpenMP runtime when asked (InputError naming "openmp" when hetscale was
// built without it), then it.
std::string preload_list(const MeasureLaunch& launch, const std::string& library);

// Runs the request's program measured (run_measured, with its MPI's
// interposition library; on LLVM's OpenMP runtime also when threads are
// emulated), and says when a run record was asked for and none was written
// (the program ended before its MPI_Finalize completed). Throws InputError
// naming PROGRAM (missing, or not runnable), the missing library, or a
// setting as measure_settings does.
MeasuredExit measure_program(const MeasureRequest& request, const MeasureLaunch& launch);

}  // namespace hetscale::measure
