#pragma once
// The figures and tables that explain hetscale's inputs, each built from
// data already read (pure): a run record's time breakdown and work shares,
// speed-up over client counts, scalability sweeps and psi, an optimizer
// run's fitness, and the papers' model figures.
#include <string>
#include <vector>

#include "hetscale/analysis/isospeed.hpp"
#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/platform/speed_model.hpp"
#include "hetscale/record/sweep.hpp"
#include "hetscale/report/figure.hpp"
#include "hetscale/report/html_report.hpp"
#include "hetscale/report/prediction_report.hpp"

namespace hetscale::report {

// --- one run ------------------------------------------------------------------
// Clematis-Corana 1999 Fig 1's parts of T_i, per node (and the server): stacked bars.
Figure time_breakdown_figure(const RunAnalysis& analysis, const RunRecord& run, const std::string& id);
// APGA 2004 Fig 4: the measured share p_i of each node against v_i / sum v.
Figure work_share_figure(const RunAnalysis& analysis, const std::string& id);
HtmlTable node_table(const RunAnalysis& analysis);
// A measured run's MPI functions that took most (calls, time summed, max and
// mean over ranks, bytes), as `analyze` lists them; empty when it has none.
// The MPI functions that took most, the first `most` of them (all by default).
HtmlTable mpi_functions_table(const RunAnalysis& analysis, std::size_t most = static_cast<std::size_t>(-1));
// A measured run's regions (hetscale_region_begin / _end), each read as a run
// record of its own: its t_par and part of the run's, its efficiency (eta_eff),
// e and POP's parallel efficiency, its longest MPI time and the MPI function
// that took most; a region with no computation shows its times only.
struct NamedRegion {
  std::string name;
  RunRecord record;
};
HtmlTable regions_table(const std::vector<NamedRegion>& regions, double run_t_par);
HtmlTable metrics_table(const RunAnalysis& analysis);  // APGA 2004, Clematis-Corana 1999 and POP
// The other efficiencies and the question each answers (diagnosis_text.hpp).
HtmlTable efficiency_guide_table(const RunAnalysis& analysis);

// --- runs over client or rank counts ---------------------------------------------
struct ClientCountPoint {
  double clients = 0.0;      // clients of a farm, or ranks of any other program
  double speedup = 0.0;      // reference time / t_par
  double max_speedup = 0.0;  // s_max = sum v / max v of the clients; for ranks, sum s_i (what they could give)
  double t_par = 0.0;        // of the run, s
  // Ranks only: T(p0) / T(p), the conventional strong-scaling speed-up
  // against the run with the fewest ranks p0.
  std::optional<double> strong_speedup;
};
// What a series counts: a farm's clients (APGA 2004 Fig 3), or the ranks of any program.
enum class CountOf { clients, ranks };
// Speed-up against the count, with the linear and s_max lines.
Figure speedup_figure(const std::vector<ClientCountPoint>& points, const std::string& title, const std::string& id,
                      CountOf count = CountOf::clients);
// Efficiency s / s_max against the count.
Figure client_efficiency_figure(const std::vector<ClientCountPoint>& points, const std::string& title,
                                const std::string& id, CountOf count = CountOf::clients);

// --- scalability (Chen et al. 2008) -------------------------------------------------------
// Figs 2-4: E_s against N for each configuration, its trend line, the target.
Figure isospeed_figure(const std::vector<Sweep>& sweeps, const std::string& id);
HtmlTable sweeps_table(const std::vector<Sweep>& sweeps);
// psi between consecutive configurations: measured, and predicted when given.
Figure psi_figure(const PsiTable& measured, const IsospeedPrediction* predicted, const std::string& id);
HtmlTable psi_html_table(const PsiTable& measured, const IsospeedPrediction* predicted);

// --- optimizer (Stage-GA) -------------------------------------------------------------
// Fig 9: best and mean fitness per generation.
Figure fitness_figure(const std::vector<double>& best, const std::vector<double>& mean, const std::string& title,
                      const std::string& id);

// --- predictions (hetscale predict) ------------------------------------------------------
// One part: its measured repetitions, the fitted model from the smallest scale
// to the one predicted, and the prediction with its interval.
Figure prediction_figure(const PredictedPart& part, const PredictionDocument& document, const std::string& id);
HtmlTable prediction_html_table(const PredictionDocument& document);

// --- functional performance models (hetscale.fpm/1) ------------------------------------
// Speed against the size of the share, per node: the measured points with
// their intervals' ends, and the interpolation the partitioner uses between
// them (Lastovetsky and Reddy's speed functions).
Figure speed_model_figure(const SpeedModel& model, const std::string& id);
// Per node: points, sizes, speeds, the widest interval, the other load seen,
// and the shape restriction's check.
HtmlTable speed_model_table(const SpeedModel& model);

// --- model figures ------------------------------------------------------------------------
// APGA 2004 Fig 1 (Eqs 11-13): two processors {v, h v}, the slower one with share
// p: speed-up s (first) and effective processors n_eff (second) against p for
// h = 1, 1.25, 1.5, 1.75, 2.
std::vector<Figure> seed000_figure1();
// Clematis-Corana 1999 Fig 2: ewf (Eq 41) against H for R = 0.1 .. 1.0 over the given
// configurations (Table 1's ten, S = 6).
Figure seed003_figure2(const std::vector<std::vector<double>>& configurations);

}  // namespace hetscale::report
