#pragma once
// The farm's simulators behind one interface: `hetscale simulate farm
// --engine` picks one, and both run the same FarmServer, FarmClient and
// policies on a platform and write the same run record. SimGrid's actors
// (simgrid_farm.hpp) share the platform's links between messages in flight
// and follow availability traces; hetscale's own event simulation
// (event_farm.hpp) times each message alone on its route, a hundred times
// faster at 10,000 clients, with no availability traces.
#include <memory>
#include <string>

#include "hetscale/platform/platform.hpp"
#include "hetscale/sim/simgrid_farm.hpp"

namespace hetscale::sim {

enum class FarmEngine { simgrid, events };

// "simgrid" or "events"; std::invalid_argument naming the choices otherwise.
FarmEngine farm_engine_from_string(const std::string& name);
std::string to_string(FarmEngine engine);

class FarmSimulator {
 public:
  virtual ~FarmSimulator() = default;
  // Throws InputError naming the platform's node or the setting this engine
  // cannot simulate (beside the farm's own checks, validate_simulated_farm).
  virtual void validate(const Platform& platform, const SimulatedFarmOptions& options) const = 0;
  // The farm run in simulated time; options must have passed validate.
  virtual SimulatedFarmRun simulate(const Platform& platform, const SimulatedFarmOptions& options) const = 0;
};

std::unique_ptr<FarmSimulator> farm_simulator(FarmEngine engine);

}  // namespace hetscale::sim
