#include "accounting.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/files.hpp"
#include "hetscale/measure/cpu_quota.hpp"
#include "hetscale/record/mpi_profile.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale::interpose {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// This process's run-queue delay so far (s): the second field of
// /proc/self/schedstat, in ns; 0 when unreadable.
double run_queue_delay() {
  std::ifstream file("/proc/self/schedstat");
  double running = 0.0, waiting = 0.0;
  if (!(file >> running >> waiting)) return 0.0;
  return waiting * 1e-9;
}

// The time the CPU quota of --emulate-speeds held this process back so far
// (s): the throttled time in its cgroup's cpu.stat; 0 without a quota.
double throttled_time() {
  static const std::string path = environment("HETSCALE_MEASURE_CPU_STAT");
  if (path.empty()) return 0.0;
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return measure::throttled_seconds(text.str());
}

// The run-queue delay of the thread that initialised MPI, split between its
// computation and its MPI calls: read at call boundaries at most once per
// millisecond, the delay found since the last read is shared by the
// computation and MPI time of that interval in proportion to their length.
// The computation's share is t_other; the MPI calls' share stays in their time.
// Time the CPU quota of an emulated speed held the process back is not other
// load but computation at that speed: it is taken out of the delay found.
class RunQueueDelay {
 public:
  void start(Clock::time_point now) {
    active_ = true;
    last_boundary_ = last_read_ = now;
    last_delay_ = run_queue_delay();
    last_throttled_ = throttled_time();
  }
  // Entering (in_mpi = true) or leaving an MPI call at `now`.
  void boundary(Clock::time_point now, bool entering) {
    if (!active_) return;
    (entering ? computation_ : mpi_) += seconds_between(last_boundary_, now);
    last_boundary_ = now;
    if (now - last_read_ >= std::chrono::milliseconds(1)) read(now);
  }
  // The computation's share of the delay, all of it read.
  double finish(Clock::time_point now) {
    if (!active_) return 0.0;
    computation_ += seconds_between(last_boundary_, now);
    read(now);
    active_ = false;
    return other_;
  }

 private:
  void read(Clock::time_point now) {
    const double delay = run_queue_delay(), throttled = throttled_time();
    const double found = std::max(0.0, (delay - last_delay_) - (throttled - last_throttled_));
    const double total = computation_ + mpi_;
    if (total > 0.0) other_ += found * computation_ / total;
    computation_ = mpi_ = 0.0;
    last_delay_ = delay;
    last_throttled_ = throttled;
    last_read_ = now;
  }
  bool active_ = false;
  Clock::time_point last_boundary_, last_read_;
  double last_delay_ = 0.0, last_throttled_ = 0.0, computation_ = 0.0, mpi_ = 0.0, other_ = 0.0;
};

// One thread's totals; a thread's first call registers them (MPI_THREAD_MULTIPLE).
struct ThreadTotals {
  std::vector<double> seconds = std::vector<double>(function_count);
  std::vector<double> bytes = std::vector<double>(function_count);
  std::vector<double> calls = std::vector<double>(function_count);
  double setup = 0.0, comm = 0.0, idle = 0.0;
  RunQueueDelay delay;  // kept by the thread that initialised MPI only
};

struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<ThreadTotals>> threads;
};

// Never destroyed: a thread may make an MPI call while the process exits.
Registry& registry() {
  static auto* instance = new Registry;
  return *instance;
}

ThreadTotals& this_thread_totals() {
  thread_local ThreadTotals* totals = [] {
    auto& all = registry();
    std::lock_guard lock(all.mutex);
    all.threads.push_back(std::make_unique<ThreadTotals>());
    return all.threads.back().get();
  }();
  return *totals;
}

struct Settings {
  std::string out, program, talp_json;
  std::vector<double> speeds;
  double latency = 1e-6, bandwidth = 1e9;
  std::string model_source = "defaults (latency 1e-6 s, bandwidth 1e9 bytes/s)";
};

double positive_or(const std::string& text, double fallback) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0' && value > 0.0 ? value : fallback;
}

const Settings& settings() {
  static const Settings read = [] {
    Settings s;
    s.out = environment("HETSCALE_MEASURE_OUT");
    s.talp_json = environment("HETSCALE_MEASURE_TALP_JSON");
    s.program = environment("HETSCALE_MEASURE_PROGRAM");
    const std::string speeds = environment("HETSCALE_MEASURE_SPEEDS");
    for (std::size_t start = 0; !speeds.empty() && start <= speeds.size();) {
      const std::size_t comma = std::min(speeds.find(',', start), speeds.size());
      s.speeds.push_back(positive_or(speeds.substr(start, comma - start), 1.0));
      start = comma + 1;
    }
    const std::string latency = environment("HETSCALE_MEASURE_LATENCY");
    const std::string bandwidth = environment("HETSCALE_MEASURE_BANDWIDTH");
    if (!latency.empty() || !bandwidth.empty()) {
      s.latency = positive_or(latency, s.latency);
      s.bandwidth = positive_or(bandwidth, s.bandwidth);
      s.model_source = fmt::format("given (latency {:g} s, bandwidth {:g} bytes/s)", s.latency, s.bandwidth);
    }
    if (const std::string source = environment("HETSCALE_MEASURE_MODEL_SOURCE"); !source.empty())
      s.model_source = source;
    return s;
  }();
  return read;
}

struct ProcessState {
  bool started = false, measuring = false;
  Clock::time_point start;  // entering MPI_Init
};
ProcessState process;

// What one rank sends rank 0 in MPI_Finalize: its times, then per function
// its seconds, calls and bytes.
enum Field : std::size_t { elapsed, comp, comm, setup, idle, other, speed, process_id, fields };

// The run in DLB TALP's JSON layout (one region, "Global"; times in ns), for
// TALP-Pages and the scripts written for TALP (docs/measure.md). Useful time
// is t_comp; MPI time the rest of the rank's elapsed time. The load balance
// splits into in-node and inter-node factors: LB = LB_in x LB_out, LB_out =
// mean useful / the largest node mean of useful time.
void write_talp_json(int ranks, const std::vector<double>& rows, const std::vector<char>& hosts,
                     const std::string& path) {
  const std::size_t width = fields + 3 * function_count;
  const auto ns = [](double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1e9)); };
  double t_par = 0.0, useful_sum = 0.0, useful_max = 0.0, calls_sum = 0.0;
  std::map<std::string, std::pair<double, int>> node_useful;  // host: sum of useful, ranks
  nlohmann::ordered_json processes = nlohmann::ordered_json::array();
  for (int r = 0; r < ranks; ++r) {
    const double* row = &rows[static_cast<std::size_t>(r) * width];
    const std::string host(&hosts[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]);
    double calls = 0.0;
    for (std::size_t f = 0; f < function_count; ++f) calls += row[fields + function_count + f];
    t_par = std::max(t_par, row[elapsed]);
    useful_sum += row[comp];
    useful_max = std::max(useful_max, row[comp]);
    calls_sum += calls;
    node_useful[host].first += row[comp];
    node_useful[host].second += 1;
    processes.push_back({{"rank", r},
                         {"pid", static_cast<long>(row[process_id])},
                         {"hostname", host},
                         {"numMpiCalls", static_cast<std::int64_t>(calls)},
                         {"elapsedTime", ns(row[elapsed])},
                         {"usefulTime", ns(row[comp])},
                         {"mpiTime", ns(row[elapsed] - row[comp])}});
  }
  double node_mean_max = 0.0;
  for (const auto& [host, sum_count] : node_useful)
    node_mean_max = std::max(node_mean_max, sum_count.first / sum_count.second);
  const double mean = useful_sum / ranks;
  const double load_balance = useful_max > 0.0 ? mean / useful_max : 0.0;
  const double load_balance_out = node_mean_max > 0.0 ? mean / node_mean_max : 0.0;
  const double communication = t_par > 0.0 ? useful_max / t_par : 0.0;
  nlohmann::ordered_json global{
      {"numCpus", ranks},
      {"numMpiRanks", ranks},
      {"numNodes", node_useful.size()},
      {"avgCpus", static_cast<double>(ranks)},
      {"numMpiCalls", static_cast<std::int64_t>(calls_sum)},
      {"elapsedTime", ns(t_par)},
      {"usefulTime", ns(useful_sum)},
      {"mpiTime", ns(t_par * ranks - useful_sum)},
      {"parallelEfficiency", communication * load_balance},
      {"mpiParallelEfficiency", communication * load_balance},
      {"mpiCommunicationEfficiency", communication},
      {"mpiLoadBalance", load_balance},
      {"mpiLoadBalanceIn", load_balance_out > 0.0 ? load_balance / load_balance_out : 0.0},
      {"mpiLoadBalanceOut", load_balance_out}};
  nlohmann::ordered_json talp{{"dlbVersion", "hetscale measure (TALP layout)"},
                              {"resources", {{"numCpus", ranks}, {"numNodes", node_useful.size()},
                                             {"numMpiRanks", ranks}}},
                              {"popMetrics", {{"Global", global}}},
                              {"process", nlohmann::ordered_json::array({{{"name", "Global"}, {"process", processes}}})}};
  try {
    io::write_file_atomically(path, talp.dump(2) + "\n");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hetscale: measure: the TALP JSON was not written: %s\n", error.what());
  }
}

void write_record(int ranks, const std::vector<double>& rows, const std::vector<char>& hosts) {
  const std::size_t width = fields + 3 * function_count;
  RunRecord record;
  record.label = fmt::format("measured: {} on {} ranks", settings().program, ranks);
  nlohmann::ordered_json host_names = nlohmann::ordered_json::array();
  double work = 0.0;
  for (int r = 0; r < ranks; ++r) {
    const double* row = &rows[static_cast<std::size_t>(r) * width];
    NodeRecord node;
    node.name = fmt::format("rank-{}", r);
    node.t_comp = row[comp];
    node.t_comm = row[comm];
    node.t_setup = row[setup];
    node.t_idle = row[idle];
    node.t_other = row[other];
    node.work = row[speed] * row[comp];  // in reference units: the reference node's seconds
    work += node.work;
    record.t_par = std::max(record.t_par, row[elapsed]);
    record.nodes.push_back(node);
    host_names.push_back(std::string(&hosts[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]));
  }
  record.t_seq_ref = work;
  std::vector<double> total(function_count, 0.0);
  for (std::size_t f = 0; f < function_count; ++f)
    for (int r = 0; r < ranks; ++r) total[f] += rows[static_cast<std::size_t>(r) * width + fields + f];
  std::vector<MpiFunctionProfile> profile;
  for (std::size_t f = 0; f < function_count; ++f) {
    MpiFunctionProfile entry{functions[f].name, 0.0, total[f], 0.0, total[f] / ranks, 0.0};
    for (int r = 0; r < ranks; ++r) {
      const double* row = &rows[static_cast<std::size_t>(r) * width];
      entry.seconds_max = std::max(entry.seconds_max, row[fields + f]);
      entry.calls += row[fields + function_count + f];
      entry.bytes += row[fields + 2 * function_count + f];
    }
    if (entry.calls > 0.0) profile.push_back(entry);
  }
  std::stable_sort(profile.begin(), profile.end(),
                   [](const MpiFunctionProfile& a, const MpiFunctionProfile& b) { return a.seconds > b.seconds; });
  nlohmann::ordered_json context{
      {"tool", "hetscale measure"},
      {"program", settings().program},
      {"ranks", ranks},
      {"hosts", host_names},
      {"speeds", settings().speeds.empty() ? std::string("none given: every rank of speed 1")
                                            : environment("HETSCALE_MEASURE_SPEEDS_SOURCE")},
      {"times",
       "t_setup: MPI_Init, MPI_Finalize and communicator, group, window and datatype creation; t_comm: of each "
       "call that moves data, its modelled transfer cost (latency + bytes / bandwidth, capped by the call's time), "
       "an estimate; t_idle: the rest of those calls and every wait; t_other: run-queue delay; t_comp: the rest"},
      {"transfer_model", settings().model_source},
      {"mpi_functions", nlohmann::ordered_json::parse(mpi_profile_json(profile))}};
  record.context_json = context.dump();
  try {
    io::write_file_atomically(settings().out, run_record_json(record));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hetscale: measure: the run record was not written: %s\n", error.what());
  }
}

}  // namespace

Call::Call(std::size_t function) : function_(function), start_(Clock::now()) {
  this_thread_totals().delay.boundary(start_, true);
}

Call::~Call() {
  const auto end = Clock::now();
  const double spent = seconds_between(start_, end);
  auto& totals = this_thread_totals();
  totals.delay.boundary(end, false);
  totals.seconds[function_] += spent;
  totals.calls[function_] += 1.0;
  totals.bytes[function_] += bytes_;
  switch (functions[function_].kind) {
    case CallClass::setup:
      totals.setup += spent;
      break;
    case CallClass::transfer: {
      const double transfer = std::min(spent, settings().latency + bytes_ / settings().bandwidth);
      totals.comm += transfer;
      totals.idle += spent - transfer;
      break;
    }
    case CallClass::wait:
      totals.idle += spent;
      break;
  }
}

double type_bytes(int count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0.0;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0.0;
  return static_cast<double>(count) * size;
}

double fortran_type_bytes(const void* count, const void* type) {
  if (!count || !type) return 0.0;
  return type_bytes(static_cast<int>(*static_cast<const MPI_Fint*>(count)),
                    MPI_Type_f2c(*static_cast<const MPI_Fint*>(type)));
}

void* next_symbol(const char* name) {
  void* symbol = dlsym(RTLD_NEXT, name);
  if (!symbol) {
    std::fprintf(stderr, "hetscale: measure: the program calls %s, which no library after hetscale's defines\n",
                 name);
    _exit(70);
  }
  return symbol;
}

void initializing() {
  if (process.started) return;
  process.started = true;
  process.start = Clock::now();
}

void initialized() {
  if (process.measuring) return;
  process.measuring = true;
  this_thread_totals().delay.start(Clock::now());
}

void finalizing() {
  if (!process.measuring) return;
  process.measuring = false;
  int rank = 0, ranks = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // The final wait is the last idle time of a rank that finished early.
  const auto barrier = Clock::now();
  const double other_load = this_thread_totals().delay.finish(barrier);
  PMPI_Barrier(MPI_COMM_WORLD);
  const auto end = Clock::now();
  this_thread_totals().idle += seconds_between(barrier, end);

  const std::size_t width = fields + 3 * function_count;
  std::vector<double> row(width, 0.0);
  {
    auto& all = registry();
    std::lock_guard lock(all.mutex);
    for (const auto& thread : all.threads) {
      row[comm] += thread->comm;
      row[setup] += thread->setup;
      row[idle] += thread->idle;
      for (std::size_t f = 0; f < function_count; ++f) {
        row[fields + f] += thread->seconds[f];
        row[fields + function_count + f] += thread->calls[f];
        row[fields + 2 * function_count + f] += thread->bytes[f];
      }
    }
  }
  row[elapsed] = seconds_between(process.start, end);
  const double rest = std::max(0.0, row[elapsed] - row[comm] - row[setup] - row[idle]);
  row[other] = std::clamp(other_load, 0.0, rest);
  row[comp] = rest - row[other];
  const auto& speeds = settings().speeds;
  row[speed] = speeds.empty() ? 1.0 : speeds[static_cast<std::size_t>(rank) % speeds.size()];
  row[process_id] = static_cast<double>(getpid());

  std::vector<char> host(MPI_MAX_PROCESSOR_NAME, '\0');
  int length = 0;
  PMPI_Get_processor_name(host.data(), &length);
  std::vector<double> rows(rank == 0 ? width * static_cast<std::size_t>(ranks) : 0);
  std::vector<char> hosts(rank == 0 ? MPI_MAX_PROCESSOR_NAME * static_cast<std::size_t>(ranks) : 0);
  PMPI_Gather(row.data(), static_cast<int>(width), MPI_DOUBLE, rows.data(), static_cast<int>(width), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  PMPI_Gather(host.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (rank == 0 && !settings().out.empty()) write_record(ranks, rows, hosts);
  if (rank == 0 && !settings().talp_json.empty()) write_talp_json(ranks, rows, hosts, settings().talp_json);
}

}  // namespace hetscale::interpose
