// Your own tasks farmed out on MPI with hetscale's task farm (run::TaskFarm,
// docs/tasks.md): the primes below 400,000 counted in 64 ranges of unequal
// cost, handed out by adaptive+ to the clients as they ask; rank 0 checks the
// sum against a serial count and says where each client's time went.
//
//   mpiexec -np 4 task_farm
//
// Built against an installed hetscale (tests/install/consumer):
//   find_package(hetscale REQUIRED)
//   target_link_libraries(task_farm PRIVATE hetscale::mpi)
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "hetscale/mpi/farm.hpp"
#include "hetscale/run/task_farm.hpp"

namespace {

bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

std::uint64_t primes_in(std::uint64_t from, std::uint64_t to) {
  std::uint64_t count = 0;
  for (std::uint64_t n = from; n < to; ++n) count += is_prime(n) ? 1 : 0;
  return count;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace hetscale;
  mpi::MpiSession session(argc, argv);
  constexpr std::uint64_t limit = 400000, ranges = 64;

  // Every rank builds the farm; the clients run this function on the
  // payloads the server hands them ("FROM TO": count the primes in [FROM, TO)).
  run::TaskFarm farm(
      [](const run::TaskAttempt& task) {
        std::uint64_t from = 0, to = 0;
        std::sscanf(std::string(task.payload).c_str(), "%lu %lu", &from, &to);
        run::TaskResult result;
        result.data = std::to_string(primes_in(from, to));
        return result;
      },
      run::FarmSettings{});  // adaptive+, no emulated speeds, no retries

  std::uint64_t total = 0;
  if (farm.is_server()) {
    std::vector<run::Task> tasks;
    for (std::uint64_t i = 0; i < ranges; ++i)
      tasks.push_back({i, std::to_string(limit * i / ranges) + " " + std::to_string(limit * (i + 1) / ranges)});
    for (const auto& report : farm.map(tasks)) total += std::stoull(report.result.data);
  }
  const auto run = farm.finish();  // the clients serve until here
  if (!farm.is_server()) return 0;

  const std::uint64_t serial = primes_in(0, limit);
  std::printf("task_farm: %lu tasks on %zu clients: %lu primes below %lu %s\n", ranges, farm.clients(), total, limit,
              total == serial ? "(the serial count)" : "(NOT the serial count)");
  for (std::size_t i = 0; i < run->record.nodes.size(); ++i)
    std::printf("  %s: %zu tasks, busy %.3f s of t_par %.3f s\n", run->record.nodes[i].name.c_str(),
                run->clients[i].tasks, run->clients[i].busy_seconds, run->record.t_par);
  return total == serial ? 0 : 1;
}
