#pragma once
// The papers' worked examples and tables, recomputed by hetscale from the
// papers' own published inputs (data/papers/*.json) and set beside the
// values the papers print. `hetscale demo` shows them; tests require them all
// to agree.
#include <string>
#include <vector>

namespace hetscale {

struct PaperCheck {
  std::string where;      // "Table 2, H = 0.26, s_i = 0.6, R = 0.1"
  std::string quantity;   // "W_i / W_i^id"
  double paper = 0.0;     // as printed
  double computed = 0.0;  // by hetscale
  int decimals = 2;       // how the paper prints it (significant digits for large counts)
  double tolerance = 0.0;
  bool agrees() const;
};

struct PaperSection {
  std::string title;   // "Clematis-Corana 1999, Table 2: actual to ideal work ratios"
  std::string method;  // which hetscale functions computed it
  std::vector<PaperCheck> checks;
};

// Reads data/papers/seed000.json, seed001.json and seed003.json from data_dir.
std::vector<PaperSection> reproduce_papers(const std::string& data_dir);

// The speeds s_i of Clematis-Corana 1999 Table 1's ten configurations, in the table's
// order, from data_dir/papers/seed003.json (for the report's seed003-fig2).
// InputError naming the file when Table 1 is not there.
std::vector<std::vector<double>> seed003_table1_speeds(const std::string& data_dir);

}  // namespace hetscale
