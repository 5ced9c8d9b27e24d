#include "hetscale/measure/measure_launch.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/io/child_process.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/comm_profile.hpp"

// LLVM's OpenMP runtime, as the build found it (CMakeLists.txt); builds of
// these sources for other programs (the SMPI one) launch nothing.
#ifndef HETSCALE_LIBOMP
#define HETSCALE_LIBOMP ""
#endif

namespace hetscale::measure {
namespace {

// An output file's absolute path ("" for none); InputError when its folder
// cannot take it.
std::string writable_output(const char* field, const std::string& path) {
  if (path.empty()) return "";
  const auto absolute = std::filesystem::absolute(path);
  const auto folder = absolute.parent_path();
  if (access(folder.c_str(), W_OK) != 0)
    throw InputError(field, path,
                     fmt::format("cannot be written: the folder {} {}", folder.string(),
                                 access(folder.c_str(), F_OK) == 0 ? "is not writable" : "does not exist"));
  return absolute.string();
}

// The trace's folder, made when missing (every rank may make it at once).
std::string trace_folder(const std::string& path) {
  if (path.empty()) return "";
  const auto absolute = std::filesystem::absolute(path);
  std::error_code error;
  std::filesystem::create_directories(absolute, error);
  if (!std::filesystem::is_directory(absolute))
    throw InputError(
        "trace", path,
        std::filesystem::exists(absolute) ? "is a file, not a folder" : "cannot be made: " + error.message());
  if (access(absolute.c_str(), W_OK) != 0) throw InputError("trace", path, "is a folder that is not writable");
  return absolute.string();
}

// One speed per rank when the ranks are known.
void require_one_per_rank(const std::vector<double>& speeds, const char* field, std::size_t ranks) {
  if (ranks && speeds.size() != ranks)
    throw InputError(field, "", fmt::format("gives {} speeds for {} ranks: one per rank", speeds.size(), ranks));
}

// Emulated speeds, each in (0, 1]: relative to this machine's.
std::vector<double> within_this_machine(const std::string& text, const char* field) {
  const auto speeds = io::parse_positive_list(text, field);
  for (std::size_t i = 0; i < speeds.size(); ++i)
    if (speeds[i] > 1.0)
      throw InputError(field, fmt::format("item {}", i + 1),
                       fmt::format("must be in (0, 1] (relative to this machine), got {:g}", speeds[i]));
  return speeds;
}

double positive_number(const std::string& text, const char* field) {
  const auto values = io::parse_number_list(text, field);
  if (values.size() != 1 || !(values.front() > 0.0)) throw InputError(field, text, "must be a number > 0");
  return values.front();
}

// This host's speed in `platform`: relative to its reference, or to its fastest node.
double host_speed(const Platform& platform, const std::string& path, const std::string& host) {
  const PlatformNode* node = platform.find(host);
  if (!node)
    throw InputError(path, fmt::format("node '{}'", host),
                     "is the host of a rank but not in the platform; every host that runs a rank must be listed");
  auto relative = platform.relative_speeds().value_or(platform.declared_speeds());
  if (!platform.relative_speeds()) {
    const double fastest = *std::max_element(relative.begin(), relative.end());
    for (double& speed : relative) speed /= fastest;
  }
  return relative[static_cast<std::size_t>(node - platform.nodes.data())];
}

pid_t child = 0;
extern "C" void forward_signal(int signal) {
  if (child > 0) kill(child, signal);
}

}  // namespace

MeasureSettings measure_settings(const MeasureRequest& request, std::size_t ranks, const std::string& host) {
  MeasureSettings settings;
  settings.program = request.program.empty() ? "" : request.program.front();
  settings.out = writable_output("out", request.out);
  settings.talp_json = writable_output("talp-json", request.talp_json);
  settings.trace = trace_folder(request.trace);
  settings.time_every_call = request.time_every_call;
  if (!request.speeds.empty()) {
    settings.speeds = io::parse_positive_list(request.speeds, "speeds");
    require_one_per_rank(settings.speeds, "speeds", ranks);
    settings.speeds_source = "given per rank (speeds)";
  }
  // The platform: this rank's speed is its host's; its network, unless a
  // latency or bandwidth is given, the transfer model's.
  if (!request.platform.empty()) {
    const Platform platform = read_platform(request.platform);
    settings.speeds = {host_speed(platform, request.platform, host)};
    settings.speeds_source = fmt::format("platform {} (each rank's host by name)", request.platform);
    if (platform.network && request.latency.empty() && request.bandwidth.empty()) {
      settings.latency = platform.network->latency_s;
      settings.bandwidth = platform.network->bandwidth_Bps;
      settings.transfer_model_source =
          fmt::format("platform {}'s network (latency {:g} s, bandwidth {:g} bytes/s)", request.platform,
                      platform.network->latency_s, platform.network->bandwidth_Bps);
    }
  }
  // A communication profile (hetscale bench comm): its point-to-point send
  // cost, T_send = a + b N for N doubles, is the transfer model: latency a,
  // bandwidth 8 / b bytes/s; before the platform's network.
  if (!request.comm_profile.empty()) {
    const CommProfile profile = read_comm_profile(request.comm_profile);
    if (!(profile.costs.send_per_element > 0.0))
      throw InputError(request.comm_profile, "costs.send.per_element",
                       "must be > 0 for a transfer model (bandwidth = 8 bytes / seconds per double)");
    if (request.latency.empty() && request.bandwidth.empty()) {
      settings.latency = std::max(profile.costs.send_intercept, 1e-9);
      settings.bandwidth = 8.0 / profile.costs.send_per_element;
      settings.transfer_model_source = fmt::format(
          "comm profile {}'s send cost (latency {:g} s, bandwidth 8 bytes / {:g} s per double = {:g} bytes/s)",
          request.comm_profile, *settings.latency, profile.costs.send_per_element, *settings.bandwidth);
    }
  }
  // Emulated speeds: the library holds each rank's computation back to v of its time on a CPU.
  if (!request.emulate_speeds.empty()) {
    settings.emulated_speeds = within_this_machine(request.emulate_speeds, "emulate-speeds");
    require_one_per_rank(settings.emulated_speeds, "emulate-speeds", ranks);
    if (settings.speeds.empty()) {
      settings.speeds = settings.emulated_speeds;
      settings.speeds_source = "emulated (emulate-speeds: computation held back per rank)";
    }
  }
  // Emulated thread speeds: the OpenMP tool holds thread t of each team back to v_t in parallel regions.
  if (!request.emulate_thread_speeds.empty()) {
    if (!request.emulate_speeds.empty())
      throw InputError("emulate-thread-speeds", request.emulate_thread_speeds,
                       "cannot be combined with emulate-speeds (emulate a rank's node or its threads' cores)");
    settings.emulated_thread_speeds = within_this_machine(request.emulate_thread_speeds, "emulate-thread-speeds");
  }
  if (!request.latency.empty()) settings.latency = positive_number(request.latency, "latency");
  if (!request.bandwidth.empty()) settings.bandwidth = positive_number(request.bandwidth, "bandwidth");
  return settings;
}

std::string program_to_run(const std::string& program) {
  if (const auto path = io::program_path(program)) return *path;
  if (program.find('/') != std::string::npos)
    throw InputError("PROGRAM", program,
                     access(program.c_str(), F_OK) == 0 ? "is not an executable file" : "does not exist");
  throw InputError("PROGRAM", program, "is not found in PATH (give a path, e.g. ./" + program + ")");
}

std::string offload_plugin_folder(const std::string& library_folder) {
  const auto folder = std::filesystem::path(library_folder) / "offload";
  std::error_code error;
  return std::filesystem::exists(folder / "libomptarget.rtl.x86_64.so", error) ? folder.string() : "";
}

MeasuredExit run_measured(const std::string& path, const std::vector<std::string>& arguments,
                          const std::string& preload, const MeasureSettings& settings, const std::string& libraries) {
  const char* preloaded_before = std::getenv("LD_PRELOAD");
  const std::string preloaded =
      preload + (preloaded_before && *preloaded_before ? std::string(":") + preloaded_before : "");
  const auto environment = settings.to_environment();
  child = fork();
  if (child < 0) throw std::runtime_error(fmt::format("cannot start {}: {}", path, std::strerror(errno)));
  if (child == 0) {
    setenv("LD_PRELOAD", preloaded.c_str(), 1);
    if (!libraries.empty()) {
      const char* before = std::getenv("LD_LIBRARY_PATH");
      setenv("LD_LIBRARY_PATH", (libraries + (before && *before ? std::string(":") + before : "")).c_str(), 1);
    }
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> argv{const_cast<char*>(path.c_str())};
    for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    execv(path.c_str(), argv.data());
    std::fprintf(stderr, "hetscale: PROGRAM %s: cannot be started: %s\n", path.c_str(), std::strerror(errno));
    _exit(127);
  }
  std::signal(SIGINT, forward_signal);
  std::signal(SIGTERM, forward_signal);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  MeasuredExit exit;
  if (WIFEXITED(status)) {
    exit.code = WEXITSTATUS(status);
  } else {
    exit.signal = WTERMSIG(status);
    exit.code = 128 + *exit.signal;
  }
  return exit;
}

std::string interposition_library(const std::string& folder, const std::string& program) {
  const auto in_folder = [&](const char* name) { return (std::filesystem::path(folder) / name).string(); };
  try {
    if (!program.empty() && io::run_program({"ldd", program}).output.find("libmpich.so") != std::string::npos)
      return in_folder("libhetscale_measure_mpich.so");
  } catch (const io::ProgramUnavailable&) {
    // no ldd: Open MPI's, the default
  }
  return in_folder("libhetscale_measure.so");
}

std::string preload_list(const MeasureLaunch& launch, const std::string& library) {
  std::string list = launch.preload_first.empty() ? "" : launch.preload_first + ":";
  if (launch.openmp) {
    if (std::string(HETSCALE_LIBOMP).empty())
      throw InputError("openmp", "",
                       "needs LLVM's OpenMP runtime (Debian's libomp-14-dev), not found when hetscale was built");
    list += std::string(HETSCALE_LIBOMP) + ":";
  }
  return list + library;
}

MeasuredExit measure_program(const MeasureRequest& request, const MeasureLaunch& asked) {
  MeasureLaunch launch = asked;  // threads are emulated by the OpenMP tool: on LLVM's runtime
  launch.openmp = launch.openmp || !request.emulate_thread_speeds.empty();
  if (request.program.empty())
    throw InputError("PROGRAM", "", "missing: hetscale measure [options] -- PROGRAM [ARGS...]");
  const std::string program = program_to_run(request.program.front());
  const std::string library = interposition_library(launch.library_folder, program);
  if (access(library.c_str(), R_OK) != 0)
    throw InputError("measure", library,
                     "the interposition library for the program's MPI is missing (build or install hetscale again; "
                     "MPICH's needs Debian's libmpich-dev when hetscale is built)");
  const auto settings = measure_settings(request, launch.ranks, launch.host);
  const std::string preload = preload_list(launch, library);
  if (launch.openmp && launch.speaker)
    launch.say(fmt::format("hetscale: the program runs on LLVM's OpenMP runtime ({}), preloaded\n", HETSCALE_LIBOMP));
  const auto started = std::filesystem::file_time_type::clock::now();
  const auto exit = run_measured(program, std::vector<std::string>(request.program.begin() + 1, request.program.end()),
                                 preload, settings, offload_plugin_folder(launch.library_folder));
  if (!settings.out.empty() && launch.speaker) {
    std::error_code error;
    const bool written = std::filesystem::exists(settings.out, error) &&
                         std::filesystem::last_write_time(settings.out, error) >= started;
    if (!written)
      launch.say(fmt::format("hetscale: no run record written to {}: {} {} before its MPI_Finalize completed\n",
                             settings.out, request.program.front(),
                             exit.signal ? fmt::format("was killed by signal {}", *exit.signal)
                                         : fmt::format("exited with code {}", exit.code)));
  }
  return exit;
}

}  // namespace hetscale::measure
