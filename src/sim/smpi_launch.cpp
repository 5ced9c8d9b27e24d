#include "hetscale/sim/smpi_launch.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/sim/simgrid_platform.hpp"

namespace hetscale::sim {

namespace {

std::string platform_label(const Platform& platform) {
  return platform.source.empty() ? std::string("the platform") : platform.source;
}

// A few of the platform's node names, for a message.
std::string some_names(const Platform& platform) {
  std::string names;
  const std::size_t shown = std::min<std::size_t>(platform.nodes.size(), 4);
  for (std::size_t i = 0; i < shown; ++i) names += (i ? ", " : "") + platform.nodes[i].name;
  if (platform.nodes.size() > shown) names += fmt::format(", ... ({} nodes)", platform.nodes.size());
  return names;
}

void require_program(const std::string& path, const std::string& variable) {
  if (path.empty() || access(path.c_str(), X_OK) != 0)
    throw InputError(variable, "",
                     fmt::format("'{}' is not an executable program; build hetscale-smpi (cmake --build) or set {} "
                                 "to it",
                                 path, variable));
}

// What smpirun itself prints on stdout when the program exits with a code
// other than 0 (the code is the program's, and hetscale's own message has
// been said on stderr).
bool is_smpirun_report(const std::string& line) { return line.rfind("Execution failed with code ", 0) == 0; }

// Copies the program's output to stdout as it comes, line by line, less
// smpirun's reports.
void pass_output_through(int from) {
  std::string pending;
  char buffer[65536];
  auto emit = [](const std::string& line) {
    if (!is_smpirun_report(line)) std::fwrite(line.data(), 1, line.size(), stdout);
  };
  for (;;) {
    const ssize_t got = read(from, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(got));
    std::size_t start = 0;
    for (std::size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1)
      emit(pending.substr(start, end + 1 - start));
    pending.erase(0, start);
    std::fflush(stdout);
  }
  if (!pending.empty()) emit(pending);
  std::fflush(stdout);
}

}  // namespace

Platform select_nodes(const Platform& platform, const std::vector<std::string>& names, const std::string& option) {
  if (names.empty()) throw InputError(option, "", "names no host; give node names of " + platform_label(platform));
  Platform selected = platform;
  selected.nodes.clear();
  std::set<std::string> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const PlatformNode* node = platform.find(names[i]);
    if (!node)
      throw InputError(
          option, fmt::format("item {}", i + 1),
          fmt::format("no node '{}' in {}; its nodes: {}", names[i], platform_label(platform), some_names(platform)));
    if (!seen.insert(names[i]).second)
      throw InputError(option, fmt::format("item {}", i + 1),
                       fmt::format("node '{}' is given twice; one rank per host", names[i]));
    selected.nodes.push_back(*node);
  }
  return selected;
}

Platform first_nodes(const Platform& platform, std::size_t count, const std::string& option) {
  if (count < 1) throw InputError(option, "", "must ask for at least one host");
  if (count > platform.nodes.size())
    throw InputError(option, "",
                     fmt::format("asks for {} ranks but {} has {} hosts; one rank per host: at most {}", count,
                                 platform_label(platform), platform.nodes.size(), platform.nodes.size()));
  Platform selected = platform;
  selected.nodes.resize(count);
  return selected;
}

std::vector<std::string> smpi_configuration() {
  return {"--cfg=smpi/simulate-computation:no", "--cfg=smpi/wtime:0",
          "--cfg=smpi/lat-factor:0:1",          "--cfg=smpi/bw-factor:0:1",
          "--cfg=smpi/coll-selector:mpich",     "--log=root.thres:error"};
}

int run_in_simulator(const Platform& platform, const SmpiPrograms& programs, const std::vector<std::string>& arguments,
                     const std::string& smpirun_variable, const std::string& program_variable) {
  require_program(programs.smpirun, smpirun_variable);
  require_program(programs.hetscale_smpi, program_variable);
  std::string xml;
  try {
    xml = simgrid_platform_xml(platform);
  } catch (const std::invalid_argument& error) {
    throw InputError(platform_label(platform), "", fmt::format("cannot be simulated: {}", error.what()));
  }
  const io::TemporaryFolder folder("hetscale-smpi");
  const std::string xml_path = folder.path() + "/platform.xml", hostfile_path = folder.path() + "/hostfile";
  io::write_file_atomically(xml_path, xml);
  io::write_file_atomically(hostfile_path, simgrid_hostfile(platform));

  std::vector<std::string> command{programs.smpirun, "-quiet",      "-platform", xml_path,
                                   "-hostfile",      hostfile_path, "-np",       std::to_string(platform.nodes.size())};
  for (const auto& setting : smpi_configuration()) command.push_back(setting);
  command.push_back(programs.hetscale_smpi);
  command.insert(command.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);

  int output[2];
  if (pipe(output) != 0) throw std::runtime_error(fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error(fmt::format("cannot start smpirun: {}", std::strerror(errno)));
  if (child == 0) {
    close(output[0]);
    dup2(output[1], STDOUT_FILENO);
    close(output[1]);
    // One BLAS thread per simulated process, as one process per processor wants.
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
    execv(argv[0], argv.data());
    std::fprintf(stderr, "hetscale: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  close(output[1]);
  pass_output_through(output[0]);
  close(output[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(fmt::format("lost smpirun: {}", std::strerror(errno)));
  if (WIFSIGNALED(status))
    throw std::runtime_error(
        fmt::format("smpirun ended by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status))));
  const int code = WEXITSTATUS(status);
  if (code > 3) throw std::runtime_error(fmt::format("the simulation failed (smpirun exit code {})", code));
  return code;
}

Platform select_hosts(const Platform& platform, const std::string& hosts) {
  if (hosts.empty()) return platform;
  if (hosts.find_first_not_of("0123456789") == std::string::npos)
    return first_nodes(platform, io::parse_count(hosts, "hosts"), "hosts");
  const std::string names = hosts.front() == '@' ? io::read_text_file(hosts.substr(1)) : hosts;
  return select_nodes(platform, io::split_names(names), "hosts");
}

}  // namespace hetscale::sim
