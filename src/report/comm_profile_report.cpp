#include "hetscale/report/comm_profile_report.hpp"

#include <string_view>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/report/table.hpp"

namespace hetscale::report {
namespace {

std::string microseconds(double seconds) { return fmt::format("{:.3g}", seconds * 1e6); }

const CommFitQuality* fit_of(const CommProfile& profile, std::string_view operation) {
  for (const auto& fit : profile.fits)
    if (fit.operation == operation) return &fit;
  return nullptr;
}

}  // namespace

std::string comm_profile_table(const CommProfile& profile) {
  const auto& context = profile.context;
  const auto& costs = profile.costs;
  std::string out =
      fmt::format("hetscale bench comm: {} MPI ranks on {} ({}), {}\n\n", context.ranks.value_or(0),
                  context.host.empty() ? "?" : context.host, context.mpi_library.empty() ? "?" : context.mpi_library,
                  "medians of the repetitions, times in microseconds (us)");
  double smallest = 0.0;
  for (const auto& sample : profile.samples)
    if (sample.operation == "broadcast" && (smallest == 0.0 || sample.elements < smallest)) smallest = sample.elements;

  TextTable fits({"operation", "fitted form (Chen et al. 2008 Section 4.5)", "r_squared", "points"});
  auto add = [&](std::string_view operation, const std::string& form) {
    const auto* fit = fit_of(profile, operation);
    fits.add_row({std::string(operation), form, fit ? fmt::format("{:.3f}", fit->r_squared) : "-",
                  fit ? std::to_string(fit->points) : "-"});
  };
  add("broadcast", fmt::format("T = {} + {} p us (at N = {:g})", microseconds(costs.broadcast_intercept),
                               microseconds(costs.broadcast_per_process), smallest));
  add("send", fmt::format("T = {} + {} N us (N doubles)", microseconds(costs.send_intercept),
                          microseconds(costs.send_per_element)));
  add("receive", fit_of(profile, "receive") ? fmt::format("T = {} + {} N us", microseconds(costs.receive_intercept),
                                                          microseconds(costs.receive_per_element))
                                            : "T = T_send (a send is timed until received)");
  add("barrier", fmt::format("T = {} p us", microseconds(costs.barrier_per_process)));
  out += fits.render();
  out += fmt::format("\nunit computation t_c = {:.4g} s per flop", costs.unit_computation);
  if (costs.reference_marked_speed)
    out += fmt::format("; reference marked speed C_ref = {:.4g} Mflop/s (rank 0)", *costs.reference_marked_speed);
  out += "\n";
  if (const auto* broadcast = fit_of(profile, "broadcast"); broadcast && broadcast->points == 1)
    out +=
        "note: one process count (2 ranks): the broadcast line goes through the origin; run with 3 or more "
        "ranks to fit its intercept\n";

  if (!profile.structures.empty()) {
    TextTable structures({"structure (Stage-GA)", "M us/double", "N us/double", "R us", "Q us", "r_squared", "points"});
    for (const auto& costs : profile.structures) {
      const bool shift = costs.structure == "shift";
      structures.add_row({costs.structure, shift ? "-" : fmt::format("{:.3g}", costs.m * 1e6),
                          fmt::format("{:.3g}", costs.n * 1e6), shift ? "-" : microseconds(costs.r),
                          microseconds(costs.q), costs.r_squared ? fmt::format("{:.3f}", *costs.r_squared) : "-",
                          std::to_string(costs.points)});
    }
    out += "\nstructures: t(d, p) = (M p + N) d + (R p + Q), d doubles per processor (shift: N d + Q)\n" +
           structures.render();
  }

  TextTable samples({"operation", "processes", "elements", "median_us", "repetitions"});
  for (const auto& sample : profile.samples)
    if (sample.operation != "compute")
      samples.add_row({sample.operation, std::to_string(sample.processes), fmt::format("{:g}", sample.elements),
                       microseconds(sample.seconds), std::to_string(sample.repetitions)});
  return out + "\nsamples\n" + samples.render();
}

}  // namespace hetscale::report
