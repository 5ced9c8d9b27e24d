#pragma once
// A slower node emulated for any program: a control group that holds its
// processes to a share of one CPU (cgroup v1's cpu controller, quota = share
// x period, as here; v2's cpu.max where that is what the machine has). A
// process held back by its quota waits in the run queue, so the time the
// group was throttled (cpu.stat) is computation at the emulated speed, not
// other load (docs/measure.md, --emulate-speeds).
#include <string>

namespace hetscale::measure {

// Where this machine's cpu controller is mounted: /sys/fs/cgroup/cpu (v1),
// else /sys/fs/cgroup (v2); empty when neither has one.
std::string cpu_cgroup_root();

class CpuQuotaGroup {
 public:
  // Creates ROOT/NAME holding its processes to `share` in (0, 1] of a CPU.
  // Throws InputError naming the path and what is needed when it cannot (no
  // cpu controller, not writable) and std::invalid_argument for a bad share.
  CpuQuotaGroup(const std::string& root, const std::string& name, double share);
  ~CpuQuotaGroup();  // removes the group; its processes must have ended
  CpuQuotaGroup(const CpuQuotaGroup&) = delete;
  CpuQuotaGroup& operator=(const CpuQuotaGroup&) = delete;

  // Moves process `pid` into the group (false when the kernel refused).
  bool add(long pid) const;
  const std::string& path() const { return path_; }
  // The group's cpu.stat, where the throttled time is.
  std::string statistics_path() const { return path_ + "/cpu.stat"; }

  inline static constexpr long period_microseconds = 100000;

 private:
  std::string path_;
  bool version2_ = false;
};

// While it lives, the group whose cpu.stat is at `statistics_path` (a
// CpuQuotaGroup's statistics_path(); empty: none) is not held to its quota;
// the quota comes back when it ends. For hetscale's own work inside an
// emulated node (the transfer model's ping-pong at MPI_Init), which the
// emulated speed is not about. Where the quota cannot be read or written,
// nothing changes.
class QuotaLifted {
 public:
  explicit QuotaLifted(const std::string& statistics_path);
  ~QuotaLifted();
  QuotaLifted(const QuotaLifted&) = delete;
  QuotaLifted& operator=(const QuotaLifted&) = delete;

 private:
  std::string quota_path_, saved_;
};

// The time a group was throttled so far, seconds, from the text of its
// cpu.stat: v1's throttled_time (ns) or v2's throttled_usec; 0 when absent.
double throttled_seconds(const std::string& cpu_stat_text);

}  // namespace hetscale::measure
