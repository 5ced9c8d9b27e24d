#include "hetscale/sim/farm_engine.hpp"

#include <stdexcept>

#include "hetscale/sim/event_farm.hpp"

namespace hetscale::sim {
namespace {

class SimGridFarm final : public FarmSimulator {
 public:
  void validate(const Platform& platform, const SimulatedFarmOptions& options) const override {
    validate_simulated_farm(platform, options);
  }
  SimulatedFarmRun simulate(const Platform& platform, const SimulatedFarmOptions& options) const override {
    return simulate_farm_on_platform(platform, options);
  }
};

class EventFarm final : public FarmSimulator {
 public:
  void validate(const Platform& platform, const SimulatedFarmOptions& options) const override {
    validate_event_farm(platform, options);
  }
  SimulatedFarmRun simulate(const Platform& platform, const SimulatedFarmOptions& options) const override {
    return simulate_farm_with_events(platform, options);
  }
};

}  // namespace

FarmEngine farm_engine_from_string(const std::string& name) {
  if (name == "simgrid") return FarmEngine::simgrid;
  if (name == "events") return FarmEngine::events;
  throw std::invalid_argument("must be simgrid or events, got '" + name + "'");
}

std::string to_string(FarmEngine engine) { return engine == FarmEngine::simgrid ? "simgrid" : "events"; }

std::unique_ptr<FarmSimulator> farm_simulator(FarmEngine engine) {
  if (engine == FarmEngine::events) return std::make_unique<EventFarm>();
  return std::make_unique<SimGridFarm>();
}

}  // namespace hetscale::sim
