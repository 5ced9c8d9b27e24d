#include "hetscale/record/run_record.hpp"

#include <algorithm>
#include <set>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/model/energetic.hpp"
#include "io/strict_json.hpp"
#include "record/context_json.hpp"

#include <nlohmann/json.hpp>

namespace hetscale {
namespace {

NodeRecord read_node(const io::JsonObject& node, double t_par) {
  node.allow_only({"name", "work", "t_comp", "t_comm", "t_setup", "t_idle", "t_other", "t_blocked"});
  NodeRecord record;
  record.name = node.string("name");
  record.work = node.non_negative_number("work", 0.0);
  record.t_comp = node.non_negative_number("t_comp", 0.0);
  record.t_comm = node.non_negative_number("t_comm", 0.0);
  record.t_setup = node.non_negative_number("t_setup", 0.0);
  record.t_idle = node.non_negative_number("t_idle", 0.0);
  record.t_other = node.non_negative_number("t_other", 0.0);
  record.t_blocked = node.non_negative_number("t_blocked", 0.0);

  const double accounted = record.accounted_time();
  if (accounted > t_par * (1.0 + RunRecord::time_tolerance))
    node.fail("", fmt::format("t_comp + t_comm + t_setup + t_idle + t_other + t_blocked = {} s exceeds t_par = {} s "
                              "by more than {} %; the parts of a node's time must add up to at most t_par",
                              accounted, t_par, RunRecord::time_tolerance * 100));
  record.t_unaccounted = model::unaccounted_idle_time(t_par, accounted);
  record.t_idle += record.t_unaccounted;
  return record;
}

}  // namespace

double RunRecord::total_work() const {
  double total = 0.0;
  for (const auto& node : nodes) total += node.work;
  return total;
}

bool RunRecord::has_computation() const {
  return std::any_of(nodes.begin(), nodes.end(), [](const NodeRecord& node) { return node.t_comp > 0.0; });
}

namespace record_json {

RunRecord run_record_from(const nlohmann::json& document, const std::string& source) {
  const io::JsonObject top(document, source, "");
  top.require_schema(RunRecord::schema);
  top.allow_only({"schema", "label", "context", "t_par", "t_seq_ref", "nodes", "server"});

  RunRecord run;
  run.source = source;
  run.label = top.optional_string("label").value_or("");
  run.t_par = top.positive_number("t_par");
  run.t_seq_ref = top.optional_positive_number("t_seq_ref");
  if (top.has("context")) {
    top.object("context");  // must be an object
    run.context = run_context_from(top.raw("context"), source);
  }

  std::set<std::string> names;
  for (const auto& node : top.objects("nodes")) {
    run.nodes.push_back(read_node(node, run.t_par));
    if (!names.insert(run.nodes.back().name).second)
      node.fail("name", fmt::format("'{}' is given twice; node names must be unique", run.nodes.back().name));
  }
  if (top.has("server")) run.server = read_node(top.object("server"), run.t_par);
  // A run with no computation at all (every t_comp 0, a program that only
  // communicates) has no work either, and is read: its times are what was measured.
  if (run.total_work() <= 0.0 && run.has_computation())
    top.fail("nodes", "no node did any work (every `work` is 0 or missing); the analysis needs the work done");
  return run;
}

}  // namespace record_json

RunRecord parse_run_record(std::string_view text, const std::string& source) {
  return record_json::run_record_from(io::parse_json(text, source), source);
}

RunRecord read_run_record(const std::string& path) { return parse_run_record(io::read_text_file(path), path); }

namespace {
nlohmann::ordered_json node_json(const NodeRecord& node) {
  nlohmann::ordered_json json{{"name", node.name},       {"work", node.work},     {"t_comp", node.t_comp},
                              {"t_comm", node.t_comm},   {"t_setup", node.t_setup}, {"t_idle", node.t_idle},
                              {"t_other", node.t_other}};
  if (node.t_blocked > 0.0) json["t_blocked"] = node.t_blocked;
  return json;
}
}  // namespace

namespace record_json {

nlohmann::ordered_json run_record_document(const RunRecord& run) {
  nlohmann::ordered_json document;
  document["schema"] = RunRecord::schema;
  if (!run.label.empty()) document["label"] = run.label;
  document["t_par"] = run.t_par;
  if (run.t_seq_ref) document["t_seq_ref"] = *run.t_seq_ref;
  document["nodes"] = nlohmann::ordered_json::array();
  for (const auto& node : run.nodes) document["nodes"].push_back(node_json(node));
  if (run.server) document["server"] = node_json(*run.server);
  if (!run.context.empty()) document["context"] = run_context_document(run.context);
  return document;
}

}  // namespace record_json

std::string run_record_json(const RunRecord& run) { return record_json::run_record_document(run).dump(2) + "\n"; }

}  // namespace hetscale
