// The farm's context block, typed: what both farms write reads back the same
// (as a run record's context, record/run_context.hpp).
#include "hetscale/record/farm_context.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "hetscale/record/run_context.hpp"

namespace hetscale {
namespace {

std::string farm_context_json(const FarmContext& farm) {
  RunContext context;
  context.farm = farm;
  return run_context_json(context);
}

std::optional<FarmContext> read_farm_context(const std::string& json) {
  return parse_run_context(json, "context.json").farm;
}

FarmContext mpi_farm_context() {
  FarmContext context;
  context.tool = "hetscale farm";
  context.host = "node1";
  context.date = "2026-11-24T20:00:00Z";
  context.mpi_library = "Open MPI v4.1.4";
  context.ranks = 3;
  context.clients = 2;
  context.policy = "adaptive";
  context.objective = "synthetic";
  context.eval_time_s = 4.0;
  context.time_scale = 0.01;
  context.speeds = {1.0, 0.5};
  context.ga = FarmGaSettings{"generational", "uniform", 32, 10, 0.9, 0.01, 1.5, 7};
  context.best_fitness = -1.25;
  context.best_genome = {0.5, -0.25};
  context.tasks = {{"client-1", 20, 1, 0.04}, {"client-2", 12, 0, 0.0}};
  context.generation_seconds = {0.5, 0.25};
  context.evaluations = 320;
  context.measurement = FarmMeasurement{40, 12, 1e-7, 2e-6, 0.001, "/proc/self/schedstat"};
  return context;
}

TEST(FarmContext, TheMpiFarmsBlockReadsBackTheSame) {
  const auto written = farm_context_json(mpi_farm_context());
  const auto read = read_farm_context(written);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(farm_context_json(*read), written);
  EXPECT_EQ(read->tasks_each_generation(), 32u);  // the GA's population
  EXPECT_EQ(read->generation_count(), 10u);
  ASSERT_TRUE(read->measurement.has_value());
  EXPECT_EQ(read->measurement->other_load_from, "/proc/self/schedstat");
}

TEST(FarmContext, TheSimulatorsBlockKeepsItsKeysInOrder) {
  FarmContext context;
  context.tool = "hetscale simulate farm";
  context.simulator = "SimGrid 3.32";
  context.platform = "hetero";
  context.clients = 1;
  context.policy = "even";
  context.tasks_per_generation = 8;
  context.generations = 2;
  context.eval_time_s = 4.0;
  context.speeds = {1.0};
  context.tasks = {{"client-1", 16, 0, 0.0}};
  context.generation_seconds = {32.0, 32.0};
  context.messages = 40;
  context.evaluations = 16;
  const auto written = farm_context_json(context);
  EXPECT_EQ(written,
            R"({"tool":"hetscale simulate farm","simulator":"SimGrid 3.32","platform":"hetero","clients":1,)"
            R"("policy":"even","tasks_per_generation":8,"generations":2,"eval_time_s":4.0,"speeds":[1.0],)"
            R"("tasks":[{"name":"client-1","tasks":16,"lost_tasks":0,"lost_seconds":0.0}],)"
            R"("generation_seconds":[32.0,32.0],"messages":40,"evaluations":16})");
  const auto read = read_farm_context(written);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(farm_context_json(*read), written);
  EXPECT_EQ(read->tasks_each_generation(), 8u);
  EXPECT_FALSE(read->ga.has_value());
}

TEST(FarmContext, OnlyAFarmsBlockIsAFarmContext) {
  EXPECT_FALSE(read_farm_context("{}").has_value());
  EXPECT_FALSE(read_farm_context(R"({"tool":"hetscale kernel","clients":2})").has_value());
  EXPECT_FALSE(read_farm_context(R"({"tool":"hetscale farm"})").has_value());  // no client count
  const auto odd = read_farm_context(R"({"tool":"hetscale farm","clients":2,"speeds":"fast","policy":3})");
  ASSERT_TRUE(odd.has_value());  // fields of the wrong type are left out
  EXPECT_TRUE(odd->speeds.empty());
  EXPECT_EQ(odd->policy, "");
  EXPECT_EQ(odd->clients, 2u);
}

// A count that is not a whole number a count can hold is left out, not
// converted (1e300 or -1 into a std::size_t would be undefined or nonsense).
TEST(FarmContext, CountsThatNoCountCanHoldAreLeftOut) {
  for (const char* clients : {"-1", "1e300", "2.5", "18446744073709551616", "-1e300"})
    EXPECT_FALSE(read_farm_context(std::string(R"({"tool":"hetscale farm","clients":)") + clients + "}").has_value())
        << clients;
  const auto counts = read_farm_context(
      R"({"tool":"hetscale farm","clients":2.0,"ranks":1e300,"messages":-3,"evaluations":18446744073709551615})");
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->clients, 2u);  // a whole number written as 2.0 is a count
  EXPECT_FALSE(counts->ranks.has_value());
  EXPECT_FALSE(counts->messages.has_value());
  EXPECT_EQ(counts->evaluations, 18446744073709551615u);
}

}  // namespace
}  // namespace hetscale
