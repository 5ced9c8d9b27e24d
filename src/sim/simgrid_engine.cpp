#include "hetscale/sim/simgrid_engine.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#include <fmt/core.h>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>
#include <simgrid/version.h>

#include "hetscale/sim/simgrid_platform.hpp"

namespace hetscale::sim {

std::vector<std::string> simgrid_arguments() {
  return {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0", "--cfg=contexts/stack-size:64",
          "--log=root.thresh:critical", "--log=xbt_cfg.thresh:critical"};
}

std::string simgrid_version() { return fmt::format("{}.{}", SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR); }

std::vector<simgrid::s4u::Host*> build_simgrid_platform(simgrid::s4u::Engine&, const Platform& platform) {
  namespace sg4 = simgrid::s4u;
  if (platform.nodes.empty()) throw std::invalid_argument("a platform for the simulator needs at least one node");
  auto* zone = sg4::create_star_zone(platform.name.empty() ? "hetscale" : platform.name);
  const SimulatedLink link = private_link(platform);
  const sg4::Link* backbone = nullptr;
  if (platform.network && platform.network->backbone)
    backbone = zone->create_link("backbone", platform.network->backbone->bandwidth_Bps)
                   ->set_latency(platform.network->backbone->latency_s)
                   ->seal();
  std::vector<sg4::Host*> hosts;
  for (std::size_t i = 0; i < platform.nodes.size(); ++i) {
    const auto& node = platform.nodes[i];
    auto* host = zone->create_host(node.name, simulated_flops(platform, i));
    if (!node.availability.empty()) {
      std::string points;
      for (const auto& point : simulated_availability(node))
        points += fmt::format("{} {}\n", point.time_s, point.fraction);
      host->set_speed_profile(simgrid::kernel::profile::ProfileBuilder::from_string(
          node.name + "-availability", points, node.availability_period_s > 0.0 ? node.availability_period_s : -1.0));
    }
    host->seal();
    const auto* own =
        zone->create_split_duplex_link(node.name + "-link", link.bandwidth_Bps)->set_latency(link.latency_s)->seal();
    // A route is the sender's link up (and the backbone) and the receiver's
    // link down; the star zone counts a link met twice once.
    std::vector<sg4::LinkInRoute> route{{own, sg4::LinkInRoute::Direction::UP}};
    if (backbone) route.emplace_back(backbone);
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, route, true);
    hosts.push_back(host);
  }
  zone->seal();
  return hosts;
}

namespace {

// The child's answer on the pipe: one status byte, then the text.
constexpr char answer_ok = 'o', answer_invalid = 'i', answer_failed = 'f';

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;
    done += static_cast<std::size_t>(written);
  }
}

}  // namespace

std::string run_isolated(const std::function<std::string()>& simulation) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) throw std::runtime_error("cannot create a pipe for the simulation");
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("cannot fork for the simulation");
  if (child == 0) {
    ::close(pipe_fds[0]);
    std::string answer;
    try {
      answer = answer_ok + simulation();
    } catch (const std::invalid_argument& error) {
      answer = answer_invalid + std::string(error.what());
    } catch (const std::exception& error) {
      answer = answer_failed + std::string(error.what());
    }
    write_all(pipe_fds[1], answer);
    ::close(pipe_fds[1]);
    std::fflush(nullptr);
    std::_Exit(0);
  }
  ::close(pipe_fds[1]);
  std::string answer;
  char buffer[65536];
  for (;;) {
    const ssize_t got = ::read(pipe_fds[0], buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (answer.empty())
    throw std::runtime_error(WIFSIGNALED(status) ? fmt::format("the simulation died of signal {}", WTERMSIG(status))
                                                 : "the simulation ended without an answer");
  const std::string text = answer.substr(1);
  if (answer[0] == answer_invalid) throw std::invalid_argument(text);
  if (answer[0] != answer_ok) throw std::runtime_error(text);
  return text;
}

}  // namespace hetscale::sim
