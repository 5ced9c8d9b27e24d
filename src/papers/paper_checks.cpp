#include "hetscale/papers/paper_checks.hpp"

#include <cmath>

#include <fmt/core.h>

#include "hetscale/analysis/what_if.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/model/energetic.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/model/isospeed.hpp"
#include "io/strict_json.hpp"

namespace hetscale {
namespace {

using nlohmann::json;

// The paper's last printed decimal place, one unit either way: a few printed
// values are truncated rather than rounded (Chen et al. 2008 Table 4, N = 600: 0.39997
// is printed 0.399; Table 9: 0.4437 is printed 0.443).
PaperCheck decimal_check(std::string where, std::string quantity, double paper, double computed, int decimals) {
  return {std::move(where), std::move(quantity), paper, computed, decimals, std::pow(10.0, -decimals) + 1e-12};
}

// A large count printed to a few significant figures (6.66E+08): half a unit
// of its last significant digit.
PaperCheck significant_check(std::string where, std::string quantity, double paper, double computed) {
  std::string digits = fmt::format("{:.0f}", paper);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int significant = static_cast<int>(digits.size());
  const int magnitude = static_cast<int>(std::floor(std::log10(paper)));
  const double unit = std::pow(10.0, magnitude - significant + 1);
  return {std::move(where), std::move(quantity), paper, computed, significant, 0.5 * unit};
}

json read_paper(const std::string& data_dir, const std::string& file) {
  const std::string path = data_dir + "/papers/" + file;
  return io::parse_json(io::read_text_file(path), path);
}

std::vector<double> numbers(const json& array) { return array.get<std::vector<double>>(); }

std::string list(const std::vector<double>& values) {
  std::string text;
  for (double v : values) text += (text.empty() ? "" : " ") + fmt::format("{:g}", v);
  return text;
}

std::vector<PaperSection> seed000(const json& data) {
  std::vector<PaperSection> sections;

  const auto& two = data.at("two_processor_example");
  PaperSection example{"APGA 2004, Section 3.4: two processors {v, h v}, h = 2",
                       "two_processor_speedup (Eq 12), heterogeneous_speedup (Eq 5), two_processor_diversity (Eq 11)",
                       {}};
  const double h = two.at("speed_ratio");
  for (const auto& c : two.at("cases")) {
    const double p = c.at("slow_share");
    const std::vector<double> speeds{1.0, h}, shares{p, 1.0 - p};
    const std::string where = fmt::format("p = {:.3g}", p);
    example.checks.push_back(
        decimal_check(where, "s (Eq 12)", c.at("speedup"), model::two_processor_speedup(h, p), c.at("decimals")));
    example.checks.push_back(decimal_check(where, "s (Eq 5)", c.at("speedup"),
                                           model::heterogeneous_speedup(speeds, shares), c.at("decimals")));
  }
  example.checks.push_back(decimal_check("h = 2", "d_conf (Eq 11)", two.at("diversity"),
                                         model::two_processor_diversity(h), two.at("diversity_decimals")));
  sections.push_back(std::move(example));

  const auto& homogeneous = data.at("homogeneous_runs");
  PaperSection runs{"APGA 2004, Section 6.1: efficiency of the homogeneous runs, e = s / s_max",
                    "max_speedup (Eq 6) on n equal speeds",
                    {}};
  for (const auto& run : homogeneous.at("runs")) {
    const std::vector<double> equal(run.at("clients").get<std::size_t>(), 1.0);
    const double speedup = run.at("speedup");
    runs.checks.push_back(decimal_check(fmt::format("{} clients, s = {}", equal.size(), speedup), "e",
                                        run.at("efficiency"), speedup / model::max_speedup(equal),
                                        homogeneous.at("decimals")));
  }
  sections.push_back(std::move(runs));

  const auto& run = data.at("heterogeneous_run");
  PaperSection hetero{"APGA 2004, Section 6.2: the heterogeneous run (32 clients)",
                      "max_speedup_from_diversity (Eq 9), total_speedup (Eq 15), idle_diversity (Eq 16)",
                      {}};
  const double s_max = model::max_speedup_from_diversity(run.at("clients"), run.at("diversity"));
  hetero.checks.push_back(decimal_check("d_conf = 0.96, n = 32", "s_max (Eq 9)", run.at("max_speedup"), s_max, 1));
  hetero.checks.push_back(decimal_check("Cantu-Paz bound 8.5", "e = s / s_max", run.at("even_split_efficiency"),
                                        run.at("even_split_speedup").get<double>() / s_max, 2));
  hetero.checks.push_back(decimal_check(
      "s = 15.3, T_n = 361 s, T_id = 37.8 s", "s_tot (Eq 15)", run.at("speedup_with_idle"),
      model::total_speedup(run.at("speedup_without_idle"), run.at("idle_s"), run.at("parallel_elapsed_s")), 1));
  sections.push_back(std::move(hetero));
  return sections;
}

double configuration_marked_speed(const json& node_speeds, const json& configuration) {
  std::vector<double> speeds;
  for (const char* kind : {"server_cpu", "sunblade", "sunfire_cpu"})
    for (int i = 0; i < configuration.at(kind).get<int>(); ++i) speeds.push_back(node_speeds.at(kind));
  return model::marked_speed(speeds);
}

double workload(const std::string& kernel, double n) {
  if (kernel == "ge") return model::gaussian_elimination_workload(n);
  if (kernel == "mm") return model::matrix_multiplication_workload(n);
  return model::convolution_workload(n);
}

std::vector<PaperSection> seed001(const json& data) {
  std::vector<PaperSection> sections;
  const auto& node_speeds = data.at("table2_marked_speeds");

  for (const char* name : {"table3", "table4"}) {
    const auto& table = data.at(name);
    PaperSection section{fmt::format("Chen et al. 2008, Table {}: {}", name[5], table.at("caption").get<std::string>()),
                         "marked_speed (Definition 1), gaussian_elimination_workload, achieved_speed, "
                         "speed_efficiency (Definition 2)",
                         {}};
    const double c = configuration_marked_speed(node_speeds, table.at("configuration"));
    section.checks.push_back(decimal_check("Table 2 node speeds", "C (Mflop/s)", table.at("marked_speed"), c, 2));
    for (const auto& row : table.at("rows")) {
      const double n = row.at("N"), seconds = row.at("T_ms").get<double>() * 1e-3;
      const double w = model::gaussian_elimination_workload(n);
      const std::string where = fmt::format("N = {}", n);
      section.checks.push_back(significant_check(where, "W", row.at("W"), w));
      section.checks.push_back(
          decimal_check(where, "W / T (Mflop/s)", row.at("speed"), model::achieved_speed(w, seconds) / 1e6, 3));
      section.checks.push_back(
          decimal_check(where, "E_s", row.at("E_s"), model::speed_efficiency(w, seconds, c * 1e6), 3));
    }
    sections.push_back(std::move(section));
  }

  for (const auto& table : data.at("isospeed_tables")) {
    const std::string kernel = table.at("kernel");
    PaperSection section{
        fmt::format("Chen et al. 2008, {} and {}: isospeed-e scalability of {}", table.at("sizes_table").get<std::string>(),
                    table.at("psi_table").get<std::string>(),
                    kernel == "ge"   ? "Gaussian elimination"
                    : kernel == "mm" ? "matrix multiplication"
                                     : "2D convolution"),
        fmt::format("{}; isospeed_efficiency_scalability (Definition 3)", table.at("workload").get<std::string>()),
        {}};
    const auto& configurations = table.at("configurations");
    for (const auto& configuration : configurations) {
      const std::string where =
          fmt::format("{}, N = {}", configuration.at("name").get<std::string>(), configuration.at("N").get<double>());
      section.checks.push_back(decimal_check(where, "C (Mflop/s)", configuration.at("marked_speed"),
                                             configuration_marked_speed(node_speeds, configuration), 2));
      section.checks.push_back(
          significant_check(where, "W", configuration.at("W"), workload(kernel, configuration.at("N"))));
    }
    const auto psi = numbers(table.at("psi"));
    for (std::size_t i = 0; i + 1 < configurations.size(); ++i) {
      const auto &from = configurations[i], &to = configurations[i + 1];
      const double computed = model::isospeed_efficiency_scalability(
          from.at("marked_speed"), workload(kernel, from.at("N")), to.at("marked_speed"), workload(kernel, to.at("N")));
      section.checks.push_back(decimal_check(
          fmt::format("psi({}, {})", from.at("name").get<std::string>(), to.at("name").get<std::string>()), "psi",
          psi[i], computed, 3));
    }
    sections.push_back(std::move(section));
  }
  return sections;
}

std::vector<PaperSection> seed003(const json& data) {
  std::vector<PaperSection> sections;
  const auto& table1 = data.at("table1");
  PaperSection heterogeneity{"Clematis-Corana 1999, Table 1: degree of heterogeneity H of ten 6-node configurations (S = 6)",
                             "heterogeneity_degree (standard deviation of s_i)",
                             {}};
  for (const auto& configuration : table1.at("configurations")) {
    const auto speeds = numbers(configuration.at("speeds"));
    heterogeneity.checks.push_back(decimal_check(list(speeds), "H", configuration.at("H"),
                                                 model::heterogeneity_degree(speeds), table1.at("decimals")));
  }
  sections.push_back(std::move(heterogeneity));

  const auto& table2 = data.at("table2");
  PaperSection ratios{"Clematis-Corana 1999, Table 2: actual to ideal work ratio W_i / W_i^id",
                      "evaluate_worsening: proportional_work_vs_ideal (Eq 42)",
                      {}};
  const auto reference_ratios = numbers(table2.at("R"));
  for (const auto& configuration : table2.at("configurations")) {
    const auto speeds = numbers(configuration.at("speeds"));
    for (std::size_t r = 0; r < reference_ratios.size(); ++r) {
      const auto computed = evaluate_worsening(speeds, reference_ratios[r]).work_vs_ideal;
      for (std::size_t i = 0; i < speeds.size(); ++i)
        ratios.checks.push_back(
            decimal_check(fmt::format("H = {}, s_{} = {}, R = {}", configuration.at("H").get<double>(), i + 1,
                                      speeds[i], reference_ratios[r]),
                          "W_i / W_i^id", configuration.at("ratios")[i][r], computed[i], table2.at("decimals")));
    }
  }
  sections.push_back(std::move(ratios));
  return sections;
}

}  // namespace

bool PaperCheck::agrees() const { return std::abs(computed - paper) <= tolerance; }

std::vector<PaperSection> reproduce_papers(const std::string& data_dir) {
  std::vector<PaperSection> sections;
  for (auto&& [file, reproduce] : {std::pair{"seed000.json", &seed000}, std::pair{"seed001.json", &seed001},
                                   std::pair{"seed003.json", &seed003}}) {
    const json data = read_paper(data_dir, file);
    try {
      for (auto& section : reproduce(data)) sections.push_back(std::move(section));
    } catch (const json::exception& error) {
      throw InputError(data_dir + "/papers/" + file, "",
                       std::string("does not have the expected layout: ") + error.what());
    }
  }
  return sections;
}

std::vector<std::vector<double>> seed003_table1_speeds(const std::string& data_dir) {
  const std::string path = data_dir + "/papers/seed003.json";
  const auto data = io::parse_json(io::read_text_file(path), path);
  std::vector<std::vector<double>> configurations;
  try {
    for (const auto& configuration : data.at("table1").at("configurations"))
      configurations.push_back(numbers(configuration.at("speeds")));
  } catch (const json::exception&) {
    throw InputError(path, "table1.configurations", "Clematis-Corana 1999 Table 1 is not where the report expects it");
  }
  return configurations;
}

}  // namespace hetscale
