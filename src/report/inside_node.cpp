#include "hetscale/report/inside_node.hpp"

#include <algorithm>

#include <fmt/core.h>

namespace hetscale::report {
namespace {

std::string num(double value) { return fmt::format("{:.4f}", value); }
std::string seconds(double value) { return fmt::format("{:.6g}", value); }
std::string count(double value) { return fmt::format("{:g}", value); }
std::string bytes(double value) { return fmt::format("{:.0f}", value); }

// A rank of more than this many threads shows its slowest and fastest.
constexpr std::size_t listed_threads = 16;

std::vector<std::size_t> shown_threads(const OpenMpThreads& rank) {
  std::vector<std::size_t> shown(rank.numbers.size());
  for (std::size_t k = 0; k < shown.size(); ++k) shown[k] = k;
  if (shown.size() <= listed_threads) return shown;
  const auto slowest = std::min_element(rank.speeds.begin(), rank.speeds.end());
  const auto fastest = std::max_element(rank.speeds.begin(), rank.speeds.end());  // the first of equals, each
  return {static_cast<std::size_t>(slowest - rank.speeds.begin()),
          static_cast<std::size_t>(fastest - rank.speeds.begin())};
}

HtmlTable openmp_factors(const std::vector<OpenMpRank>& ranks) {
  HtmlTable table{"POP's OpenMP factors per rank (DLB TALP's hybrid definitions; seconds summed over the team)",
                  {"node", "team", "useful", "MPI", "serialization", "imbalance", "scheduling", "other",
                   "serialization eff", "load balance", "scheduling eff", "OpenMP parallel eff"},
                  {}};
  for (const auto& rank : ranks)
    table.rows.push_back({rank.node, count(rank.team), seconds(rank.times.useful), seconds(rank.times.mpi),
                          seconds(rank.times.serialization), seconds(rank.times.imbalance),
                          seconds(rank.times.scheduling), seconds(rank.other),
                          num(rank.factors.serialization_efficiency), num(rank.factors.load_balance),
                          num(rank.factors.scheduling_efficiency), num(rank.factors.parallel_efficiency)});
  return table;
}

std::pair<HtmlTable, std::vector<std::string>> openmp_threads(const std::vector<OpenMpThreads>& ranks) {
  HtmlTable table{
      "OpenMP threads as processors of their speeds (APGA 2004 over each rank's team; speed = work / (work + held))",
      {"node", "thread", "speed", "work", "held", "share of work", "share in proportion to speed"},
      {}};
  std::vector<std::string> lines;
  for (const auto& rank : ranks) {
    const auto shown = shown_threads(rank);
    for (const std::size_t k : shown)
      table.rows.push_back({rank.node, fmt::format("{}", rank.numbers[k]), num(rank.speeds[k]), seconds(rank.work[k]),
                            seconds(rank.held[k]), num(rank.shares[k]), num(rank.proposed_shares[k])});
    lines.push_back(fmt::format(
        "{}: {} threads{}, efficiency e = {} (APGA 2004 Eq 7 over the threads); shares in proportion to speed "
        "(Proposition 1) would take its busiest thread from {} s to {} s, its regions from {} s to {} s (predicted)",
        rank.node, rank.numbers.size(), shown.size() < rank.numbers.size() ? " (slowest and fastest shown)" : "",
        num(rank.efficiency), seconds(rank.busiest), seconds(rank.balanced), seconds(rank.in_regions),
        seconds(rank.predicted_in_regions)));
  }
  return {table, lines};
}

std::pair<HtmlTable, std::vector<std::string>> devices(const std::vector<OffloadRank>& ranks) {
  HtmlTable table{"Devices: the offloaded work (DLB TALP 3.6's device factors over each rank's devices)",
                  {"node", "device", "kernels", "kernel s", "copies to", "bytes to", "copies from", "bytes from",
                   "copy s", "idle s", "load balance", "communication eff", "orchestration eff", "parallel eff"},
                  {}};
  std::vector<std::string> lines;
  for (const auto& rank : ranks) {
    const auto factor = [&](double model::DeviceFactors::*member) {
      return rank.factors ? num((*rank.factors).*member) : std::string("-");
    };
    for (std::size_t d = 0; d < rank.devices.size(); ++d) {
      const auto& device = rank.devices[d];
      table.rows.push_back({rank.node, fmt::format("{}", device.number), count(device.kernels),
                            seconds(device.kernel_seconds), count(device.copies_to), bytes(device.bytes_to),
                            count(device.copies_from), bytes(device.bytes_from), seconds(device.copy_seconds),
                            seconds(rank.idle[d]), factor(&model::DeviceFactors::load_balance),
                            factor(&model::DeviceFactors::communication_efficiency),
                            factor(&model::DeviceFactors::orchestration_efficiency),
                            factor(&model::DeviceFactors::parallel_efficiency)});
    }
    lines.push_back(fmt::format("{}: the host in the offload runtime {} s in {} calls; device offload efficiency {}",
                                rank.node, seconds(rank.runtime), count(rank.runtime_calls),
                                rank.offload_efficiency ? num(*rank.offload_efficiency) : std::string("-")));
  }
  return {table, lines};
}

std::pair<HtmlTable, std::vector<std::string>> host_and_device(const std::vector<HostDeviceSplit>& splits) {
  HtmlTable table{
      "A rank's cores and its device as processors of the offloaded work, by the speed model "
      "(its units: the work each did in its busy time)",
      {"node", "host busy s", "device busy s", "host units", "device units", "host idle s", "device idle s",
       "by the model: host units", "device units", "predicted s", "gain"},
      {}};
  std::vector<std::string> lines;
  for (const auto& split : splits) {
    table.rows.push_back({split.node, seconds(split.host_busy), seconds(split.device_busy),
                          fmt::format("{:.0f}", split.host_units), fmt::format("{:.0f}", split.device_units),
                          seconds(split.host_idle), seconds(split.device_idle), count(split.split_host),
                          count(split.split_device), seconds(split.split_makespan),
                          fmt::format("{:.2f}x", split.gain())});
    lines.push_back(fmt::format(
        "{}: the cores and the device took {} s for this work ({} s idle on the {}); split by the model they would "
        "take {} s",
        split.node, seconds(split.now), seconds(std::max(split.host_idle, split.device_idle)),
        split.host_idle > split.device_idle ? "cores" : "device", seconds(split.split_makespan)));
  }
  return {table, lines};
}

Figure bars_figure(std::string id, std::string title, std::string caption, std::string x_label, StackedBars bars) {
  Figure figure;
  figure.id = std::move(id);
  figure.title = std::move(title);
  figure.caption = std::move(caption);
  figure.x_label = std::move(x_label);
  figure.y_label = "seconds";
  figure.bars = std::move(bars);
  figure.legend = "outside right top";
  return figure;
}

}  // namespace

std::vector<std::pair<HtmlTable, std::vector<std::string>>> inside_node_tables(const RunAnalysis& analysis) {
  std::vector<std::pair<HtmlTable, std::vector<std::string>>> tables;
  if (!analysis.openmp.empty()) tables.emplace_back(openmp_factors(analysis.openmp), std::vector<std::string>{});
  if (!analysis.openmp_threads.empty()) tables.push_back(openmp_threads(analysis.openmp_threads));
  if (!analysis.offload.empty()) tables.push_back(devices(analysis.offload));
  if (!analysis.host_device.empty()) tables.push_back(host_and_device(analysis.host_device));
  return tables;
}

std::vector<Figure> inside_node_figures(const RunAnalysis& analysis, const std::string& id) {
  std::vector<Figure> figures;
  if (!analysis.openmp_threads.empty()) {
    StackedBars bars{{}, {"work", "held back"}, {{}, {}}};
    for (const auto& rank : analysis.openmp_threads)
      for (const std::size_t k : shown_threads(rank)) {
        bars.categories.push_back(fmt::format("{} t{}", rank.node, rank.numbers[k]));
        bars.values[0].push_back(rank.work[k]);
        bars.values[1].push_back(rank.held[k]);
      }
    figures.push_back(bars_figure(id + "-threads", "Each OpenMP thread's time in the parallel regions",
                                  "per rank and thread (a rank of more than 16: its slowest and fastest), seconds: "
                                  "its work at this machine's speed and the time it was held back to its speed",
                                  "rank and thread", std::move(bars)));
  }
  if (!analysis.offload.empty()) {
    StackedBars bars{{}, {"kernels", "copies", "idle"}, {{}, {}, {}}};
    for (const auto& rank : analysis.offload)
      for (std::size_t d = 0; d < rank.devices.size(); ++d) {
        bars.categories.push_back(fmt::format("{} d{}", rank.node, rank.devices[d].number));
        bars.values[0].push_back(rank.devices[d].kernel_seconds);
        bars.values[1].push_back(rank.devices[d].copy_seconds);
        bars.values[2].push_back(rank.idle[d]);
      }
    figures.push_back(bars_figure(id + "-devices", "Each device's time",
                                  "per rank and device, seconds of the run: kernels (useful), copies between host "
                                  "and device (communication) and idle",
                                  "rank and device", std::move(bars)));
  }
  return figures;
}

}  // namespace hetscale::report
