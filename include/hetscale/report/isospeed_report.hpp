#pragma once
// Seed 001's isospeed-efficiency scalability for people (terminal tables laid
// out like the paper's Tables 3-6 and 12-13) and for scripts (JSON with a
// schema and a context block). docs/scalability.md describes both.
#include <string>

#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/record/sweep.hpp"

namespace hetscale::report {

// `hetscale scale psi`: the configurations (C, N, p, W) and psi between consecutive ones.
std::string psi_table(const PsiTable& table);
// {"schema": "hetscale.psi/1", "context", "kernel", "configurations", "psi": [{"from", "to", "psi", ...}]}
std::string psi_json(const PsiTable& table);

// `hetscale scale predict`: N' per configuration (beside the measured N) and psi'.
std::string prediction_table(const IsospeedPrediction& prediction);
// {"schema": "hetscale.predict/1", "context", "kernel", "computation", "costs", "configurations", "psi"}
std::string prediction_json(const IsospeedPrediction& prediction);

// `hetscale scale fit`: the sweep's points with E_s, its trend line and the target N.
// (Its JSON is the sweep itself, record/sweep.hpp's sweep_json.)
std::string sweep_fit_table(const Sweep& sweep);

}  // namespace hetscale::report
