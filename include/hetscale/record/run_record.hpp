#pragma once
// A run record: what one parallel run did on every node. Read from JSON
// (schema "hetscale.run/1"); see docs/formats.md.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/record/run_context.hpp"

namespace hetscale {

// One node's time breakdown (Clematis-Corana 1999 Eqs 6-7), in seconds.
struct NodeRecord {
  std::string name;
  double work = 0.0;           // operations or tasks completed
  double t_comp = 0.0;         // computation
  double t_comm = 0.0;         // communication not overlapped with computation
  double t_setup = 0.0;        // set-up and other parallelization overhead
  double t_idle = 0.0;         // idle, including what the node did not account for
  double t_other = 0.0;        // ready to run but not running (other load)
  double t_blocked = 0.0;      // not ready to run outside communication (sleeping, file I/O), measured
  double t_unaccounted = 0.0;  // part of t_idle added so the parts sum to t_par (Clematis-Corana 1999 Eq 8)

  double accounted_time() const { return t_comp + t_comm + t_setup + t_idle + t_other + t_blocked; }
};

struct RunRecord {
  inline static constexpr std::string_view schema = "hetscale.run/1";
  // Parts of a node may sum to more than t_par by this fraction (clock skew).
  inline static constexpr double time_tolerance = 0.01;

  std::string source;  // where it was read from, for messages
  std::string label;
  double t_par = 0.0;                // parallel elapsed time
  std::optional<double> t_seq_ref;   // the whole work on the reference machine
  std::vector<NodeRecord> nodes;     // the workers (APGA 2004: n counts clients)
  std::optional<NodeRecord> server;  // a farm's server, reported beside them
  RunContext context;                // what ran, where and how it was measured

  double total_work() const;
  // Whether any node computed (t_comp > 0).
  bool has_computation() const;
};

RunRecord parse_run_record(std::string_view text, const std::string& source);
RunRecord read_run_record(const std::string& path);

// The record as JSON (schema "hetscale.run/1"), as read_run_record reads it;
// t_idle is written with the unaccounted part included.
std::string run_record_json(const RunRecord& run);

}  // namespace hetscale
