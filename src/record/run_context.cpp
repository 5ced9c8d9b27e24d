#include "hetscale/record/run_context.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string_view>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"
#include "hetscale/record/run_record.hpp"
#include "io/strict_json.hpp"
#include "record/context_json.hpp"
#include "record/json_fields.hpp"

namespace hetscale {

MeasuredContext::MeasuredContext() = default;
MeasuredContext::MeasuredContext(const MeasuredContext&) = default;
MeasuredContext::MeasuredContext(MeasuredContext&&) noexcept = default;
MeasuredContext& MeasuredContext::operator=(const MeasuredContext&) = default;
MeasuredContext& MeasuredContext::operator=(MeasuredContext&&) noexcept = default;
MeasuredContext::~MeasuredContext() = default;

std::optional<std::string> RunContext::tool() const {
  if (farm) return farm->tool;
  if (measured) return measured->tool;
  return std::nullopt;
}

const std::vector<MpiFunctionProfile>& RunContext::mpi_functions() const {
  static const std::vector<MpiFunctionProfile> none;
  return measured ? measured->mpi_functions : none;
}

std::optional<WorkDistribution> RunContext::distribution() const {
  return kernel ? kernel->distribution : std::nullopt;
}

namespace record_json {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// The keys each part holds: the rest of a context is kept as notes.
constexpr std::string_view measured_keys[]{"tool",
                                           "region",
                                           "program",
                                           "ranks",
                                           "hosts",
                                           "speeds",
                                           "times",
                                           "transfer_model",
                                           "clock",
                                           "sharing",
                                           "emulation",
                                           "short_calls",
                                           "openmp",
                                           "offload",
                                           "threads",
                                           "measuring_off",
                                           "measuring_off_seconds",
                                           "mpi_functions",
                                           "regions"};
constexpr std::string_view kernel_keys[]{
    "kernel",      "N",    "W",           "T_s",  "marked_speeds_Mflops", "distribution", "distribution_shares",
    "marked_speed_Mflops", "emulated_speeds", "check", "host", "date", "mpi_library", "seed", "E_s", "simulator",
    "simulated_hosts", "simulated_computation"};
constexpr std::string_view farm_keys[]{
    "tool",      "host",      "date",         "mpi_library", "ranks",   "simulator",  "platform",
    "clients",   "policy",    "objective",    "tasks_per_generation",   "generations", "eval_time_s",
    "time_scale", "atoms",    "task_list",    "tasks_run",   "failed_tasks", "retries", "timeout_s",
    "job_log",   "speeds",    "ga",           "best_fitness", "best_genome", "tasks",  "generation_seconds",
    "messages",  "evaluations", "measurement"};

bool holds_any(const json& context, std::span<const std::string_view> keys) {
  return std::any_of(keys.begin(), keys.end(), [&](std::string_view key) { return context.contains(key); });
}

template <class T>
std::vector<T> list_of(const json& object, const char* key) {
  return get<std::vector<T>>(object, key).value_or(std::vector<T>{});
}

std::optional<MeasuredSharing> sharing_from(const json& context) {
  const auto found = context.find("sharing");
  if (found == context.end() || !found->is_object()) return std::nullopt;
  MeasuredSharing sharing;
  sharing.cpus = list_of<int>(*found, "cpus");
  sharing.threads = list_of<int>(*found, "threads");
  sharing.cores_shared = get<bool>(*found, "cores_shared").value_or(false);
  if (const auto hosts = found->find("ranks_per_host"); hosts != found->end() && hosts->is_object())
    for (const auto& [host, ranks] : hosts->items())
      if (const auto count = whole_number<int>(ranks)) sharing.ranks_per_host[host] = *count;
  return sharing;
}

std::optional<MeasuredEmulation> emulation_from(const json& context) {
  const auto found = context.find("emulation");
  if (found == context.end() || !found->is_object()) return std::nullopt;
  return MeasuredEmulation{get<std::string>(*found, "mechanism").value_or(""), list_of<double>(*found, "asked"),
                           list_of<double>(*found, "achieved")};
}

std::optional<MeasuredShortCalls> short_calls_from(const json& context) {
  const auto found = context.find("short_calls");
  if (found == context.end() || !found->is_object()) return std::nullopt;
  return MeasuredShortCalls{get<std::string>(*found, "how").value_or(""), list_of<double>(*found, "counted_calls"),
                            list_of<double>(*found, "unsplit_seconds")};
}

// The per-rank lists of MeasuredOpenMp, by their keys in the record.
template <class OpenMp>
auto openmp_lists(OpenMp& openmp) {
  return std::array{std::pair{"team", &openmp.team},
                    std::pair{"useful", &openmp.useful},
                    std::pair{"mpi", &openmp.mpi},
                    std::pair{"imbalance", &openmp.imbalance},
                    std::pair{"scheduling", &openmp.scheduling},
                    std::pair{"serialization", &openmp.serialization},
                    std::pair{"other", &openmp.other},
                    std::pair{"in_regions", &openmp.in_regions}};
}

std::optional<MeasuredOpenMp> openmp_from(const json& context) {
  const auto found = context.find("openmp");
  if (found == context.end() || !found->is_object()) return std::nullopt;
  MeasuredOpenMp openmp;
  openmp.how = get<std::string>(*found, "how").value_or("");
  for (auto [key, list] : openmp_lists(openmp)) *list = list_of<double>(*found, key);
  if (const auto ranks = found->find("threads"); ranks != found->end() && ranks->is_array())
    for (const auto& rank : *ranks) {
      auto& threads = openmp.threads.emplace_back();
      if (!rank.is_array()) continue;
      for (const auto& thread : rank)
        if (thread.is_object())
          threads.push_back({get<int>(thread, "thread").value_or(0), get<double>(thread, "speed").value_or(1.0),
                             get<double>(thread, "work").value_or(0.0), get<double>(thread, "held").value_or(0.0)});
    }
  return openmp;
}

// The keys of a device in the record, and its members.
template <class Device>
auto device_fields(Device& device) {
  return std::array{std::pair{"kernels", &device.kernels},         std::pair{"kernel_s", &device.kernel_seconds},
                    std::pair{"copies_to", &device.copies_to},     std::pair{"bytes_to", &device.bytes_to},
                    std::pair{"copies_from", &device.copies_from}, std::pair{"bytes_from", &device.bytes_from},
                    std::pair{"copy_s", &device.copy_seconds}};
}

std::optional<MeasuredOffload> offload_from(const json& context) {
  const auto found = context.find("offload");
  if (found == context.end() || !found->is_object()) return std::nullopt;
  MeasuredOffload offload;
  offload.how = get<std::string>(*found, "how").value_or("");
  offload.runtime_seconds = list_of<double>(*found, "runtime_s");
  offload.runtime_waited = list_of<double>(*found, "runtime_other_s");
  offload.runtime_calls = list_of<double>(*found, "runtime_calls");
  offload.runtime_on_mpi_threads = list_of<double>(*found, "runtime_mpi_thread_s");
  if (const auto ranks = found->find("devices"); ranks != found->end() && ranks->is_array())
    for (const auto& rank : *ranks) {
      auto& devices = offload.devices.emplace_back();
      if (!rank.is_array()) continue;
      for (const auto& device : rank) {
        if (!device.is_object()) continue;
        MeasuredDevice read;
        read.number = get<int>(device, "device").value_or(0);
        for (auto [key, value] : device_fields(read)) *value = get<double>(device, key).value_or(0.0);
        devices.push_back(read);
      }
    }
  return offload;
}

std::vector<std::vector<MeasuredThread>> threads_from(const json& context) {
  std::vector<std::vector<MeasuredThread>> ranks;
  const auto found = context.find("threads");
  if (found == context.end() || !found->is_array()) return ranks;
  for (const auto& rank : *found) {
    auto& threads = ranks.emplace_back();
    if (!rank.is_array()) continue;
    for (const auto& thread : rank) {
      if (!thread.is_object()) continue;
      MeasuredThread read;
      read.calls_mpi = get<bool>(thread, "calls_mpi").value_or(false);
      for (auto [key, value] : {std::pair{"on_cpu", &read.on_cpu}, {"held", &read.held}, {"other", &read.other},
                                {"blocked", &read.blocked}, {"setup", &read.setup}, {"comm", &read.comm},
                                {"idle", &read.idle}})
        *value = get<double>(thread, key).value_or(0.0);
      threads.push_back(read);
    }
  }
  return ranks;
}

// Each region that names itself, read as a run record of its own.
std::vector<RunRecord> regions_from(const json& context, const std::string& source) {
  std::vector<RunRecord> regions;
  const auto found = context.find("regions");
  if (found == context.end() || !found->is_array()) return regions;
  for (const auto& region : *found) {
    if (!region.is_object() || !region.contains("context") || !region["context"].is_object()) continue;
    const auto name = get<std::string>(region["context"], "region");
    if (!name) continue;
    regions.push_back(run_record_from(region, fmt::format("{}, region {}", source, *name)));
  }
  return regions;
}

MeasuredContext measured_from(const json& context, const std::string& source) {
  MeasuredContext measured;
  measured.tool = get<std::string>(context, "tool");
  measured.region = get<std::string>(context, "region");
  measured.program = get<std::string>(context, "program");
  measured.ranks = get<std::size_t>(context, "ranks");
  measured.hosts = list_of<std::string>(context, "hosts");
  measured.speeds = get<std::string>(context, "speeds");
  measured.times = get<std::string>(context, "times");
  measured.transfer_model = get<std::string>(context, "transfer_model");
  measured.clock = get<std::string>(context, "clock");
  measured.sharing = sharing_from(context);
  measured.emulation = emulation_from(context);
  measured.short_calls = short_calls_from(context);
  measured.openmp = openmp_from(context);
  measured.offload = offload_from(context);
  measured.threads = threads_from(context);
  measured.measuring_off = get<std::string>(context, "measuring_off");
  measured.measuring_off_seconds = list_of<double>(context, "measuring_off_seconds");
  if (const auto found = context.find("mpi_functions"); found != context.end())
    measured.mpi_functions = mpi_profile_from(*found);
  measured.regions = regions_from(context, source);
  return measured;
}

KernelContext kernel_from(const json& context) {
  KernelContext kernel;
  kernel.kernel = get<std::string>(context, "kernel").value_or("");
  kernel.N = get<std::size_t>(context, "N");
  kernel.W = get<double>(context, "W");
  kernel.T_s = get<double>(context, "T_s");
  kernel.marked_speeds_Mflops = list_of<double>(context, "marked_speeds_Mflops");
  kernel.distribution = work_distribution_from(context);
  kernel.marked_speed_Mflops = get<double>(context, "marked_speed_Mflops");
  kernel.emulated_speeds = list_of<double>(context, "emulated_speeds");
  if (const auto check = context.find("check"); check != context.end() && check->is_object())
    kernel.check = KernelCheck{get<std::string>(*check, "quantity").value_or(""),
                               get<double>(*check, "value").value_or(0.0),
                               get<double>(*check, "tolerance").value_or(0.0), get<bool>(*check, "passed").value_or(false)};
  kernel.host = get<std::string>(context, "host");
  kernel.date = get<std::string>(context, "date");
  kernel.mpi_library = get<std::string>(context, "mpi_library");
  kernel.seed = get<std::uint64_t>(context, "seed");
  kernel.E_s = get<double>(context, "E_s");
  kernel.simulator = get<std::string>(context, "simulator");
  kernel.simulated_hosts = list_of<std::string>(context, "simulated_hosts");
  kernel.simulated_computation = get<std::string>(context, "simulated_computation");
  return kernel;
}

ordered_json measured_document(const MeasuredContext& measured) {
  ordered_json out = ordered_json::object();
  put(out, "tool", measured.tool);
  put(out, "region", measured.region);
  put(out, "program", measured.program);
  put(out, "ranks", measured.ranks);
  if (!measured.hosts.empty()) out["hosts"] = measured.hosts;
  put(out, "speeds", measured.speeds);
  put(out, "times", measured.times);
  put(out, "transfer_model", measured.transfer_model);
  put(out, "clock", measured.clock);
  if (const auto& sharing = measured.sharing) {
    ordered_json hosts = ordered_json::object();
    for (const auto& [host, ranks] : sharing->ranks_per_host) hosts[host] = ranks;
    out["sharing"] = {{"cpus", sharing->cpus},
                      {"threads", sharing->threads},
                      {"ranks_per_host", hosts},
                      {"cores_shared", sharing->cores_shared}};
  }
  if (const auto& emulation = measured.emulation)
    out["emulation"] = {
        {"mechanism", emulation->mechanism}, {"asked", emulation->asked}, {"achieved", emulation->achieved}};
  if (const auto& short_calls = measured.short_calls)
    out["short_calls"] = {{"how", short_calls->how},
                          {"counted_calls", short_calls->counted_calls},
                          {"unsplit_seconds", short_calls->unsplit_seconds}};
  if (const auto& openmp = measured.openmp) {
    auto& document = out["openmp"] = {{"how", openmp->how}};
    for (auto [key, list] : openmp_lists(*openmp)) document[key] = *list;
    auto& ranks = document["threads"] = ordered_json::array();
    for (const auto& threads : openmp->threads) {
      auto& rank = ranks.emplace_back(ordered_json::array());
      for (const auto& t : threads)
        rank.push_back({{"thread", t.number}, {"speed", t.speed}, {"work", t.work}, {"held", t.held}});
    }
  }
  if (const auto& offload = measured.offload) {
    auto& document = out["offload"] = {{"how", offload->how},
                                       {"runtime_s", offload->runtime_seconds},
                                       {"runtime_other_s", offload->runtime_waited},
                                       {"runtime_calls", offload->runtime_calls}};
    if (!offload->runtime_on_mpi_threads.empty()) document["runtime_mpi_thread_s"] = offload->runtime_on_mpi_threads;
    auto& ranks = document["devices"] = ordered_json::array();
    for (const auto& devices : offload->devices) {
      auto& rank = ranks.emplace_back(ordered_json::array());
      for (auto device : devices) {
        ordered_json written = {{"device", device.number}};
        for (auto [key, value] : device_fields(device)) written[key] = *value;
        rank.push_back(written);
      }
    }
  }
  if (!measured.threads.empty()) {
    auto& ranks = out["threads"] = ordered_json::array();
    for (const auto& threads : measured.threads) {
      auto& rank = ranks.emplace_back(ordered_json::array());
      for (const auto& t : threads)
        rank.push_back({{"calls_mpi", t.calls_mpi},
                        {"on_cpu", t.on_cpu},
                        {"held", t.held},
                        {"other", t.other},
                        {"blocked", t.blocked},
                        {"setup", t.setup},
                        {"comm", t.comm},
                        {"idle", t.idle}});
    }
  }
  put(out, "measuring_off", measured.measuring_off);
  if (!measured.measuring_off_seconds.empty()) out["measuring_off_seconds"] = measured.measuring_off_seconds;
  if (measured.tool || !measured.mpi_functions.empty())
    out["mpi_functions"] = mpi_profile_document(measured.mpi_functions);
  if (!measured.regions.empty()) {
    auto& regions = out["regions"] = ordered_json::array();
    for (const auto& region : measured.regions) regions.push_back(run_record_document(region));
  }
  return out;
}

ordered_json kernel_document(const KernelContext& kernel) {
  ordered_json out = ordered_json::object();
  out["kernel"] = kernel.kernel;
  put(out, "N", kernel.N);
  put(out, "W", kernel.W);
  put(out, "T_s", kernel.T_s);
  if (!kernel.marked_speeds_Mflops.empty()) out["marked_speeds_Mflops"] = kernel.marked_speeds_Mflops;
  if (const auto& distribution = kernel.distribution) {
    out["distribution"] = distribution->name;
    out["distribution_shares"] = distribution->shares;
  }
  put(out, "marked_speed_Mflops", kernel.marked_speed_Mflops);
  if (!kernel.emulated_speeds.empty()) out["emulated_speeds"] = kernel.emulated_speeds;
  if (const auto& check = kernel.check)
    out["check"] = {{"quantity", check->quantity},
                    {"value", check->value},
                    {"tolerance", check->tolerance},
                    {"passed", check->passed}};
  put(out, "host", kernel.host);
  put(out, "date", kernel.date);
  put(out, "mpi_library", kernel.mpi_library);
  put(out, "seed", kernel.seed);
  put(out, "E_s", kernel.E_s);
  put(out, "simulator", kernel.simulator);
  if (!kernel.simulated_hosts.empty()) out["simulated_hosts"] = kernel.simulated_hosts;
  put(out, "simulated_computation", kernel.simulated_computation);
  return out;
}

}  // namespace

// A farm's context is the farm's alone; else a kernel's (it names its
// kernel); else a program's, measured or described. What no part holds is kept.
RunContext run_context_from(const json& context, const std::string& source) {
  RunContext read;
  if (!context.is_object()) return read;
  std::span<const std::string_view> held;
  if ((read.farm = farm_context_from(context))) {
    held = farm_keys;
  } else if (context.contains("kernel") && context["kernel"].is_string()) {
    read.kernel = kernel_from(context);
    held = kernel_keys;
  } else if (holds_any(context, measured_keys)) {
    read.measured = measured_from(context, source);
    held = measured_keys;
  }
  ordered_json notes = ordered_json::object();
  for (const auto& [key, value] : context.items())
    if (std::find(held.begin(), held.end(), key) == held.end()) notes[key] = value;
  if (!notes.empty()) read.notes_json = notes.dump();
  return read;
}

ordered_json run_context_document(const RunContext& context) {
  ordered_json out = ordered_json::object();
  if (context.farm) out = farm_context_document(*context.farm);
  if (context.kernel) out.update(kernel_document(*context.kernel));
  if (context.measured) out.update(measured_document(*context.measured));
  if (!context.notes_json.empty()) {
    const auto notes = ordered_json::parse(context.notes_json, nullptr, false);
    if (notes.is_object()) out.update(notes);
  }
  return out;
}

}  // namespace record_json

RunContext parse_run_context(std::string_view text, const std::string& source) {
  const auto document = io::parse_json(text, source);
  if (!document.is_object()) throw InputError(source, "context", "must be a JSON object");
  return record_json::run_context_from(document, source);
}

std::string run_context_json(const RunContext& context) { return record_json::run_context_document(context).dump(); }

}  // namespace hetscale
