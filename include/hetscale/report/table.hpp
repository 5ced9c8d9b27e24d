#pragma once
// Terminal tables for people: aligned columns, a title line per block.
#include <string>
#include <vector>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/analysis/serial_fit.hpp"
#include "hetscale/analysis/what_if.hpp"
#include "hetscale/sim/farm_what_if.hpp"
#include "hetscale/papers/paper_checks.hpp"

namespace hetscale::report {

// A table of text cells; numbers are right-aligned, text left-aligned.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void add_row(std::vector<std::string> cells);
  std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

std::string analysis_table(const RunAnalysis& analysis);
// A run with no computation (every t_comp 0): what was measured, its times
// and MPI functions, and that the efficiencies need computation.
std::string times_table(const RunRecord& run);
std::string distribution_table(const DistributionMetrics& metrics);
std::string worsening_table(const WorseningMetrics& metrics);
std::string farm_what_if_table(const sim::FarmWhatIf& what_if);
std::string serial_fit_table(const SerialFit& fit);
std::string paper_checks_table(const std::vector<PaperSection>& sections);

}  // namespace hetscale::report
