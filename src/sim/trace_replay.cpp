#include "hetscale/sim/trace_replay.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include <zlib.h>

#include <cerrno>
#include <cstring>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/child_process.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/model/heterogeneous.hpp"
#include "hetscale/sim/simgrid_platform.hpp"
#include "hetscale/sim/smpi_launch.hpp"

namespace hetscale::sim {
namespace {

// The actions SimGrid 3.32's replay knows (smpi_replay_init).
const std::set<std::string> replayed_actions{
    "init",    "finalize",  "comm_size", "comm_split", "comm_dup",   "compute",  "sleep",        "location",
    "send",    "isend",     "recv",      "irecv",      "wait",       "test",     "waitall",      "sendRecv",
    "barrier", "bcast",     "reduce",    "allreduce",  "scan",       "exscan",   "alltoall",     "alltoallv",
    "gather",  "allgather", "scatter",   "gatherv",    "allgatherv", "scatterv", "reducescatter"};

// `word` as a number, or none (a log line of another shape).
std::optional<double> number_in(const std::string& word) {
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (word.empty() || end != word.c_str() + word.size()) return std::nullopt;
  return value;
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream words(line);
  std::vector<std::string> all;
  for (std::string word; words >> word;) all.push_back(word);
  return all;
}

// FOLDER/rank-R.trace or rank-R.trace.gz for R = 0, 1, ...
std::vector<std::string> rank_files(const std::string& folder) {
  std::error_code error;
  std::map<std::size_t, std::string> by_rank;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    std::string name = entry.path().filename().string();
    if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) name.resize(name.size() - 3);
    if (name.rfind("rank-", 0) != 0 || name.size() <= 11 || name.compare(name.size() - 6, 6, ".trace") != 0) continue;
    const std::string number = name.substr(5, name.size() - 5 - 6);
    if (number.find_first_not_of("0123456789") != std::string::npos) continue;
    by_rank[std::stoul(number)] = entry.path().string();
  }
  if (by_rank.empty()) throw InputError(folder, "", "holds no manifest.json and no rank-R.trace files");
  std::vector<std::string> files;
  for (const auto& [rank, path] : by_rank) {
    if (rank != files.size())
      throw InputError(folder, "", fmt::format("has no rank-{}.trace (it has rank-{}.trace)", files.size(), rank));
    files.push_back(path);
  }
  return files;
}

}  // namespace

TraceFolder read_trace_folder(const std::string& folder) {
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error))
    throw InputError(folder, "", "is not a trace folder (hetscale measure --trace writes one)");
  TraceFolder trace;
  trace.folder = folder;
  const std::string manifest_path = folder + "/manifest.json";
  if (!std::filesystem::exists(manifest_path, error)) {
    trace.files = rank_files(folder);
    return trace;
  }
  nlohmann::json manifest;
  try {
    manifest = nlohmann::json::parse(io::read_text_file(manifest_path));
  } catch (const nlohmann::json::exception& parse_error) {
    throw InputError(manifest_path, "", fmt::format("is not JSON: {}", parse_error.what()));
  }
  if (!manifest.is_object() || manifest.value("schema", "") != "hetscale.trace/1")
    throw InputError(manifest_path, "schema", "must be hetscale.trace/1 (a trace's manifest)");
  const auto& files = manifest.value("files", nlohmann::json::array());
  if (!files.is_array() || files.empty()) throw InputError(manifest_path, "files", "must list one trace file per rank");
  for (std::size_t rank = 0; rank < files.size(); ++rank) {
    if (!files[rank].is_string())
      throw InputError(manifest_path, fmt::format("files[{}]", rank), "must be a file name");
    const std::string path = folder + "/" + files[rank].get<std::string>();
    if (!std::filesystem::is_regular_file(path, error))
      throw InputError(manifest_path, fmt::format("files[{}]", rank),
                       fmt::format("names {}, which is not there (the trace of rank {} is missing)", path, rank));
    trace.files.push_back(path);
  }
  if (const auto rate = manifest.find("flops_per_reference_second"); rate != manifest.end()) {
    if (!rate->is_number() || !(rate->get<double>() > 0.0))
      throw InputError(manifest_path, "flops_per_reference_second", "must be a number > 0");
    trace.flops_per_reference_second = rate->get<double>();
  }
  if (manifest.contains("program") && manifest["program"].is_string()) trace.program = manifest["program"];
  if (manifest.contains("measured_seconds") && manifest["measured_seconds"].is_number())
    trace.measured_seconds = manifest["measured_seconds"].get<double>();
  if (const auto left = manifest.find("not_replayed"); left != manifest.end() && left->is_object())
    for (const auto& [function, calls] : left->items())
      if (calls.is_number()) trace.not_replayed.emplace_back(function, calls.get<double>());
  return trace;
}

std::string read_trace_text(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw InputError(path, "", fmt::format("cannot be read: {}", std::strerror(errno)));
  std::string text;
  std::vector<char> buffer(1 << 16);
  int read = 0;
  while ((read = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0)
    text.append(buffer.data(), static_cast<std::size_t>(read));
  int code = Z_OK;
  const char* message = gzerror(file, &code);
  const std::string reason = message ? message : "";
  gzclose(file);
  if (read < 0 || (code != Z_OK && code != Z_BUF_ERROR))
    throw InputError(path, "", fmt::format("is cut short or corrupt ({})", reason));
  if (code == Z_BUF_ERROR) throw InputError(path, "", "is cut short (its compressed data ends early)");
  return text;
}

double check_trace(const std::string& text, std::size_t rank, const std::string& source) {
  std::istringstream lines(text);
  std::size_t number = 0;
  bool initialised = false;
  double flops = 0.0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    const auto words = words_of(line);
    if (words.empty() || words.front().front() == '#') continue;
    const std::string where = fmt::format("line {}", number);
    if (words.front() != std::to_string(rank))
      throw InputError(source, where, fmt::format("is for rank {}, in the file of rank {}", words.front(), rank));
    if (words.size() < 2) throw InputError(source, where, "has no action");
    if (!replayed_actions.contains(words[1]))
      throw InputError(source, where,
                       fmt::format("'{}' is not an action SimGrid replays (MPI_Waitany, one-sided and I/O calls "
                                   "are not)",
                                   words[1]));
    if (!initialised && words[1] != "init")
      throw InputError(source, where, "comes before the rank's init (its first action must be init)");
    initialised = true;
    if (words[1] == "compute") {
      if (words.size() != 3) throw InputError(source, where, "compute takes one amount of flops");
      try {
        std::size_t used = 0;
        const double amount = std::stod(words[2], &used);
        if (used != words[2].size() || !(amount >= 0.0)) throw std::invalid_argument("");
        flops += amount;
      } catch (const std::exception&) {
        throw InputError(source, where, fmt::format("compute '{}': flops are a number >= 0", words[2]));
      }
    }
  }
  if (!initialised) throw InputError(source, "", "has no actions");
  if (text.back() != '\n') throw InputError(source, fmt::format("line {}", number), "is cut short (no new line)");
  return flops;
}

double action_bytes(const std::vector<std::string>& words, std::size_t ranks,
                    std::map<std::string, std::vector<double>>& posted) {
  if (words.size() < 2) return 0.0;
  const auto number = [&](std::size_t i) {
    const auto value = i < words.size() ? number_in(words[i]) : std::nullopt;
    return value && *value > 0.0 ? *value : 0.0;
  };
  const auto sum = [&](std::size_t first, std::size_t count) {
    double total = 0.0;
    for (std::size_t i = first; i < first + count; ++i) total += number(i);
    return total;
  };
  const std::string& rank = words[0];
  const std::string& action = words[1];
  const double peers = ranks > 1 ? static_cast<double>(ranks - 1) : 0.0;
  if (action == "send" || action == "recv") return number(4);
  if ((action == "isend" || action == "irecv") && words.size() > 4) {
    const std::string key =
        action == "isend" ? rank + " " + words[2] + " " + words[3] : words[2] + " " + rank + " " + words[3];
    posted[key].push_back(number(4));
    return 0.0;
  }
  if (action == "wait" && words.size() > 4) {
    auto found = posted.find(words[2] + " " + words[3] + " " + words[4]);
    if (found == posted.end() || found->second.empty()) return 0.0;
    const double bytes = found->second.front();
    found->second.erase(found->second.begin());
    return bytes;
  }
  if (action == "bcast") return number(2);
  if (action == "reduce" || action == "allreduce" || action == "scan" || action == "exscan") return 2.0 * number(2);
  if (action == "alltoall" || action == "allgather") return (number(2) + number(3)) * peers;
  if (action == "gather" || action == "scatter") return number(2) + number(3);
  if (action == "alltoallv") return number(2) + number(3 + ranks);
  if (action == "gatherv" || action == "allgatherv") return number(2) + sum(3, ranks);
  if (action == "scatterv") return sum(2, ranks) + number(2 + ranks);
  if (action == "reducescatter") return 2.0 * sum(2, ranks);
  return 0.0;
}

TraceReplay parse_replay_log(const std::string& log, std::size_t ranks, const ReplayTransferModel& model) {
  TraceReplay replay;
  replay.ranks.resize(ranks);
  std::vector<std::map<std::string, std::vector<double>>> posted(ranks);
  bool simulated = false;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    // [host:rank:(pid) clock] [location] [smpi_replay/VERBOSE] RANK ACTION ... DURATION
    // [host:rank:(pid) clock] [smpi_replay/INFO] Simulation time T
    const auto words = words_of(line);
    if (words.size() < 3) continue;
    if (line.find("[smpi_replay/INFO] Simulation time ") != std::string::npos) {
      if (const auto time = number_in(words.back())) {
        replay.t_par = *time;
        simulated = true;
      }
      continue;
    }
    const auto tag = std::find(words.begin(), words.end(), "[smpi_replay/VERBOSE]");
    if (tag == words.end() || words.end() - tag < 4) continue;
    const auto rank = number_in(*(tag + 1));
    const auto duration = number_in(words.back());
    if (!rank || !duration || *rank < 0 || *rank >= static_cast<double>(ranks)) continue;
    const std::string& action = *(tag + 2);
    const auto r = static_cast<std::size_t>(*rank);
    auto& times = replay.ranks[r];
    if (action == "compute") {
      times.compute += *duration;
    } else {
      times.mpi += *duration;
      const double bytes = action_bytes(std::vector<std::string>(tag + 1, words.end() - 1), ranks, posted[r]);
      if (model.bandwidth > 0.0 && bytes > 0.0)
        times.transfer += std::min(*duration, model.latency + bytes / model.bandwidth);
    }
    const auto clock = std::find_if(words.begin(), tag, [](const std::string& word) { return word.back() == ']'; });
    if (clock == tag) continue;
    if (const auto at = number_in(clock->substr(0, clock->size() - 1))) times.finish = std::max(times.finish, *at);
  }
  if (!simulated) throw std::runtime_error("the replay printed no simulated time");
  return replay;
}

Platform replay_placement(const Platform& platform, const std::string& hosts, std::size_t ranks) {
  if (hosts.empty()) {
    if (platform.nodes.size() < ranks)
      throw InputError(
          "platform", "",
          fmt::format("has {} node{} for a trace of {} ranks: give --hosts to place several ranks on a node",
                      platform.nodes.size(), platform.nodes.size() == 1 ? "" : "s", ranks));
    return first_nodes(platform, ranks, "platform");
  }
  Platform placement = platform;
  placement.nodes.clear();
  if (hosts.find_first_not_of("0123456789") == std::string::npos) {
    const Platform first = first_nodes(platform, io::parse_count(hosts, "hosts"), "hosts");
    for (std::size_t rank = 0; rank < ranks; ++rank) placement.nodes.push_back(first.nodes[rank % first.nodes.size()]);
    return placement;
  }
  const auto names = io::split_names(hosts.front() == '@' ? io::read_text_file(hosts.substr(1)) : hosts);
  if (names.size() != ranks)
    throw InputError("hosts", "",
                     fmt::format("names {} hosts for a trace of {} ranks: one per rank", names.size(), ranks));
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    const PlatformNode* node = platform.find(names[rank]);
    if (!node)
      throw InputError("hosts", fmt::format("item {}", rank + 1),
                       fmt::format("names no host of the platform: '{}'", names[rank]));
    placement.nodes.push_back(*node);
  }
  return placement;
}

std::vector<double> share_factors(const std::vector<double>& flops, const std::vector<double>& shares,
                                  const std::vector<double>& traced) {
  const auto weights_of = [&](const std::vector<double>& weights, const char* field) {
    if (weights.size() != flops.size())
      throw InputError(
          field, "",
          fmt::format("gives {} shares for a trace of {} ranks: one per rank", weights.size(), flops.size()));
    double sum = 0.0;
    for (std::size_t rank = 0; rank < weights.size(); ++rank) {
      if (!(weights[rank] > 0.0) || !std::isfinite(weights[rank]))
        throw InputError(field, fmt::format("item {}", rank + 1), fmt::format("must be > 0, got {:g}", weights[rank]));
      sum += weights[rank];
    }
    return sum;
  };
  const double weights = weights_of(shares, "shares");
  const double before = traced.empty() ? 0.0 : weights_of(traced, "traced-shares");
  double work = 0.0;
  for (const double f : flops) work += f;
  std::vector<double> factors;
  for (std::size_t rank = 0; rank < shares.size(); ++rank) {
    if (!(flops[rank] > 0.0))
      throw InputError("shares", fmt::format("item {}", rank + 1),
                       fmt::format("rank {} computed nothing in the trace: its work cannot be rescaled", rank));
    const double traced_share = traced.empty() ? flops[rank] / work : traced[rank] / before;
    factors.push_back(shares[rank] / weights / traced_share);
  }
  return factors;
}

std::string rescaled_computation(const std::string& text, double factor) {
  std::string rescaled;
  rescaled.reserve(text.size());
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    const auto words = words_of(line);
    if (words.size() == 3 && words[1] == "compute") {
      rescaled += fmt::format("{} compute {:.9g}", words[0], std::stod(words[2]) * factor);
    } else {
      rescaled += line;
    }
    if (end < text.size()) rescaled += '\n';
    start = end + 1;
  }
  return rescaled;
}

std::string repeated_trace(const std::string& text, std::size_t rank, std::size_t ranks, std::size_t copy,
                           std::size_t copies) {
  const long offset = static_cast<long>(copy * ranks);
  const auto moved = [&](const std::string& word) {
    const long peer = std::stol(word);
    return peer < 0 ? word : std::to_string(peer + offset);  // any source stays any
  };
  // The per-rank array of a v-collective, at words [first, first + ranks), repeated.
  const auto tiled = [&](const std::vector<std::string>& words, std::size_t first) {
    std::vector<std::string> out(words.begin(), words.begin() + static_cast<long>(first));
    for (std::size_t c = 0; c < copies; ++c)
      for (std::size_t i = 0; i < ranks && first + i < words.size(); ++i) out.push_back(words[first + i]);
    for (std::size_t i = first + ranks; i < words.size(); ++i) out.push_back(words[i]);
    return out;
  };
  std::string out;
  out.reserve(text.size());
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    auto words = words_of(line);
    if (words.empty() || words.front().front() == '#') continue;
    words[0] = std::to_string(rank + copy * ranks);
    const std::string& action = words.size() > 1 ? words[1] : "";
    if ((action == "send" || action == "isend" || action == "recv" || action == "irecv") && words.size() > 2) {
      words[2] = moved(words[2]);
    } else if (action == "wait" && words.size() > 3) {
      words[2] = moved(words[2]);
      words[3] = moved(words[3]);
    } else if (action == "alltoallv" && words.size() >= 4 + 2 * ranks) {
      words = tiled(words, 3);
      words = tiled(words, 4 + copies * ranks);
    } else if ((action == "gatherv" || action == "allgatherv") && words.size() >= 3 + ranks) {
      words = tiled(words, 3);
    } else if ((action == "scatterv" || action == "reducescatter") && words.size() >= 2 + ranks) {
      words = tiled(words, 2);
    }
    for (std::size_t i = 0; i < words.size(); ++i) out += (i ? " " : "") + words[i];
    out += '\n';
  }
  return out;
}

namespace {

// A trace as SimGrid's replay reads it, written once into a folder for every
// platform it is replayed on: each rank's text checked, its computation
// rescaled to the shares asked, repeated for each copy.
struct PreparedTrace {
  std::size_t ranks = 0;              // replayed: the trace's times the copies
  std::string index;                  // the replay's file list, a file a line
  std::vector<double> flops, traced;  // per replayed rank: its work replayed, and as traced
  double flops_per_reference_second = 1e9;
};

PreparedTrace prepared_trace(const TraceFolder& trace, const std::vector<double>& shares,
                             const std::vector<double>& traced_shares, std::size_t copies, const std::string& folder) {
  const auto& files = trace.files;
  if (copies < 1) throw InputError("repeat", "", "must be 1 or more copies");
  std::vector<std::string> texts;
  std::vector<double> flops;
  for (std::size_t rank = 0; rank < files.size(); ++rank) {
    texts.push_back(read_trace_text(files[rank]));
    flops.push_back(check_trace(texts.back(), rank, files[rank]));
  }
  const std::vector<double> factors =
      shares.empty() ? std::vector<double>(files.size(), 1.0) : share_factors(flops, shares, traced_shares);
  PreparedTrace prepared;
  prepared.ranks = files.size() * copies;
  prepared.flops_per_reference_second = trace.flops_per_reference_second;
  for (std::size_t rank = 0; rank < files.size(); ++rank) {
    if (factors[rank] != 1.0) texts[rank] = rescaled_computation(texts[rank], factors[rank]);
    for (std::size_t copy = 0; copy < copies; ++copy) {
      const std::string plain = fmt::format("{}/rank-{}.trace", folder, rank + copy * files.size());
      io::write_file_atomically(
          plain, copies == 1 ? texts[rank] : repeated_trace(texts[rank], rank, files.size(), copy, copies));
    }
    texts[rank].clear();
  }
  for (std::size_t rank = 0; rank < prepared.ranks; ++rank) {
    prepared.index += fmt::format("{}/rank-{}.trace\n", folder, rank);
    const std::size_t traced_rank = rank % files.size();
    prepared.flops.push_back(flops[traced_rank] * factors[traced_rank]);
    prepared.traced.push_back(flops[traced_rank]);
  }
  return prepared;
}

// The prepared trace replayed with rank r on `placement`'s node r.
TraceReplay replayed_on(const PreparedTrace& prepared, const Platform& placement, const ReplayPrograms& programs,
                        const std::string& folder) {
  const Platform per_rank = first_nodes(placement, prepared.ranks, "platform");
  // Each host once in the platform, as often as it has ranks in the host file.
  Platform hosts = per_rank;
  hosts.nodes.clear();
  std::set<std::string> seen;
  for (const auto& node : per_rank.nodes)
    if (seen.insert(node.name).second) hosts.nodes.push_back(node);
  // Relative speeds are against a node of the trace's speed 1.
  if (hosts.speed_kind == SpeedKind::relative) hosts.reference_marked_speed = prepared.flops_per_reference_second / 1e6;
  std::string xml;
  try {
    xml = simgrid_platform_xml(hosts);
  } catch (const std::invalid_argument& error) {
    throw InputError("platform", "", fmt::format("cannot be simulated: {}", error.what()));
  }
  const std::string xml_path = folder + "/platform.xml", hostfile_path = folder + "/hostfile",
                    index_path = folder + "/traces";
  io::write_file_atomically(xml_path, xml);
  io::write_file_atomically(hostfile_path, simgrid_hostfile(per_rank));
  io::write_file_atomically(index_path, prepared.index);
  // The platform's latency and bandwidth as given (no size factors), the
  // collectives of SimGrid's default selection (3.32's Open MPI and MPICH
  // selections abort in replay), each action's duration logged.
  const auto run = io::run_program(
      {programs.smpirun, "-np", std::to_string(prepared.ranks), "-platform", xml_path, "-hostfile", hostfile_path,
       "-replay", index_path, "-no-privatize", "--cfg=smpi/lat-factor:0:1", "--cfg=smpi/bw-factor:0:1",
       "--cfg=smpi/coll-selector:default", "--log=smpi_replay.thresh:verbose", "--log=xbt_cfg.thres:warning",
       "--log=smpi_config.thres:warning", "--log=smpi_coll.thres:warning", "--log=no_loc", programs.replayer});
  if (run.exit_code != 0)
    throw std::runtime_error(fmt::format("the replay failed (smpirun exit code {}): {}", run.exit_code,
                                         run.errors.substr(run.errors.size() > 400 ? run.errors.size() - 400 : 0)));
  ReplayTransferModel model;
  if (per_rank.network) model = {per_rank.network->latency_s, per_rank.network->bandwidth_Bps};
  auto replay = parse_replay_log(run.errors, prepared.ranks, model);
  for (std::size_t rank = 0; rank < prepared.ranks; ++rank) {
    replay.ranks[rank].flops = prepared.flops[rank];
    replay.ranks[rank].traced = prepared.traced[rank];
  }
  return replay;
}

}  // namespace

TraceReplay replay_trace(const TraceFolder& trace, const Platform& placement, const ReplayPrograms& programs,
                         const std::vector<double>& shares, std::size_t copies) {
  const io::TemporaryFolder folder("hetscale-replay");
  return replayed_on(prepared_trace(trace, shares, {}, copies, folder.path()), placement, programs, folder.path());
}

Platform what_if_placement(const std::string& item, const Platform& platform, const std::string& hosts,
                           std::size_t ranks) {
  const auto equals = item.find('=');
  const std::string kind = item.substr(0, equals), value = equals == std::string::npos ? "" : item.substr(equals + 1);
  if (kind == "speeds" && !value.empty()) {
    std::vector<double> speeds;
    try {
      speeds = io::parse_positive_list(value, "what-if");
    } catch (const InputError& error) {
      throw InputError("what-if", item, error.what());
    }
    Platform placement = platform;
    placement.nodes.clear();
    placement.speed_kind = SpeedKind::relative;
    for (std::size_t rank = 0; rank < ranks; ++rank) {
      PlatformNode node;
      node.name = fmt::format("rank-{}", rank);
      node.speed = speeds[rank % speeds.size()];
      placement.nodes.push_back(node);
    }
    return placement;
  }
  if (kind == "platform" && !value.empty()) return replay_placement(read_platform(value), hosts, ranks);
  throw InputError("what-if", item, "is not speeds=V1,V2,... or platform=FILE");
}

ReplayEfficiency replay_efficiency(const TraceReplay& replay, const Platform& placement) {
  // Each rank's processor: its node's speed, shared when more ranks than cores are on it.
  std::map<std::string, double> ranks_on;
  for (std::size_t rank = 0; rank < replay.ranks.size() && rank < placement.nodes.size(); ++rank)
    ranks_on[placement.nodes[rank].name] += 1.0;
  std::vector<double> capacity;
  double work = 0.0;
  for (std::size_t rank = 0; rank < replay.ranks.size() && rank < placement.nodes.size(); ++rank) {
    const auto& node = placement.nodes[rank];
    capacity.push_back(simulated_flops(placement, rank) * std::min(1.0, node.cores / ranks_on[node.name]));
    work += replay.ranks[rank].flops;
  }
  ReplayEfficiency result;
  if (capacity.empty() || !(replay.t_par > 0.0)) return result;
  const double fastest = *std::max_element(capacity.begin(), capacity.end());
  result.speedup = model::speedup_from_times(work / fastest, replay.t_par);
  result.max_speedup = model::max_speedup(capacity);
  result.efficiency = result.speedup / result.max_speedup;
  return result;
}

ReplayOutcome replay_request(const ReplayRequest& request, const ReplayPrograms& programs) {
  ReplayOutcome outcome;
  outcome.trace = read_trace_folder(request.trace);
  outcome.platform = request.platform;
  const std::size_t copies = request.repeat.empty() ? 1 : io::parse_count(request.repeat, "repeat");
  const std::size_t ranks = outcome.trace.files.size() * copies;
  const Platform platform = read_platform(request.platform);
  outcome.placement = replay_placement(platform, request.hosts, ranks);
  outcome.shares = request.shares.empty() ? std::vector<double>{} : io::parse_positive_list(request.shares, "shares");
  const auto& shares = outcome.shares;
  if (!request.traced_shares.empty() && shares.empty())
    throw InputError("traced-shares", "", "is the split the trace ran with, for --shares: give the shares asked too");
  outcome.traced_shares = request.traced_shares.empty()
                              ? std::vector<double>{}
                              : io::parse_positive_list(request.traced_shares, "traced-shares");
  std::vector<std::pair<std::string, Platform>> what_ifs;
  for (const auto& item : request.what_ifs)
    what_ifs.emplace_back(item, what_if_placement(item, platform, request.hosts, ranks));
  // The trace read, checked and written out once for every platform.
  const io::TemporaryFolder folder("hetscale-replay");
  const PreparedTrace prepared = prepared_trace(outcome.trace, shares, outcome.traced_shares, copies, folder.path());
  outcome.replay = replayed_on(prepared, outcome.placement, programs, folder.path());
  outcome.record = replay_record(outcome.replay, outcome.placement, request.trace);
  if (!what_ifs.empty()) {
    outcome.scenarios.push_back(
        {request.platform, outcome.replay.t_par, replay_efficiency(outcome.replay, outcome.placement)});
    for (const auto& [item, placement] : what_ifs) {
      const auto other = replayed_on(prepared, placement, programs, folder.path());
      outcome.scenarios.push_back({item, other.t_par, replay_efficiency(other, placement)});
    }
  }
  return outcome;
}

RunRecord replay_record(const TraceReplay& replay, const Platform& platform, const std::string& trace) {
  std::set<std::string> names;
  for (const auto& node : platform.nodes) names.insert(node.name);
  const bool shared = names.size() < platform.nodes.size();
  RunRecord record;
  record.t_par = replay.t_par;
  for (std::size_t rank = 0; rank < replay.ranks.size(); ++rank) {
    const auto& times = replay.ranks[rank];
    NodeRecord node;
    // Named by its host; by its rank at its host when ranks share hosts.
    const std::string host = rank < platform.nodes.size() ? platform.nodes[rank].name : "";
    node.name = host.empty() ? fmt::format("rank-{}", rank) : shared ? fmt::format("rank-{}@{}", rank, host) : host;
    node.work = times.flops;
    node.t_comp = times.compute;
    node.t_comm = times.transfer;
    node.t_idle = times.mpi - times.transfer + std::max(0.0, replay.t_par - times.finish);
    record.nodes.push_back(node);
  }
  record.context.notes_json =
      nlohmann::json{{"tool", "hetscale simulate replay"}, {"trace", trace}, {"platform", platform.name}}.dump();
  return record;
}

}  // namespace hetscale::sim
