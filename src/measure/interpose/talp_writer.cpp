#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "hetscale/io/files.hpp"
#include "record_writers.hpp"

namespace hetscale::interpose {

// The run in DLB TALP's JSON layout (times in ns): "Global" for the whole run
// and one entry per region, for TALP-Pages and the scripts written for TALP
// (docs/measure.md). Useful time is t_comp; MPI time the rest of the rank's
// elapsed time. The load balance splits into in-node and inter-node factors:
// LB = LB_in x LB_out, LB_out = mean useful / the largest node mean of useful time.
void write_talp_json(const Gathered& gathered, const std::string& path) {
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
    io::write_file_atomically(path, talp.dump(2) + "\n");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hetscale: measure: the TALP JSON was not written: %s\n", error.what());
  }
}


}  // namespace hetscale::interpose
