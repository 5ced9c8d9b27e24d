#pragma once
// A platform: the nodes of a heterogeneous parallel computer with their
// declared speeds, and the network between them. Read from a JSON file
// (schema "hetscale.platform/1") or from Chen et al. 2008's plain text form
// ("hostname marked-speed" per line). See docs/formats.md.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hetscale {

enum class SpeedKind {
  relative,  // `speed`: relative to the reference machine (APGA 2004 v_i, Clematis-Corana 1999 s_i)
  marked,    // `marked_speed`: benchmarked sustained speed, Mflop/s (Chen et al. 2008 C_i)
};

// From `time_s` on, a node delivers `fraction` of its speed (the rest goes
// to other load: a non-dedicated node, Clematis-Corana 1999's sigma_i).
struct AvailabilityPoint {
  double time_s = 0.0;
  double fraction = 1.0;  // in (0, 1]
};

struct PlatformNode {
  std::string name;
  double speed = 0.0;  // in the platform's SpeedKind (of each of its cores)
  // How much of its speed the node delivers over time, in increasing time
  // (empty: all of it, always). Before the first point: all of it.
  std::vector<AvailabilityPoint> availability;
  double availability_period_s = 0.0;  // > 0: the availability repeats with this period
  int cores = 1;                       // ranks placed on the node share them (simulated replays)
};

// How the nodes are connected: every node has a private link to a switch
// (star), and in a cluster every route also crosses one shared backbone.
enum class Topology { star, cluster };

struct Link {
  double latency_s = 0.0;
  double bandwidth_Bps = 0.0;
};

struct Network {
  double latency_s = 0.0;      // one-way, node to node (a cluster adds the backbone's)
  double bandwidth_Bps = 0.0;  // of every node's link
  Topology topology = Topology::star;
  std::optional<Link> backbone;  // cluster only
};
std::string to_string(Topology topology);

// A latency ("5ms", "100us", "0.005s", or a number of seconds) and a
// bandwidth ("100Mbps", "12.5MBps", "1Gbps", or a number of bytes per
// second). std::invalid_argument says what is allowed.
double parse_latency(const std::string& text);
double parse_bandwidth(const std::string& text);

struct Platform {
  inline static constexpr std::string_view schema = "hetscale.platform/1";

  std::string source;  // where it was read from, for messages
  std::string name;
  SpeedKind speed_kind = SpeedKind::relative;
  std::vector<PlatformNode> nodes;  // one entry per processor (`count` expanded)
  std::string reference_name;       // the machine speeds are relative to
  std::optional<double> reference_marked_speed;
  std::optional<Network> network;

  // The declared speeds in node order (relative or marked, as declared).
  std::vector<double> declared_speeds() const;
  // Speeds relative to the reference machine (Clematis-Corana 1999 s_i), when the platform
  // says what the reference is: relative speeds as given; marked speeds divided
  // by the reference's marked speed (given, or of the node the reference names).
  std::optional<std::vector<double>> relative_speeds() const;
  // The node of this name, or nullptr.
  const PlatformNode* find(std::string_view node_name) const;
};

// Parses either form: JSON if the text starts with '{', else plain text.
Platform parse_platform(std::string_view text, const std::string& source);
Platform parse_platform_json(std::string_view text, const std::string& source);
Platform parse_platform_text(std::string_view text, const std::string& source);
Platform read_platform(const std::string& path);
// The marked speeds (Mflop/s, Chen et al. 2008 Definition 1) a platform file declares,
// one per node in order; InputError naming the file when its speeds are relative.
std::vector<double> read_marked_speeds(const std::string& path);

// The platform as JSON (schema "hetscale.platform/1"), one entry per node, and
// in Chen et al. 2008's plain form (one "hostname marked-speed" line per node, after
// `comment` lines starting with '#'; marked speeds only). Both read back.
std::string platform_json(const Platform& platform, const std::string& description = "");
std::string platform_text(const Platform& platform, const std::string& comment = "");

}  // namespace hetscale
