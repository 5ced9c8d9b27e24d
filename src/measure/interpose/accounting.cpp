#include "accounting.hpp"

#include <fcntl.h>

#include <dirent.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/files.hpp"
#include "hetscale/measure/cpu_quota.hpp"
#include "hetscale/measure/run_queue_split.hpp"
#include "hetscale/record/mpi_profile.hpp"
#include "hetscale/record/run_record.hpp"
#include "tick_clock.hpp"

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

// A thread's run-queue delay so far (s): the second field of its schedstat
// (ns), read through a descriptor kept open (pread regenerates it: 0.3 us a
// read here, against 1.9 us to open the file each time); < 0 when it cannot
// be read (the thread ended).
double schedstat_delay(int file) {
  char text[128];
  const ssize_t length = pread(file, text, sizeof text - 1, 0);
  if (length <= 0) return -1.0;
  text[length] = '\0';
  double running = 0.0, waiting = 0.0;
  if (std::sscanf(text, "%lf %lf", &running, &waiting) != 2) return -1.0;
  return waiting * 1e-9;
}

// The run-queue delay of the rank's threads since the last read (s): for
// each thread of /proc/self/task, the growth of its delay; the largest, the
// delay on the rank's critical path (work shared by threads ends with the
// thread held back longest; a rank of one thread has its own). The threads
// are looked for again at most every `rescan_interval`: one found later
// counts its delay since it began, one that ended is dropped.
class ThreadsRunQueueDelay {
 public:
  ThreadsRunQueueDelay() = default;
  ThreadsRunQueueDelay(const ThreadsRunQueueDelay&) = delete;
  ThreadsRunQueueDelay& operator=(const ThreadsRunQueueDelay&) = delete;
  ~ThreadsRunQueueDelay() {
    for (const auto& [id, thread] : threads_) close(thread.file);
  }

  // Finds the threads there are; their delay so far is not counted.
  void start(Ticks now, Ticks rescan_interval) {
    rescan_interval_ = rescan_interval;
    scan(now, false);
  }
  double since_last_read(Ticks now) {
    if (now - last_scan_ >= rescan_interval_) scan(now, true);
    double largest = 0.0;
    for (auto thread = threads_.begin(); thread != threads_.end();) {
      const double delay = schedstat_delay(thread->second.file);
      if (delay < 0.0) {
        close(thread->second.file);
        thread = threads_.erase(thread);
        continue;
      }
      largest = std::max(largest, delay - thread->second.last);
      thread->second.last = delay;
      ++thread;
    }
    return largest;
  }
  std::size_t threads() const { return threads_.size(); }

 private:
  struct Thread {
    int file = -1;
    double last = 0.0;  // its delay at the last read
  };
  void scan(Ticks now, bool count_new_from_start) {
    last_scan_ = now;
    DIR* tasks = opendir("/proc/self/task");
    if (!tasks) return;
    while (const dirent* entry = readdir(tasks)) {
      char* end = nullptr;
      const long id = std::strtol(entry->d_name, &end, 10);
      if (end == entry->d_name || *end != '\0' || threads_.count(static_cast<int>(id))) continue;
      const std::string path = fmt::format("/proc/self/task/{}/schedstat", id);
      const int file = open(path.c_str(), O_RDONLY | O_CLOEXEC);
      if (file < 0) continue;
      const double delay = schedstat_delay(file);
      threads_[static_cast<int>(id)] = {file, count_new_from_start ? 0.0 : std::max(delay, 0.0)};
    }
    closedir(tasks);
  }
  std::map<int, Thread> threads_;  // by thread id
  Ticks last_scan_ = 0, rescan_interval_ = 100'000'000;
};

// The cpu.stat of the cgroup whose CPU quota --emulate-speeds set for this
// process; empty without a quota.
const std::string& cpu_stat_path() {
  static const std::string path = environment("HETSCALE_MEASURE_CPU_STAT");
  return path;
}

// The time the CPU quota of --emulate-speeds held this process back so far
// (s): the throttled time in its cgroup's cpu.stat; 0 without a quota.
double throttled_time() {
  const std::string& path = cpu_stat_path();
  if (path.empty()) return 0.0;
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return measure::throttled_seconds(text.str());
}

// The clock of every call, started entering MPI_Init, and its rate as known
// when MPI_Init returns (for the transfer model and the reads below); the
// record's times use the rate measured over the whole run.
TickClock tick_clock;
double ticks_per_second = 1e9;

// The run-queue delay of the rank's threads, read at the calls of the thread
// that initialised MPI, at most once per millisecond, and shared by the rule every
// measurement of a real run follows (measure::RunQueueSplit, as the farm's
// RankClock): the computation's share is t_other; the MPI calls' share stays
// in their time (Open MPI spins while it waits: a descheduled wait is still a
// wait). Time the CPU quota of an emulated speed held the process back is not
// other load but computation at that speed: it is taken out of the delay found.
// All in ticks.
class RunQueueDelay {
 public:
  void start(Ticks now, Ticks read_interval) {
    active_ = true;
    read_interval_ = read_interval;
    last_boundary_ = last_read_ = now;
    threads_.start(now, 100 * read_interval);
    last_throttled_ = throttled_time();
  }
  // Entering (entering = true) or leaving an MPI call at `now`.
  void boundary(Ticks now, bool entering) {
    if (!active_) return;
    split_.add(entering ? computation : mpi, static_cast<double>(now - last_boundary_));
    last_boundary_ = now;
    if (now - last_read_ >= read_interval_) read(now);
  }
  // The computation's share of the delay until `now`, all of it read (a
  // region's boundary, outside any MPI call).
  double settle(Ticks now) {
    if (!active_) return published();
    split_.add(computation, static_cast<double>(now - last_boundary_));
    last_boundary_ = now;
    read(now);
    return published();
  }
  // The same, and no more reading.
  double finish(Ticks now) {
    const double other = settle(now);
    active_ = false;
    return other;
  }
  // The share as of the last read, for a thread that does not own the delay.
  double published() const { return other_.load(std::memory_order_relaxed); }

 private:
  enum Activity : std::size_t { computation, mpi };
  void read(Ticks now) {
    const double delay = threads_.since_last_read(now), throttled = throttled_time();
    split_.found((delay - (throttled - last_throttled_)) * ticks_per_second);
    other_.store(split_.other_load(), std::memory_order_relaxed);
    last_throttled_ = throttled;
    last_read_ = now;
  }
  bool active_ = false;
  Ticks last_boundary_ = 0, last_read_ = 0, read_interval_ = 1'000'000;  // at most one read a millisecond
  double last_throttled_ = 0.0;
  ThreadsRunQueueDelay threads_;
  measure::RunQueueSplit split_{{true, false}};  // computation works on the CPU; MPI calls wait
  std::atomic<double> other_{0.0};
};

// A sum one thread adds to and any thread may read (a region's boundary).
class Accumulator {
 public:
  void add(double value) { sum_.store(get() + value, std::memory_order_relaxed); }
  double get() const { return sum_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> sum_{0.0};
};

// One thread's totals, in ticks; a thread's first call registers them (MPI_THREAD_MULTIPLE).
struct ThreadTotals {
  std::vector<Accumulator> seconds = std::vector<Accumulator>(function_count);
  std::vector<Accumulator> bytes = std::vector<Accumulator>(function_count);
  std::vector<Accumulator> calls = std::vector<Accumulator>(function_count);
  Accumulator setup, comm, idle;
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

// The library is preloaded, so its thread-local variables can be reached
// without a call to __tls_get_addr (initial-exec); both start zero.
thread_local ThreadTotals* this_thread __attribute__((tls_model("initial-exec"))) = nullptr;
thread_local bool this_thread_owns_delay __attribute__((tls_model("initial-exec"))) = false;

ThreadTotals& register_this_thread() {
  auto& all = registry();
  std::lock_guard lock(all.mutex);
  all.threads.push_back(std::make_unique<ThreadTotals>());
  this_thread = all.threads.back().get();
  return *this_thread;
}

inline ThreadTotals& this_thread_totals() { return this_thread ? *this_thread : register_this_thread(); }

struct Settings {
  std::string out, program, talp_json;
  std::vector<double> speeds;
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
    return s;
  }();
  return read;
}

// The transfer model that splits a data-moving call into t_comm and t_idle:
// given (--latency, --bandwidth, --comm-profile, --platform), else calibrated
// at MPI_Init. Set once in MPI_Init, before any call is accounted.
struct TransferModel {
  double latency = 1e-6, bandwidth = 1e9;
  std::string source;
};
TransferModel transfer_model;

// A ping-pong between rank 0 and the first rank on another host (rank 1 when
// all share one): latency is the least half round trip of 1 byte in 50,
// bandwidth 1 MiB over the least half round trip of 5 less that latency.
// Every rank gets rank 0's figures. Its time is t_setup, with MPI_Init's
// (initialized()).
TransferModel calibrated_transfer_model() {
  int rank = 0, ranks = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  TransferModel model;
  if (ranks < 2) {
    model.source = fmt::format("one rank, nothing to calibrate: defaults (latency {:g} s, bandwidth {:g} bytes/s)",
                               model.latency, model.bandwidth);
    return model;
  }
  std::vector<char> host(MPI_MAX_PROCESSOR_NAME, '\0'), first_host(MPI_MAX_PROCESSOR_NAME, '\0');
  int length = 0;
  PMPI_Get_processor_name(host.data(), &length);
  first_host = host;
  PMPI_Bcast(first_host.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  const int candidate = host == first_host ? ranks : rank;
  int other_host = ranks;
  PMPI_Allreduce(&candidate, &other_host, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const int partner = other_host < ranks ? other_host : 1;

  constexpr int small_trips = 50, large_trips = 5, large_bytes = 1 << 20;
  std::vector<char> buffer(large_bytes);
  const auto least_half_round_trip = [&](int bytes, int trips) {
    double least = 1e300;
    for (int trip = 0; trip < trips; ++trip) {
      const auto start = Clock::now();
      if (rank == 0) {
        PMPI_Send(buffer.data(), bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
        PMPI_Recv(buffer.data(), bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        PMPI_Recv(buffer.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        PMPI_Send(buffer.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
      least = std::min(least, seconds_between(start, Clock::now()) / 2.0);
    }
    return least;
  };
  double figures[2] = {model.latency, model.bandwidth};
  if (rank == 0 || rank == partner) {
    const double latency = least_half_round_trip(1, small_trips);
    const double large = least_half_round_trip(large_bytes, large_trips);
    figures[0] = latency;
    figures[1] = large_bytes / std::max(large - latency, 1e-9);
  }
  PMPI_Bcast(figures, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  model.latency = figures[0];
  model.bandwidth = figures[1];
  model.source = fmt::format(
      "calibrated at MPI_Init by a ping-pong of rank 0 and rank {} ({}): latency {:.3g} s (the least half round trip "
      "of 1 byte in {}), bandwidth {:.4g} bytes/s (1 MiB, the least of {})",
      partner, other_host < ranks ? "another host" : "the same host", model.latency, small_trips, model.bandwidth,
      large_trips);
  return model;
}

TransferModel chosen_transfer_model() {
  const std::string latency = environment("HETSCALE_MEASURE_LATENCY");
  const std::string bandwidth = environment("HETSCALE_MEASURE_BANDWIDTH");
  if (latency.empty() && bandwidth.empty()) return calibrated_transfer_model();
  TransferModel model;
  model.latency = positive_or(latency, model.latency);
  model.bandwidth = positive_or(bandwidth, model.bandwidth);
  model.source = environment("HETSCALE_MEASURE_MODEL_SOURCE");
  if (model.source.empty())
    model.source = fmt::format("given (latency {:g} s, bandwidth {:g} bytes/s)", model.latency, model.bandwidth);
  return model;
}

// A rank's time breakdown and MPI profile, summed since MPI_Init or over an
// interval (the difference of two), in ticks.
struct Totals {
  double elapsed = 0.0, setup = 0.0, comm = 0.0, idle = 0.0, other = 0.0;
  std::vector<double> seconds = std::vector<double>(function_count);
  std::vector<double> calls = std::vector<double>(function_count);
  std::vector<double> bytes = std::vector<double>(function_count);

  void add(const Totals& other_totals, double sign) {
    elapsed += sign * other_totals.elapsed;
    setup += sign * other_totals.setup;
    comm += sign * other_totals.comm;
    idle += sign * other_totals.idle;
    other += sign * other_totals.other;
    for (std::size_t f = 0; f < function_count; ++f) {
      seconds[f] += sign * other_totals.seconds[f];
      calls[f] += sign * other_totals.calls[f];
      bytes[f] += sign * other_totals.bytes[f];
    }
  }
};

struct Region {
  int depth = 0;  // open begins
  Totals at_begin, sum;
};

struct ProcessState {
  bool started = false, measuring = false;
  Ticks start = 0;                     // entering MPI_Init
  RunQueueDelay delay;  // of the thread that initialised MPI
  std::mutex regions_mutex;
  std::map<std::string, Region> regions;
  Region paused;  // MPI_Pcontrol(0) until MPI_Pcontrol(1)
};
// Made when the library is loaded, never destroyed (as the registry): a
// thread may make an MPI call while the process exits.
ProcessState& process_state = *new ProcessState;
inline ProcessState& process() { return process_state; }

// Everything accounted since MPI_Init, up to `now`.
Totals totals_until(Ticks now) {
  Totals totals;
  totals.elapsed = static_cast<double>(now - process().start);
  totals.other = this_thread_owns_delay ? process().delay.settle(now) : process().delay.published();
  auto& all = registry();
  std::lock_guard lock(all.mutex);
  for (const auto& thread : all.threads) {
    totals.setup += thread->setup.get();
    totals.comm += thread->comm.get();
    totals.idle += thread->idle.get();
    for (std::size_t f = 0; f < function_count; ++f) {
      totals.seconds[f] += thread->seconds[f].get();
      totals.calls[f] += thread->calls[f].get();
      totals.bytes[f] += thread->bytes[f].get();
    }
  }
  return totals;
}

void open_region(Region& region, Ticks now) {
  if (region.depth++ == 0) region.at_begin = totals_until(now);
}

void close_region(Region& region, Ticks now) {
  if (region.depth == 0 || --region.depth > 0) return;
  region.sum.add(totals_until(now), 1.0);
  region.sum.add(region.at_begin, -1.0);
}

// What one rank sends rank 0 in MPI_Finalize, for the run and each region:
// its times, then per function its seconds, calls and bytes.
enum Field : std::size_t { elapsed, comp, comm, setup, idle, other, speed, process_id, paused, fields };
const std::size_t width = fields + 3 * function_count;

// In seconds (`seconds_per_tick`). The time between the parts accounted for
// and elapsed is computation, less the run-queue delay found in it (t_other).
std::vector<double> row_of(const Totals& totals, double seconds_per_tick, double rank_speed, double paused_seconds) {
  std::vector<double> row(width, 0.0);
  row[elapsed] = totals.elapsed * seconds_per_tick;
  row[comm] = totals.comm * seconds_per_tick;
  row[setup] = totals.setup * seconds_per_tick;
  row[idle] = totals.idle * seconds_per_tick;
  const double rest = std::max(0.0, row[elapsed] - row[comm] - row[setup] - row[idle]);
  row[other] = std::clamp(totals.other * seconds_per_tick, 0.0, rest);
  row[comp] = rest - row[other];
  row[speed] = rank_speed;
  row[process_id] = static_cast<double>(getpid());
  row[paused] = paused_seconds;
  for (std::size_t f = 0; f < function_count; ++f) {
    row[fields + f] = totals.seconds[f] * seconds_per_tick;
    row[fields + function_count + f] = totals.calls[f];
    row[fields + 2 * function_count + f] = totals.bytes[f];
  }
  return row;
}

// The rows rank 0 gathered: [rank][part][field], part 0 the run and part
// 1 + k the k-th region.
struct Gathered {
  int ranks = 0;
  std::vector<std::string> region_names;
  std::vector<double> rows;
  std::vector<char> hosts;

  const double* row(int rank, std::size_t part) const {
    return &rows[(static_cast<std::size_t>(rank) * (1 + region_names.size()) + part) * width];
  }
  std::string host(int rank) const { return &hosts[static_cast<std::size_t>(rank) * MPI_MAX_PROCESSOR_NAME]; }
};

// Every region name any rank used, in order, on every rank.
std::vector<std::string> all_region_names(const std::vector<std::string>& mine, int rank, int ranks) {
  std::string packed;
  for (const auto& name : mine) packed += name + '\n';
  int length = static_cast<int>(packed.size());
  std::vector<int> lengths(rank == 0 ? ranks : 0), offsets(rank == 0 ? ranks : 0);
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < static_cast<int>(lengths.size()); ++r) {
    offsets[r] = total;
    total += lengths[r];
  }
  std::vector<char> everyone(static_cast<std::size_t>(total) + 1);
  PMPI_Gatherv(packed.data(), length, MPI_CHAR, everyone.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
               MPI_COMM_WORLD);
  std::set<std::string> names;
  std::string current;
  for (int i = 0; i < total; ++i) {
    if (everyone[i] == '\n') {
      names.insert(current);
      current.clear();
    } else {
      current += everyone[i];
    }
  }
  std::string joined;
  for (const auto& name : names) joined += name + '\n';
  int joined_length = static_cast<int>(joined.size());
  PMPI_Bcast(&joined_length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  joined.resize(static_cast<std::size_t>(joined_length));
  PMPI_Bcast(joined.data(), joined_length, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> result;
  std::istringstream lines(joined);
  for (std::string line; std::getline(lines, line);) result.push_back(line);
  return result;
}

// One part of the run (the whole or a region) as a run record, with its MPI
// profile in the context.
RunRecord record_of(const Gathered& gathered, std::size_t part, const std::string& label,
                    nlohmann::ordered_json context) {
  RunRecord record;
  record.label = label;
  double work = 0.0;
  std::vector<MpiFunctionProfile> profile;
  for (std::size_t f = 0; f < function_count; ++f) profile.push_back({functions[f].name});
  for (int r = 0; r < gathered.ranks; ++r) {
    const double* row = gathered.row(r, part);
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
    for (std::size_t f = 0; f < function_count; ++f) {
      auto& entry = profile[f];
      entry.seconds += row[fields + f];
      entry.seconds_max = std::max(entry.seconds_max, row[fields + f]);
      entry.calls += row[fields + function_count + f];
      entry.bytes += row[fields + 2 * function_count + f];
    }
  }
  record.t_seq_ref = work;
  std::erase_if(profile, [](const MpiFunctionProfile& entry) { return entry.calls <= 0.0; });
  for (auto& entry : profile) entry.seconds_mean = entry.seconds / gathered.ranks;
  std::stable_sort(profile.begin(), profile.end(),
                   [](const MpiFunctionProfile& a, const MpiFunctionProfile& b) { return a.seconds > b.seconds; });
  context["mpi_functions"] = nlohmann::ordered_json::parse(mpi_profile_json(profile));
  record.context_json = context.dump();
  return record;
}

void write_record(const Gathered& gathered) {
  const std::string run_label = fmt::format("measured: {} on {} ranks", settings().program, gathered.ranks);
  nlohmann::ordered_json host_names = nlohmann::ordered_json::array(), paused_seconds = nlohmann::ordered_json::array();
  bool any_paused = false;
  for (int r = 0; r < gathered.ranks; ++r) {
    host_names.push_back(gathered.host(r));
    paused_seconds.push_back(gathered.row(r, 0)[paused]);
    any_paused = any_paused || gathered.row(r, 0)[paused] > 0.0;
  }
  nlohmann::ordered_json context{
      {"tool", "hetscale measure"},
      {"program", settings().program},
      {"ranks", gathered.ranks},
      {"hosts", host_names},
      {"speeds", settings().speeds.empty()                               ? std::string("none given: every rank of speed 1")
                 : environment("HETSCALE_MEASURE_SPEEDS_SOURCE").empty() ? std::string("given (HETSCALE_MEASURE_SPEEDS)")
                                                                          : environment("HETSCALE_MEASURE_SPEEDS_SOURCE")},
      {"times",
       "t_setup: MPI_Init, MPI_Finalize and communicator, group, window, datatype and file creation; t_comm: of "
       "each call that moves data, its modelled transfer cost (latency + bytes / bandwidth, capped by the call's "
       "time), an estimate, and all of each MPI-IO read, write and sync; t_idle: the rest of those calls and every "
       "wait; t_other: run-queue delay; t_comp: the rest"},
      {"transfer_model", transfer_model.source},
      {"clock", fmt::format("{}, its rate measured against steady_clock over the run", tick_clock.name())}};
  if (any_paused) {
    context["measuring_off"] = "MPI_Pcontrol(0) to MPI_Pcontrol(1): left out of every rank's times";
    context["measuring_off_seconds"] = paused_seconds;
  }
  nlohmann::ordered_json regions = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < gathered.region_names.size(); ++k) {
    const auto& name = gathered.region_names[k];
    const auto region = record_of(gathered, 1 + k, fmt::format("region {} of {}", name, run_label),
                                  {{"tool", "hetscale measure"}, {"region", name}});
    regions.push_back(nlohmann::ordered_json::parse(run_record_json(region)));
  }
  auto record = record_of(gathered, 0, run_label, context);
  if (!regions.empty()) {
    auto with_regions = nlohmann::ordered_json::parse(record.context_json);
    with_regions["regions"] = regions;
    record.context_json = with_regions.dump();
  }
  try {
    io::write_file_atomically(settings().out, run_record_json(record));
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hetscale: measure: the run record was not written: %s\n", error.what());
  }
}

// The run in DLB TALP's JSON layout (times in ns): "Global" for the whole run
// and one entry per region, for TALP-Pages and the scripts written for TALP
// (docs/measure.md). Useful time is t_comp; MPI time the rest of the rank's
// elapsed time. The load balance splits into in-node and inter-node factors:
// LB = LB_in x LB_out, LB_out = mean useful / the largest node mean of useful time.
void write_talp_json(const Gathered& gathered) {
  const auto ns = [](double seconds) { return static_cast<std::int64_t>(std::llround(seconds * 1e9)); };
  const int ranks = gathered.ranks;
  nlohmann::ordered_json pop_metrics = nlohmann::ordered_json::object();
  nlohmann::ordered_json process_entries = nlohmann::ordered_json::array();
  std::size_t hosts_used = 0;
  for (std::size_t part = 0; part <= gathered.region_names.size(); ++part) {
    const std::string name = part == 0 ? "Global" : gathered.region_names[part - 1];
    double t_par = 0.0, useful_sum = 0.0, useful_max = 0.0, calls_sum = 0.0;
    std::map<std::string, std::pair<double, int>> node_useful;  // host: sum of useful, ranks
    nlohmann::ordered_json processes = nlohmann::ordered_json::array();
    for (int r = 0; r < ranks; ++r) {
      const double* row = gathered.row(r, part);
      double calls = 0.0;
      for (std::size_t f = 0; f < function_count; ++f) calls += row[fields + function_count + f];
      t_par = std::max(t_par, row[elapsed]);
      useful_sum += row[comp];
      useful_max = std::max(useful_max, row[comp]);
      calls_sum += calls;
      node_useful[gathered.host(r)].first += row[comp];
      node_useful[gathered.host(r)].second += 1;
      processes.push_back({{"rank", r},
                           {"pid", static_cast<long>(row[process_id])},
                           {"hostname", gathered.host(r)},
                           {"numMpiCalls", static_cast<std::int64_t>(calls)},
                           {"elapsedTime", ns(row[elapsed])},
                           {"usefulTime", ns(row[comp])},
                           {"mpiTime", ns(row[elapsed] - row[comp])}});
    }
    hosts_used = node_useful.size();
    double node_mean_max = 0.0;
    for (const auto& [host, sum_count] : node_useful)
      node_mean_max = std::max(node_mean_max, sum_count.first / sum_count.second);
    const double mean = useful_sum / ranks;
    const double load_balance = useful_max > 0.0 ? mean / useful_max : 0.0;
    const double load_balance_out = node_mean_max > 0.0 ? mean / node_mean_max : 0.0;
    const double communication = t_par > 0.0 ? useful_max / t_par : 0.0;
    pop_metrics[name] = {{"numCpus", ranks},
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
    process_entries.push_back({{"name", name}, {"process", processes}});
  }
  nlohmann::ordered_json talp{
      {"dlbVersion", "hetscale measure (TALP layout)"},
      {"resources", {{"numCpus", ranks}, {"numNodes", hosts_used}, {"numMpiRanks", ranks}}},
      {"popMetrics", pop_metrics},
      {"process", process_entries}};
  try {
    io::write_file_atomically(settings().talp_json, talp.dump(2) + "\n");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hetscale: measure: the TALP JSON was not written: %s\n", error.what());
  }
}

}  // namespace

Call::Call(std::size_t function) : function_(function), start_(tick_clock.now()) {
  if (this_thread_owns_delay) process().delay.boundary(start_, true);
}

Call::~Call() {
  const Ticks end = tick_clock.now();
  const double spent = static_cast<double>(end - start_);
  auto& totals = this_thread_totals();
  if (this_thread_owns_delay) process().delay.boundary(end, false);
  totals.seconds[function_].add(spent);
  totals.calls[function_].add(1.0);
  totals.bytes[function_].add(bytes_);
  switch (functions[function_].kind) {
    case CallClass::setup:
      totals.setup.add(spent);
      break;
    case CallClass::transfer: {
      const double transfer =
          std::min(spent, (transfer_model.latency + bytes_ / transfer_model.bandwidth) * ticks_per_second);
      totals.comm.add(transfer);
      totals.idle.add(spent - transfer);
      break;
    }
    case CallClass::wait:
      totals.idle.add(spent);
      break;
    case CallClass::io:
      totals.comm.add(spent);
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

namespace {

// How many entries an array of counts has on `comm`; 0 when it cannot be told.
int count_entries(MPI_Comm comm, CountsOver over) {
  if (comm == MPI_COMM_NULL) return 0;
  int entries = 0;
  if (over == CountsOver::peers) {
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    (inter ? PMPI_Comm_remote_size : PMPI_Comm_size)(comm, &entries);
    return entries;
  }
  int topology = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &topology);
  if (topology == MPI_CART) {
    PMPI_Cartdim_get(comm, &entries);
    return 2 * entries;
  }
  if (topology == MPI_GRAPH) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Graph_neighbors_count(comm, rank, &entries);
    return entries;
  }
  if (topology == MPI_DIST_GRAPH) {
    int in = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &entries, &weighted);
    return entries;
  }
  return 0;
}

}  // namespace

double type_bytes_sum(const int counts[], const MPI_Datatype types[], MPI_Datatype type, MPI_Comm comm,
                      CountsOver over) {
  if (!counts) return 0.0;
  const int entries = count_entries(comm, over);
  double bytes = 0.0;
  for (int i = 0; i < entries; ++i) bytes += type_bytes(counts[i], types ? types[i] : type);
  return bytes;
}

double fortran_type_bytes_sum(const void* counts, const void* types, const void* type, const void* comm,
                              CountsOver over) {
  if (!counts || !comm || (!types && !type)) return 0.0;
  const auto* fortran_counts = static_cast<const MPI_Fint*>(counts);
  const auto* fortran_types = static_cast<const MPI_Fint*>(types);
  const MPI_Datatype single = type ? MPI_Type_f2c(*static_cast<const MPI_Fint*>(type)) : MPI_DATATYPE_NULL;
  const int entries = count_entries(MPI_Comm_f2c(*static_cast<const MPI_Fint*>(comm)), over);
  double bytes = 0.0;
  for (int i = 0; i < entries; ++i)
    bytes += type_bytes(static_cast<int>(fortran_counts[i]),
                        fortran_types ? MPI_Type_f2c(fortran_types[i]) : single);
  return bytes;
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
  auto& state = process();
  if (state.started) return;
  state.started = true;
  tick_clock.start();
  state.start = tick_clock.now();
}

void initialized() {
  auto& state = process();
  if (state.measuring) return;
  // The transfer model's ping-pong is hetscale's work, not the program's: at
  // this machine's speed (an emulated node's quota lifted meanwhile: at a few
  // percent of a CPU each round trip waited for the next period, 50 ms), and
  // its time is setup, with MPI_Init's, not computation.
  const Ticks calibration_start = tick_clock.now();
  {
    const measure::QuotaLifted unthrottled(cpu_stat_path());
    transfer_model = chosen_transfer_model();
  }
  this_thread_totals().setup.add(static_cast<double>(tick_clock.now() - calibration_start));
  ticks_per_second = 1.0 / tick_clock.seconds_per_tick();
  state.measuring = true;
  this_thread_owns_delay = true;
  state.delay.start(tick_clock.now(), static_cast<Ticks>(ticks_per_second / 1000.0));
}

void region_begin(const char* name) {
  auto& state = process();
  if (!state.measuring || !name) return;
  const Ticks now = tick_clock.now();
  std::lock_guard lock(state.regions_mutex);
  open_region(state.regions[name], now);
}

void region_end(const char* name) {
  auto& state = process();
  if (!state.measuring || !name) return;
  const Ticks now = tick_clock.now();
  std::lock_guard lock(state.regions_mutex);
  const auto found = state.regions.find(name);
  if (found != state.regions.end()) close_region(found->second, now);
}

void measuring_control(int level) {
  auto& state = process();
  if (!state.measuring) return;
  const Ticks now = tick_clock.now();
  std::lock_guard lock(state.regions_mutex);
  if (level == 0 && state.paused.depth == 0) open_region(state.paused, now);
  if (level != 0 && state.paused.depth > 0) close_region(state.paused, now);
}

void finalizing() {
  auto& state = process();
  if (!state.measuring) return;
  int rank = 0, ranks = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  // Regions still open, and measuring still off, end where MPI_Finalize begins.
  const Ticks barrier = tick_clock.now();
  std::vector<std::string> names;
  {
    std::lock_guard lock(state.regions_mutex);
    for (auto& [name, region] : state.regions) {
      while (region.depth > 0) close_region(region, barrier);
      names.push_back(name);
    }
    while (state.paused.depth > 0) close_region(state.paused, barrier);
  }
  // The final wait is the last idle time of a rank that finished early.
  if (this_thread_owns_delay) state.delay.finish(barrier);
  state.measuring = false;
  PMPI_Barrier(MPI_COMM_WORLD);
  const Ticks end = tick_clock.now();
  this_thread_totals().idle.add(static_cast<double>(end - barrier));
  const double seconds_per_tick = tick_clock.seconds_per_tick();

  Totals run = totals_until(end);
  run.add(state.paused.sum, -1.0);
  const auto& speeds = settings().speeds;
  const double rank_speed = speeds.empty() ? 1.0 : speeds[static_cast<std::size_t>(rank) % speeds.size()];

  Gathered gathered;
  gathered.ranks = ranks;
  gathered.region_names = all_region_names(names, rank, ranks);
  std::vector<double> mine = row_of(run, seconds_per_tick, rank_speed, state.paused.sum.elapsed * seconds_per_tick);
  for (const auto& name : gathered.region_names) {
    const auto found = state.regions.find(name);
    const auto row =
        row_of(found != state.regions.end() ? found->second.sum : Totals{}, seconds_per_tick, rank_speed, 0.0);
    mine.insert(mine.end(), row.begin(), row.end());
  }
  std::vector<char> host(MPI_MAX_PROCESSOR_NAME, '\0');
  int length = 0;
  PMPI_Get_processor_name(host.data(), &length);
  if (rank == 0) {
    gathered.rows.resize(mine.size() * static_cast<std::size_t>(ranks));
    gathered.hosts.resize(MPI_MAX_PROCESSOR_NAME * static_cast<std::size_t>(ranks));
  }
  PMPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, gathered.rows.data(),
              static_cast<int>(mine.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  PMPI_Gather(host.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, gathered.hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
              0, MPI_COMM_WORLD);
  if (rank == 0 && !settings().out.empty()) write_record(gathered);
  if (rank == 0 && !settings().talp_json.empty()) write_talp_json(gathered);
}

}  // namespace hetscale::interpose
