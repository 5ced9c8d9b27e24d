#include "hetscale/mpi/comm_benchmark.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <set>
#include <string_view>
#include <thread>

#include <fmt/chrono.h>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/measure/speed_benchmark.hpp"
#include "hetscale/io/host_and_time.hpp"
#include "model/statistics.hpp"
#include "mpi/polite.hpp"
#include "io/provenance_json.hpp"

namespace hetscale::mpi {

void validate_comm_benchmark_options(const CommBenchmarkOptions& options, int ranks) {
  if (ranks < 2)
    throw InputError("mpiexec", "",
                     fmt::format("bench comm needs at least 2 MPI ranks, got {}; run it as mpiexec -n P hetscale "
                                 "bench comm with P >= 2",
                                 ranks));
  for (std::size_t i = 0; i < options.sizes.size(); ++i)
    if (options.sizes[i] < 1 || options.sizes[i] > max_message_elements)
      throw InputError("sizes", fmt::format("item {}", i + 1),
                       fmt::format("must be a whole number of doubles from 1 to {}, got {}", max_message_elements,
                                   options.sizes[i]));
  if (const auto different = std::set<std::size_t>(options.sizes.begin(), options.sizes.end()).size(); different < 2)
    throw InputError(
        "sizes", "",
        fmt::format("needs two or more different message sizes to fit T_send = a + b N, got {}", different));
  if (options.repetitions < 1 || options.repetitions > max_repetitions)
    throw InputError("repetitions", "",
                     fmt::format("must be a whole number from 1 to {}, got {}", max_repetitions, options.repetitions));
  if (!std::isfinite(options.min_seconds) || options.min_seconds < 0.0)
    throw InputError("min-seconds", "", fmt::format("must be >= 0, got {:g}", options.min_seconds));
  if (options.structures && (options.structure_repetitions < 1 || options.structure_repetitions > max_repetitions))
    throw InputError(
        "structure_repetitions", "",
        fmt::format("must be a whole number from 1 to {}, got {}", max_repetitions, options.structure_repetitions));
  if (options.structures && (!std::isfinite(options.structure_min_seconds) || options.structure_min_seconds < 0.0))
    throw InputError("structure_min_seconds", "", fmt::format("must be >= 0, got {:g}", options.structure_min_seconds));
  if (!std::isfinite(options.seconds_per_kernel) || options.seconds_per_kernel <= 0.0)
    throw InputError("seconds_per_kernel", "", fmt::format("must be > 0, got {:g}", options.seconds_per_kernel));
}

namespace {

int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// After each synchronising barrier, rank 0 waits this long before it starts
// the clock, so that the other ranks have left the barrier and wait in the
// timed operation (asleep between polls, as the kernels' workers wait).
constexpr auto head_start = 4 * polite::default_max_pause;
// Rank 0 waits for acknowledgements polling this often, so that it notices
// them at once (it still sleeps, leaving the core to the others).
constexpr std::chrono::microseconds fine_pause{1};
constexpr int message_tag = 0, acknowledgement_tag = 1;

// A barrier, then rank 0's head start.
void synchronise(MPI_Comm group, int rank) {
  polite::barrier(group);
  if (rank == 0) std::this_thread::sleep_for(head_start);
}

// An empty message, waited for with fine polls.
void send_empty(int destination, MPI_Comm group) {
  MPI_Request request;
  MPI_Isend(nullptr, 0, MPI_BYTE, destination, acknowledgement_tag, group, &request);
  polite::wait(request, MPI_STATUS_IGNORE, fine_pause);
}

// `count` repetitions of `operation` (called with this rank's number in
// `group`), timed on rank 0 from its start until every other rank has
// completed the operation and its empty acknowledgement has reached rank 0,
// less `acknowledgement`, the time of one empty message; valid on rank 0.
// With `in_a_row` > 1 (back-to-back timing), each repetition is `in_a_row`
// operations after one barrier with no head start, and its time is their mean.
template <class Operation>
std::vector<double> time_to_completion_everywhere(const Operation& operation, std::size_t count, MPI_Comm group,
                                                  double acknowledgement, std::size_t in_a_row = 1) {
  int ranks = 0;
  MPI_Comm_size(group, &ranks);
  const int rank = rank_in(group);
  std::vector<double> seconds(count);
  std::vector<MPI_Request> acknowledgements(static_cast<std::size_t>(ranks - 1));
  for (auto& elapsed : seconds) {
    if (rank == 0)
      for (int other = 1; other < ranks; ++other)
        MPI_Irecv(nullptr, 0, MPI_BYTE, other, acknowledgement_tag, group,
                  &acknowledgements[static_cast<std::size_t>(other - 1)]);
    if (in_a_row > 1)
      polite::barrier(group);
    else
      synchronise(group, rank);
    const double start = MPI_Wtime();
    for (std::size_t i = 0; i < in_a_row; ++i) operation(rank);
    if (rank == 0) {
      polite::wait_all(acknowledgements, fine_pause);
      elapsed = std::max(0.0, MPI_Wtime() - start - acknowledgement) / static_cast<double>(in_a_row);
    } else {
      send_empty(0, group);
    }
  }
  return seconds;
}

// Empty ping-pongs timed for the acknowledgement, at least (after a warm-up).
constexpr std::size_t least_ping_pongs = 50;

// Operations per repetition when timed back to back.
constexpr std::size_t back_to_back_batch = 10;

// `count` ping-pongs of empty messages between ranks 0 and 1 of `group`, both
// polling finely: half the round trip is the time of one acknowledgement.
std::vector<double> acknowledgement_times(std::size_t count, MPI_Comm group) {
  const int rank = rank_in(group);
  std::vector<double> seconds(count);
  for (auto& elapsed : seconds) {
    synchronise(group, rank);
    const double start = MPI_Wtime();
    MPI_Request request;
    MPI_Irecv(nullptr, 0, MPI_BYTE, 1 - rank, acknowledgement_tag, group, &request);
    if (rank == 0) send_empty(1, group);
    polite::wait(request, MPI_STATUS_IGNORE, fine_pause);
    if (rank == 1) send_empty(0, group);
    elapsed = (MPI_Wtime() - start) / 2.0;
  }
  return seconds;
}

struct Point {
  double seconds = 0.0;  // median of the repetitions
  std::size_t repetitions = 0;
};

// How long a point is timed: `repetitions`, then more until about `min_seconds`.
struct Effort {
  std::size_t repetitions = 1;
  double min_seconds = 0.0;
};

// One point: a warm-up, `effort.repetitions` timed, then as many more as make
// about `effort.min_seconds` (rank 0 decides from the first batch and tells
// the others). `timed(count)` returns the repetitions' times, valid on rank 0
// of `comm`.
template <class Timed>
Point measure_point(const Timed& timed, const Effort& effort, MPI_Comm comm) {
  timed(1);  // warm-up: the first message between two ranks sets up their connection
  const double start = MPI_Wtime();
  auto seconds = timed(effort.repetitions);
  unsigned long long more = 0;
  if (rank_in(comm) == 0) {
    const double done = static_cast<double>(effort.repetitions);
    const double per_repetition = (MPI_Wtime() - start) / done;
    const double wanted = per_repetition > 0.0 ? std::ceil(effort.min_seconds / per_repetition) : done;
    more = static_cast<unsigned long long>(std::clamp(wanted, done, static_cast<double>(max_repetitions)) - done);
  }
  polite::broadcast(&more, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  if (more > 0) {
    const auto extra = timed(static_cast<std::size_t>(more));
    seconds.insert(seconds.end(), extra.begin(), extra.end());
  }
  return {model::detail::median(seconds), seconds.size()};
}

// The points of the first q ranks (`group`), appended to `samples` on rank 0.
// `buffer` and `spare` hold the largest size times the number of ranks (the
// root's side of a scatter or gather, both sides of an all-to-all).
// With q = 2 it first measures the time of an empty message into
// `acknowledgement` (rank 0), which every later point subtracts, and the sends.
void measure_group(MPI_Comm group, std::vector<double>& buffer, std::vector<double>& spare,
                   const CommBenchmarkOptions& options, std::vector<CommSample>& samples, double& acknowledgement) {
  int q = 0;
  MPI_Comm_size(group, &q);
  auto keep = [&](const char* operation, double elements, const Point& point) {
    if (rank_in(group) == 0)
      samples.push_back({operation, static_cast<std::size_t>(q), elements, point.seconds, point.repetitions});
  };
  const Effort effort{options.repetitions, options.min_seconds};
  auto measure_with = [&](const auto& operation, const Effort& how_long) {
    return measure_point(
        [&](std::size_t count) {
          return time_to_completion_everywhere(operation, count, group, acknowledgement,
                                               options.timing == CommTiming::back_to_back ? back_to_back_batch : 1);
        },
        how_long, group);
  };
  auto measure = [&](const auto& operation) { return measure_with(operation, effort); };

  if (q == 2) {
    // The fastest of the ping-pongs: every later point subtracts this one
    // number, and other work on the machine can only lengthen a ping-pong. A
    // median taken while the machine was busy would be subtracted from points
    // timed when it was not, and cut them to 0.
    acknowledgement_times(1, group);  // warm-up: the first message sets up the connection
    const auto ping_pongs = acknowledgement_times(std::max(options.repetitions, least_ping_pongs), group);
    acknowledgement = *std::min_element(ping_pongs.begin(), ping_pongs.end());
    // One message from rank 0 to rank 1, which waits for it.
    for (const std::size_t size : options.sizes) {
      const int count = static_cast<int>(size);
      keep("send", static_cast<double>(size), measure([&buffer, count, group](int rank) {
             if (rank == 0)
               polite::send(buffer.data(), count, MPI_DOUBLE, 1, message_tag, group);
             else
               polite::receive(buffer.data(), count, MPI_DOUBLE, 0, message_tag, group);
           }));
    }
  }
  keep("barrier", 0.0, measure([group](int) { polite::barrier(group); }));
  for (const std::size_t size : options.sizes) {
    const int count = static_cast<int>(size);
    keep("broadcast", static_cast<double>(size),
         measure([&buffer, count, group](int) { polite::broadcast(buffer.data(), count, MPI_DOUBLE, 0, group); }));
  }
  if (!options.structures) return;

  // Stage-GA's structures, `count` doubles per processor; broadcast is the one above.
  const Effort structure_effort{options.structure_repetitions, options.structure_min_seconds};
  for (const std::size_t size : options.sizes) {
    const int count = static_cast<int>(size);
    const auto elements = static_cast<double>(size);
    // Multiphase: each processor holds d = count x q doubles and sends count to every one (itself included).
    keep("multiphase", elements * q,
         measure_with([&](int) { polite::all_to_all(buffer.data(), spare.data(), count, MPI_DOUBLE, group); },
                      structure_effort));
    keep("shift", elements,
         measure_with(
             [&](int rank) {
               std::array<MPI_Request, 2> requests{};
               MPI_Irecv(spare.data(), count, MPI_DOUBLE, (rank + q - 1) % q, message_tag, group, &requests[0]);
               MPI_Isend(buffer.data(), count, MPI_DOUBLE, (rank + 1) % q, message_tag, group, &requests[1]);
               polite::wait_all(requests);
             },
             structure_effort));
    keep("scatter", elements,
         measure_with([&](int) { polite::scatter(buffer.data(), spare.data(), count, MPI_DOUBLE, 0, group); },
                      structure_effort));
    keep("gather", elements,
         measure_with([&](int) { polite::gather(buffer.data(), spare.data(), count, MPI_DOUBLE, 0, group); },
                      structure_effort));
  }
}

nlohmann::ordered_json context_of(const CommBenchmarkOptions& options, int ranks,
                                  const measure::SpeedMeasurement& speed, double acknowledgement) {
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  for (const auto& kernel : speed.kernels)
    kernels.push_back({{"kernel", kernel.kernel}, {"mflops", kernel.mflops}, {"seconds", kernel.seconds}});
  nlohmann::ordered_json context;
  context["tool"] = "hetscale bench comm";
  context["host"] = io::host_name();
  context["date"] = fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
  context["mpi_library"] = MpiSession::library_version();
  context["ranks"] = ranks;
  context["sizes"] = options.sizes;
  context["repetitions"] = options.repetitions;
  context["min_seconds"] = options.min_seconds;
  if (options.structures)
    context["structures"] = {
        {"repetitions", options.structure_repetitions},
        {"min_seconds", options.structure_min_seconds},
        {"method",
         "Stage-GA structures among the first q ranks, q = 2..P, elements = d doubles per processor: multiphase "
         "MPI_Ialltoall (d / q to every rank), shift (d to rank + 1 mod q, from rank - 1), broadcast (the broadcast "
         "samples), scatter and gather (d per rank, root 0); timed as the other operations; fitted by least squares "
         "to t = (M p + N) d + (R p + Q), shift t = N d + Q"}};
  context["timing"] =
      options.timing == CommTiming::asleep
          ? fmt::format(
                "asleep: median of the repetitions, each after a barrier and a head start of {} us for rank 0, with "
                "the polite (polling, sleeping) waits the kernels use: on rank 0, from its start until every other "
                "rank has completed the operation and acknowledged it with an empty message, less the time of that "
                "message (acknowledgement_s, half the fastest of the empty ping-pongs); send: rank 0 to rank 1",
                std::chrono::microseconds(head_start).count())
          : fmt::format(
                "back-to-back: median over repetitions of the mean of {} operations in a row after a barrier, with "
                "the polite (polling, sleeping) waits the kernels use: on rank 0, from its start until every other "
                "rank has completed the last operation and acknowledged it with an empty message, less the time of "
                "that message (acknowledgement_s, half the fastest of the empty ping-pongs); send: rank 0 to rank 1",
                back_to_back_batch);
  context["acknowledgement_s"] = acknowledgement;
  context["speed_benchmark"] = {{"seconds_per_kernel", options.seconds_per_kernel},
                                {"marked_mflops", speed.marked_mflops},
                                {"kernels", std::move(kernels)}};
  return context;
}

}  // namespace

std::optional<CommProfile> run_comm_benchmark(const CommBenchmarkOptions& options) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  measure::tighten_timer_slack();  // as the kernels' runs do, so that polite sleeps end on time

  // t_c on rank 0 while the others sleep in a barrier.
  measure::SpeedMeasurement speed;
  if (rank == 0) speed = measure::measure_local_speed(1.0, options.seconds_per_kernel);
  polite::barrier(MPI_COMM_WORLD);

  const std::size_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
  const std::size_t per_structure = options.structures ? static_cast<std::size_t>(ranks) : 1;
  std::vector<double> buffer(largest * per_structure, 1.0), spare(options.structures ? largest * per_structure : 0);
  std::vector<CommSample> samples;
  double acknowledgement = 0.0;  // one empty message, on rank 0
  for (int q = 2; q <= ranks; ++q) {
    MPI_Comm group = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, rank < q ? 0 : MPI_UNDEFINED, rank, &group);
    if (group != MPI_COMM_NULL) {
      measure_group(group, buffer, spare, options, samples, acknowledgement);
      MPI_Comm_free(&group);
    }
    polite::barrier(MPI_COMM_WORLD);  // the ranks outside the group wait here, asleep
  }
  if (rank != 0) return std::nullopt;

  for (const auto& kernel : speed.kernels)
    if (std::string_view(kernel.kernel) == "elimination")
      samples.push_back({"compute", 1, kernel.mflops * 1e6 * kernel.seconds, kernel.seconds, 1});

  CommProfile profile;
  profile.label = options.label;
  profile.costs.unit_computation = speed.unit_computation_seconds;
  if (speed.marked_mflops > 0.0) profile.costs.reference_marked_speed = speed.marked_mflops;
  profile.samples = std::move(samples);
  profile.context = io::provenance_from(context_of(options, ranks, speed, acknowledgement));
  return profile;
}

CommTiming parse_comm_timing(const std::string& text) {
  if (text == "asleep") return CommTiming::asleep;
  if (text != "back-to-back")
    throw InputError("timing", "", fmt::format("unknown timing '{}'; allowed: back-to-back, asleep", text));
  return CommTiming::back_to_back;
}

std::vector<std::size_t> parse_message_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  const auto values = io::parse_number_list(text, "sizes");
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 1.0 || values[i] != std::floor(values[i]) || values[i] > static_cast<double>(max_message_elements))
      throw InputError(
          "sizes", fmt::format("item {}", i + 1),
          fmt::format("must be a whole number of doubles from 1 to {}, got {:g}", max_message_elements, values[i]));
    sizes.push_back(static_cast<std::size_t>(values[i]));
  }
  return sizes;
}

}  // namespace hetscale::mpi
