// `hetscale measure [options] -- PROGRAM [ARGS...]`: runs any MPI program on
// this rank with libhetscale_measure.so preloaded (docs/measure.md). Started
// by mpiexec on every rank, each hetscale starts PROGRAM as its child with the
// library first in LD_PRELOAD and the options in HETSCALE_MEASURE_*; rank 0's
// library writes the run record inside MPI_Finalize. PROGRAM keeps its
// stdin, stdout, stderr and exit code; hetscale adds only `hetscale:` lines.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli.hpp"
#include "hetscale/io/child_process.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/platform/platform.hpp"
#include "hetscale/record/comm_profile.hpp"

namespace hetscale::cli {
namespace {

struct MeasureCommand {
  std::vector<std::string> program;  // PROGRAM and its arguments
  std::string out, talp_json, speeds, emulate_speeds, platform, comm_profile, latency, bandwidth;
  bool library = false;
};

// The library: in the build beside this executable, installed in lib/hetscale;
// libhetscale_measure.so for Open MPI, libhetscale_measure_mpich.so for MPICH.
std::string library_path(const std::string& name = "libhetscale_measure.so") {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return helper_path(name, (self.parent_path() / name).string());
}

// The library for the MPI `program` is linked with: MPICH's when the dynamic
// linker resolves a libmpich for it (ldd), Open MPI's otherwise.
std::string library_for(const std::string& program) {
  try {
    if (io::run_program({"ldd", program}).output.find("libmpich.so") != std::string::npos)
      return library_path("libhetscale_measure_mpich.so");
  } catch (const io::ProgramUnavailable&) {
    // no ldd: Open MPI's, the default
  }
  return library_path();
}

// PROGRAM as execvp would find it, or an InputError saying why it cannot run.
std::string find_program(const std::string& program) {
  const auto runnable = [](const std::string& path) {
    struct stat status {};
    return stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && access(path.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) {
    if (!runnable(program))
      throw InputError("PROGRAM", program,
                       access(program.c_str(), F_OK) == 0 ? "is not an executable file" : "does not exist");
    return program;
  }
  const char* path = std::getenv("PATH");
  for (const auto& folder : io::split_at(path ? path : "", ':')) {
    const std::string candidate = std::string(folder.empty() ? "." : folder) + "/" + program;
    if (runnable(candidate)) return candidate;
  }
  throw InputError("PROGRAM", program, "is not found in PATH (give a path, e.g. ./" + program + ")");
}

// The ranks mpiexec started, when it says (Open MPI, MPICH); 0 if unknown.
// An output file's absolute path ("" for none); InputError when its folder
// cannot take it.
std::string writable_output(const char* option, const std::string& path) {
  if (path.empty()) return "";
  const auto absolute = std::filesystem::absolute(path);
  const auto folder = absolute.parent_path();
  if (access(folder.c_str(), W_OK) != 0)
    throw InputError(option, path, fmt::format("cannot be written: the folder {} {}", folder.string(),
                                               access(folder.c_str(), F_OK) == 0 ? "is not writable"
                                                                                  : "does not exist"));
  return absolute.string();
}

std::size_t launcher_size() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(variable); value && *value) return static_cast<std::size_t>(std::atol(value));
  return 0;
}

pid_t child = 0;
extern "C" void forward_signal(int signal) {
  if (child > 0) kill(child, signal);
}

Output start_measured(const MeasureCommand& command);

// Bad input is said once, by rank 0; every rank exits 2 without starting PROGRAM.
Output run_measure(const MeasureCommand& command) {
  try {
    return start_measured(command);
  } catch (const std::invalid_argument&) {
    if (launcher_rank() != 0) return {"", exit_bad_input};
    throw;
  }
}

// What goes first in LD_PRELOAD: the library, and in a build with AddressSanitizer
// (make test SANITIZE=address,...) the sanitizer's run time before it, which must
// come first in a program that was not built with it.
std::string preload_list(const std::string& library) {
  const std::string runtime = HETSCALE_SANITIZER_RUNTIME;
  return runtime.empty() ? library : runtime + ":" + library;
}

Output start_measured(const MeasureCommand& command) {
  if (command.library)
    return {preload_list(command.program.empty() ? library_path()
                                                 : library_for(find_program(command.program.front()))) +
            "\n"};
  if (command.program.empty())
    throw InputError("PROGRAM", "", "missing: hetscale measure [options] -- PROGRAM [ARGS...]");
  const std::string program = find_program(command.program.front());
  const std::string library = library_for(program);
  if (access(library.c_str(), R_OK) != 0)
    throw InputError("measure", library,
                     "the interposition library for the program's MPI is missing (build or install hetscale again; "
                     "MPICH's needs Debian's libmpich-dev when hetscale is built)");

  const std::string out = writable_output("--out", command.out);
  const std::size_t ranks = launcher_size();
  const std::string talp_json = writable_output("--talp-json", command.talp_json);
  if (!command.speeds.empty()) {
    const auto speeds = io::parse_positive_list(command.speeds, "--speeds");
    if (ranks && speeds.size() != ranks)
      throw InputError("--speeds", "", fmt::format("gives {} speeds for {} ranks: one per rank", speeds.size(), ranks));
  }
  // --platform: this rank's speed is its host's, relative to the platform's
  // reference (or to its fastest node when it names none); its network, unless
  // --latency or --bandwidth is given, is the transfer model's.
  std::string host_speed, model_latency = command.latency, model_bandwidth = command.bandwidth, model_source;
  if (!command.platform.empty()) {
    if (!command.speeds.empty()) throw InputError("--platform", "", "give --platform or --speeds, not both");
    const Platform platform = read_platform(command.platform);
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const PlatformNode* node = platform.find(host);
    if (!node)
      throw InputError(command.platform, fmt::format("node '{}'", host),
                       "is the host of a rank but not in the platform; every host that runs a rank must be listed");
    auto relative = platform.relative_speeds().value_or(platform.declared_speeds());
    double fastest = 0.0;
    for (double speed : relative) fastest = std::max(fastest, speed);
    if (!platform.relative_speeds())
      for (double& speed : relative) speed /= fastest;
    host_speed = fmt::format("{}", relative[static_cast<std::size_t>(node - platform.nodes.data())]);
    if (platform.network && command.latency.empty() && command.bandwidth.empty()) {
      model_latency = fmt::format("{}", platform.network->latency_s);
      model_bandwidth = fmt::format("{}", platform.network->bandwidth_Bps);
      model_source = fmt::format("platform {}'s network (latency {:g} s, bandwidth {:g} bytes/s)", command.platform,
                                 platform.network->latency_s, platform.network->bandwidth_Bps);
    }
  }
  // --comm-profile (hetscale bench comm): its point-to-point send cost, T_send =
  // a + b N for N doubles, is the transfer model: latency a, bandwidth 8 / b
  // bytes/s. It comes before the platform's network; --latency and
  // --bandwidth before both. With none of them the library calibrates.
  if (!command.comm_profile.empty()) {
    const CommProfile profile = read_comm_profile(command.comm_profile);
    if (!(profile.costs.send_per_element > 0.0))
      throw InputError(command.comm_profile, "costs.send.per_element",
                       "must be > 0 for a transfer model (bandwidth = 8 bytes / seconds per double)");
    if (command.latency.empty() && command.bandwidth.empty()) {
      const double latency = std::max(profile.costs.send_intercept, 1e-9);
      const double bandwidth = 8.0 / profile.costs.send_per_element;
      model_latency = fmt::format("{}", latency);
      model_bandwidth = fmt::format("{}", bandwidth);
      model_source = fmt::format(
          "comm profile {}'s send cost (latency {:g} s, bandwidth 8 bytes / {:g} s per double = {:g} bytes/s)",
          command.comm_profile, latency, profile.costs.send_per_element, bandwidth);
    }
  }
  // --emulate-speeds: the library holds each rank's computation back to v of its time on a CPU.
  if (!command.emulate_speeds.empty()) {
    const auto speeds = io::parse_positive_list(command.emulate_speeds, "--emulate-speeds");
    for (std::size_t i = 0; i < speeds.size(); ++i)
      if (speeds[i] > 1.0)
        throw InputError("--emulate-speeds", fmt::format("item {}", i + 1),
                         fmt::format("must be in (0, 1] (relative to this machine), got {:g}", speeds[i]));
    if (ranks && speeds.size() != ranks)
      throw InputError("--emulate-speeds", "",
                       fmt::format("gives {} speeds for {} ranks: one per rank", speeds.size(), ranks));
  }
  for (const auto& [option, value] : {std::pair{"--latency", &command.latency}, {"--bandwidth", &command.bandwidth}})
    if (!value->empty() && !(single_number(*value, option) > 0.0))
      throw InputError(option, *value, "must be a number > 0");

  const char* preload = std::getenv("LD_PRELOAD");
  const std::string preloaded = preload_list(library) + (preload && *preload ? std::string(":") + preload : "");
  const auto started = std::filesystem::file_time_type::clock::now();
  child = fork();
  if (child < 0) throw InputError("measure", "", fmt::format("cannot start {}: {}", program, std::strerror(errno)));
  if (child == 0) {
    setenv("LD_PRELOAD", preloaded.c_str(), 1);
    setenv("HETSCALE_MEASURE_PROGRAM", command.program.front().c_str(), 1);
    if (!out.empty()) setenv("HETSCALE_MEASURE_OUT", out.c_str(), 1);
    if (!talp_json.empty()) setenv("HETSCALE_MEASURE_TALP_JSON", talp_json.c_str(), 1);
    if (!command.emulate_speeds.empty()) setenv("HETSCALE_MEASURE_EMULATE_SPEEDS", command.emulate_speeds.c_str(), 1);
    const std::string& speeds = !host_speed.empty()      ? host_speed
                                : command.speeds.empty() ? command.emulate_speeds
                                                         : command.speeds;
    if (!speeds.empty()) {
      setenv("HETSCALE_MEASURE_SPEEDS", speeds.c_str(), 1);
      const std::string source = !host_speed.empty()
                                     ? fmt::format("platform {} (each rank's host by name)", command.platform)
                                 : command.speeds.empty() ? std::string("emulated (--emulate-speeds: computation held back per rank)")
                                                          : std::string("given (--speeds)");
      setenv("HETSCALE_MEASURE_SPEEDS_SOURCE", source.c_str(), 1);
    }
    if (!model_source.empty()) setenv("HETSCALE_MEASURE_MODEL_SOURCE", model_source.c_str(), 1);
    if (!model_latency.empty()) setenv("HETSCALE_MEASURE_LATENCY", model_latency.c_str(), 1);
    if (!model_bandwidth.empty()) setenv("HETSCALE_MEASURE_BANDWIDTH", model_bandwidth.c_str(), 1);
    std::vector<char*> arguments;
    arguments.push_back(const_cast<char*>(program.c_str()));
    for (std::size_t i = 1; i < command.program.size(); ++i)
      arguments.push_back(const_cast<char*>(command.program[i].c_str()));
    arguments.push_back(nullptr);
    execv(program.c_str(), arguments.data());
    std::fprintf(stderr, "hetscale: PROGRAM %s: cannot be started: %s\n", program.c_str(), std::strerror(errno));
    _exit(127);
  }
  std::signal(SIGINT, forward_signal);
  std::signal(SIGTERM, forward_signal);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (!out.empty() && launcher_rank() == 0) {
    std::error_code error;
    const bool written = std::filesystem::exists(out, error) && std::filesystem::last_write_time(out, error) >= started;
    if (!written)
      std::fprintf(stderr, "hetscale: no run record written to %s: %s %s before its MPI_Finalize completed\n",
                   out.c_str(), command.program.front().c_str(),
                   WIFEXITED(status) ? fmt::format("exited with code {}", code).c_str()
                                     : fmt::format("was killed by signal {}", WTERMSIG(status)).c_str());
  }
  return {"", code};
}

}  // namespace

void add_measure_command(CLI::App& measure_app, Actions& actions) {
  auto command = std::make_shared<MeasureCommand>();
  auto* measure = &measure_app;
  measure->add_option("PROGRAM", command->program, "the MPI program and its arguments, after --");
  measure->add_option("--out", command->out, "write the run record here (rank 0, atomically)");
  measure->add_option("--talp-json", command->talp_json,
                      "also write the run in DLB TALP's JSON layout here (popMetrics, process; times in ns)");
  measure->add_option("--speeds", command->speeds, "relative speed of each rank, v1,v2,... (default: all 1)");
  measure->add_option("--platform", command->platform,
                      "speeds from a platform file (JSON, or `hostname marked-speed` lines): each rank's host by "
                      "name; its network is the transfer model's");
  measure->add_option("--emulate-speeds", command->emulate_speeds,
                      "emulate rank i on a node of relative speed v_i in (0, 1]: its computation held back to take 1/v_i as "
                      "long (its MPI waits are not slowed)");
  measure->add_option("--comm-profile", command->comm_profile,
                      "the transfer model from a profile `hetscale bench comm` wrote (its send cost); default: "
                      "the --platform network, else calibrated at MPI_Init");
  measure->add_option("--latency", command->latency,
                      "the transfer model's latency in seconds (t_comm = latency + bytes / bandwidth)");
  measure->add_option("--bandwidth", command->bandwidth, "the transfer model's bandwidth in bytes/s");
  measure->add_flag("--library", command->library,
                    "print the interposition library's path, for mpiexec -x LD_PRELOAD=... PROGRAM: for "
                    "PROGRAM's MPI when one is given after --, else Open MPI's");
  measure->callback([command, &actions] { actions.action = [command] { return run_measure(*command); }; });
}

}  // namespace hetscale::cli
