#include "hetscale/measure/cpu_quota.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/io/input_error.hpp"

namespace hetscale::measure {
namespace {

bool exists(const std::string& path) {
  struct stat status {};
  return stat(path.c_str(), &status) == 0;
}

// cgroup v2 (cpu.max) or v1 (cpu.cfs_quota_us), by the files `group` holds.
bool is_version2(const std::string& group) { return !exists(group + "/cpu.cfs_quota_us"); }

bool write_text(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  file.flush();
  return static_cast<bool>(file);
}

}  // namespace

std::string cpu_cgroup_root() {
  if (exists("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")) return "/sys/fs/cgroup/cpu";
  std::ifstream controllers("/sys/fs/cgroup/cgroup.controllers");
  std::string word;
  while (controllers >> word)
    if (word == "cpu") return "/sys/fs/cgroup";
  return "";
}

CpuQuotaGroup::CpuQuotaGroup(const std::string& root, const std::string& name, double share) {
  if (!std::isfinite(share) || share <= 0.0 || share > 1.0)
    throw std::invalid_argument(fmt::format("an emulated speed must be in (0, 1], got {:g}", share));
  if (root.empty())
    throw InputError("--emulate-speeds", "/sys/fs/cgroup",
                     "has no cpu controller: emulating speeds needs cgroup v1's cpu or v2's cpu.max");
  version2_ = is_version2(root);
  path_ = root + "/" + name;
  if (mkdir(path_.c_str(), 0755) != 0 && errno != EEXIST)
    throw InputError("--emulate-speeds", path_,
                     fmt::format("cannot be made ({}): emulating speeds needs a writable cpu cgroup (run as root)",
                                 std::strerror(errno)));
  const long quota = std::lround(share * static_cast<double>(period_microseconds));
  const bool set = version2_ ? write_text(path_ + "/cpu.max", fmt::format("{} {}", quota, period_microseconds))
                             : write_text(path_ + "/cpu.cfs_period_us", std::to_string(period_microseconds)) &&
                                   write_text(path_ + "/cpu.cfs_quota_us", std::to_string(quota));
  if (!set) {
    rmdir(path_.c_str());
    throw InputError("--emulate-speeds", path_, "refused the CPU quota: emulating speeds needs a writable cpu cgroup");
  }
}

CpuQuotaGroup::~CpuQuotaGroup() {
  if (!path_.empty()) rmdir(path_.c_str());
}

bool CpuQuotaGroup::add(long pid) const { return write_text(path_ + "/cgroup.procs", std::to_string(pid)); }

QuotaLifted::QuotaLifted(const std::string& statistics_path) {
  const auto slash = statistics_path.rfind('/');
  if (slash == std::string::npos) return;
  const std::string group = statistics_path.substr(0, slash);
  const bool version2 = is_version2(group);
  const std::string quota_path = group + (version2 ? "/cpu.max" : "/cpu.cfs_quota_us");
  std::ifstream file(quota_path);
  std::string saved;
  if (!std::getline(file, saved) || saved.empty()) return;
  const std::string unlimited =
      version2 ? fmt::format("max {}", CpuQuotaGroup::period_microseconds) : std::string("-1");
  if (write_text(quota_path, unlimited)) {
    quota_path_ = quota_path;
    saved_ = saved;
  }
}

QuotaLifted::~QuotaLifted() {
  if (!quota_path_.empty()) write_text(quota_path_, saved_);
}

double throttled_seconds(const std::string& cpu_stat_text) {
  std::istringstream lines(cpu_stat_text);
  std::string key;
  double value = 0.0;
  while (lines >> key >> value) {
    if (key == "throttled_time") return value * 1e-9;
    if (key == "throttled_usec") return value * 1e-6;
  }
  return 0.0;
}

}  // namespace hetscale::measure
