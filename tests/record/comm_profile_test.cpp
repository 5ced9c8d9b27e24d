// Communication profiles (schema "hetscale.comm-profile/1"): the fitted
// costs of Chen et al. 2008 Section 4.5, fit qualities, samples and context, read
// strictly and written back unchanged. Bad input is an InputError whose
// what() is one line "SOURCE: FIELD: problem".
#include "hetscale/record/comm_profile.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>

#include "support/assertions.hpp"

namespace hetscale {
namespace {

std::string ProfileError(const std::string& text) {
  return testing_support::ErrorMessage([&] { parse_comm_profile(text, "c.json"); });
}

// A profile whose costs block is `costs` (the other fields as given after it).
std::string Profile(const std::string& costs, const std::string& rest = "") {
  return R"({"schema": "hetscale.comm-profile/1", "costs": {)" + costs + "}" + rest + "}";
}

// Chen et al. 2008 Section 4.5's Sunwulf costs, in seconds; receive is left out of
// the text (T_recv = T_send), so the parsed costs carry it equal to send.
const std::string valid_costs =
    R"("broadcast": {"intercept": 0.12e-3, "per_process": 0.23e-3}, "send": {"intercept": 0.08e-3,
       "per_element": 3e-8}, "barrier": {"per_process": 0.39e-3}, "unit_computation": 3.1e-8)";
const model::CommunicationCosts paper_costs{.broadcast_intercept = 0.12e-3,
                                            .broadcast_per_process = 0.23e-3,
                                            .send_intercept = 0.08e-3,
                                            .send_per_element = 3e-8,
                                            .receive_intercept = 0.08e-3,
                                            .receive_per_element = 3e-8,
                                            .barrier_per_process = 0.39e-3,
                                            .unit_computation = 3.1e-8,
                                            .reference_marked_speed = std::nullopt};

void ExpectSameCosts(const model::CommunicationCosts& actual, const model::CommunicationCosts& expected) {
  EXPECT_EQ(actual.broadcast_intercept, expected.broadcast_intercept);
  EXPECT_EQ(actual.broadcast_per_process, expected.broadcast_per_process);
  EXPECT_EQ(actual.send_intercept, expected.send_intercept);
  EXPECT_EQ(actual.send_per_element, expected.send_per_element);
  EXPECT_EQ(actual.receive_intercept, expected.receive_intercept);
  EXPECT_EQ(actual.receive_per_element, expected.receive_per_element);
  EXPECT_EQ(actual.barrier_per_process, expected.barrier_per_process);
  EXPECT_EQ(actual.unit_computation, expected.unit_computation);
  EXPECT_EQ(actual.reference_marked_speed, expected.reference_marked_speed);
}

CommProfile FullProfile() {
  CommProfile profile;
  profile.label = "five ranks";
  auto& costs = profile.costs;
  costs.broadcast_intercept = 1.25e-5;
  costs.broadcast_per_process = 3.0000000000000001e-6;
  costs.send_intercept = 7.1e-6;
  costs.send_per_element = 1.0 / 3.0 * 1e-9;
  costs.receive_intercept = 6.5e-6;
  costs.receive_per_element = 2e-10;
  costs.barrier_per_process = 4.4e-6;
  costs.unit_computation = 1.0 / 7.0 * 1e-8;
  costs.reference_marked_speed = 812.5;
  profile.fits = {{"broadcast", 0.93, 4}, {"send", 0.999999, 3}, {"barrier", -0.25, 4}};
  profile.samples = {{"broadcast", 4, 1000, 2.5e-5, 20},
                     {"barrier", 2, 0, 1.1e-5, 31},
                     {"send", 2, 100000, 1e-3, 20},
                     {"compute", 1, 5.5e8, 0.2, 1}};
  profile.samples.push_back({"multiphase", 3, 1000, 4.5e-5, 5});
  profile.structures = {{"multiphase", 6.25e-9, -1.0 / 3.0 * 1e-8, 6.5e-6, -3.75e-6, 0.967, 12},
                        {"shift", 0.0, 2.9e-9, 0.0, 8.3e-6, 0.93, 12},
                        {"broadcast", 6.5e-10, 4.2e-11, 2.8e-6, -1.3e-6, std::nullopt, 0},
                        {"scatter", 6.2e-10, 9.9e-10, 1.1e-6, 3.3e-6, 0.98, 12},
                        {"gather", 1.3e-9, -4.8e-10, 1.3e-6, 2.0e-6, 0.999, 12}};
  profile.context.host = "h";
  profile.context.ranks = 5;
  profile.context.written_json = R"({"sizes":[1,1000]})";  // a key no field holds
  return profile;
}

// format: what is written is read back exactly, every double bit for bit.
TEST(CommProfile, RoundTrip) {
  const CommProfile written = FullProfile();
  const std::string json = comm_profile_json(written);
  const CommProfile read = parse_comm_profile(json, "p.json");
  EXPECT_EQ(read.source, "p.json");
  EXPECT_EQ(read.label, written.label);
  ExpectSameCosts(read.costs, written.costs);
  ASSERT_EQ(read.fits.size(), written.fits.size());
  for (const auto& fit : written.fits) {
    bool found = false;
    for (const auto& back : read.fits)
      if (back.operation == fit.operation) {
        found = true;
        EXPECT_EQ(back.r_squared, fit.r_squared);
        EXPECT_EQ(back.points, fit.points);
      }
    EXPECT_TRUE(found) << fit.operation;
  }
  ASSERT_EQ(read.samples.size(), written.samples.size());
  for (std::size_t i = 0; i < read.samples.size(); ++i) {
    EXPECT_EQ(read.samples[i].operation, written.samples[i].operation);
    EXPECT_EQ(read.samples[i].processes, written.samples[i].processes);
    EXPECT_EQ(read.samples[i].elements, written.samples[i].elements);
    EXPECT_EQ(read.samples[i].seconds, written.samples[i].seconds);
    EXPECT_EQ(read.samples[i].repetitions, written.samples[i].repetitions);
  }
  ASSERT_EQ(read.structures.size(), written.structures.size());
  auto fields = [](const StructureCosts& c) {
    return std::tuple(c.structure, c.m, c.n, c.r, c.q, c.r_squared, c.points);
  };
  for (std::size_t i = 0; i < read.structures.size(); ++i)
    EXPECT_EQ(fields(read.structures[i]), fields(written.structures[i]));
  EXPECT_EQ(read.context.host, "h");
  EXPECT_EQ(read.context.ranks, 5);
  EXPECT_NE(read.context.written_json.find("\"sizes\":[1,1000]"), std::string::npos);
  EXPECT_EQ(comm_profile_json(read), json);  // and writes the same text again
}

// Stage-GA Table II: shift has only N and Q; a structure's costs are f1(p) d + f2(p).
TEST(CommProfile, StructureCosts) {
  const auto profile = parse_comm_profile(Profile(valid_costs, R"(, "structures": {"shift": {"N": 2e-9, "Q": 1e-5},
              "gather": {"M": 1e-9, "N": 3e-9, "R": 2e-6, "Q": 4e-6}})"),
                                          "c.json");
  ASSERT_EQ(profile.structures.size(), 2U);
  const auto& shift = structure_costs(profile, "shift");
  EXPECT_EQ(shift.m, 0.0);
  EXPECT_EQ(shift.r, 0.0);
  EXPECT_EQ(shift.seconds(1000, 16), 2e-9 * 1000 + 1e-5);
  EXPECT_FALSE(shift.r_squared.has_value());
  EXPECT_EQ(shift.points, 0U);
  const auto& gather = structure_costs(profile, "gather");
  EXPECT_TRUE(testing_support::RelNear(gather.seconds(1000, 4), (1e-9 * 4 + 3e-9) * 1000 + 2e-6 * 4 + 4e-6));
  EXPECT_NE(comm_profile_json(profile).find(R"("shift": {
      "N": 2e-09,
      "Q": 1e-05
    })"),
            std::string::npos)
      << comm_profile_json(profile);
}

// The bad input "a machine profile missing a structure": one line naming the file and the structure.
TEST(CommProfile, MissingStructure) {
  const auto seed001 = parse_comm_profile(Profile(valid_costs), "m.json");  // still valid for Chen et al. 2008
  EXPECT_TRUE(seed001.structures.empty());
  const std::string message = testing_support::ErrorMessage([&] { structure_costs(seed001, "multiphase"); });
  EXPECT_EQ(message.rfind("m.json: structures.multiphase: missing; the optimizer needs all five structures: "
                          "multiphase, shift, broadcast, scatter, gather",
                          0),
            0U)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
  const auto partial =
      parse_comm_profile(Profile(valid_costs, R"(, "structures": {"shift": {"N": 1e-9, "Q": 1e-6}})"), "m.json");
  EXPECT_NO_THROW(structure_costs(partial, "shift"));
  EXPECT_NE(testing_support::ErrorMessage([&] {
              structure_costs(partial, "scatter");
            }).find("m.json: structures.scatter: missing"),
            std::string::npos);
  EXPECT_THROW(structure_costs(partial, "ring"), std::invalid_argument);
}

// format: only costs is required; receive left out means T_recv = T_send (Chen et al. 2008 measured them equal).
TEST(CommProfile, CostsOnly) {
  const auto profile = parse_comm_profile(Profile(valid_costs), "c.json");
  EXPECT_EQ(profile.label, "");
  ExpectSameCosts(profile.costs, paper_costs);
  EXPECT_TRUE(profile.fits.empty());
  EXPECT_TRUE(profile.samples.empty());
  EXPECT_EQ(profile.context.written_json, "{}");
}

// The paper's own Section 4.5 parameters ship in this format.
TEST(CommProfile, PaperSection45File) {
  const auto profile = read_comm_profile(std::string(HETSCALE_DATA_DIR) + "/papers/seed001-section45.json");
  ExpectSameCosts(profile.costs, paper_costs);
}

// Bad input: one line naming the file, the field and what is allowed.
TEST(CommProfile, BadInput) {
  const std::string costs_without_barrier =
      R"("broadcast": {"intercept": 1, "per_process": 1}, "send": {"intercept": 1, "per_element": 1},
         "unit_computation": 1)";
  auto with_sample = [&](const std::string& sample) {
    return Profile(valid_costs, R"(, "samples": [)" + sample + "]");
  };
  const struct {
    std::string text, message;
  } cases[] = {
      {"{", "c.json: not valid JSON"},
      {R"({"schema": "hetscale.run/1", "costs": {}})",
       "c.json: schema: this is a run record (hetscale.run/1), not a communication profile"},
      {R"({"schema": "mine/1", "costs": {}})", R"(c.json: schema: is "mine/1", expected)"},
      {R"({"schema": "hetscale.comm-profile/1"})", "c.json: costs: missing (required)"},
      {Profile(valid_costs, R"(, "extra": 1)"), "c.json: extra: unknown field; allowed here: schema, label"},
      {Profile(costs_without_barrier), "c.json: costs.barrier: missing (required)"},
      {Profile(R"("broadcast": {"intercept": 1}, "send": {"intercept": 1, "per_element": 1},
                  "barrier": {"per_process": 1}, "unit_computation": 1)"),
       "c.json: costs.broadcast.per_process: missing (required)"},
      {Profile(R"("broadcast": {"intercept": -1, "per_process": 1}, "send": {"intercept": 1, "per_element": 1},
                  "barrier": {"per_process": 1}, "unit_computation": 1)"),
       "c.json: costs.broadcast.intercept: must be >= 0, got -1"},
      {Profile(R"("broadcast": {"intercept": 1, "per_process": 1}, "send": {"intercept": 1, "per_element": 1},
                  "barrier": {"per_process": 1, "intercept": 2}, "unit_computation": 1)"),
       "c.json: costs.barrier.intercept: unknown field; allowed here: per_process"},
      {Profile(R"("broadcast": {"intercept": 1, "per_process": 1}, "send": {"intercept": 1, "per_element": 1},
                  "barrier": {"per_process": 1}, "unit_computation": 0)"),
       "c.json: costs.unit_computation: must be > 0, got 0"},
      {Profile(valid_costs + R"(, "reference_marked_speed": "fast")"),
       "c.json: costs.reference_marked_speed: must be a number, got string"},
      {Profile(valid_costs, R"(, "fits": {"shift": {"r_squared": 1, "points": 2}})"),
       "c.json: fits.shift: unknown operation 'shift'; allowed: broadcast, send, receive, barrier, compute"},
      {Profile(valid_costs, R"(, "fits": {"send": {"r_squared": 1.5, "points": 2}})"),
       "c.json: fits.send.r_squared: must be <= 1, got 1.5"},
      {Profile(valid_costs, R"(, "fits": {"send": {"r_squared": 1, "points": 2.5}})"),
       "c.json: fits.send.points: must be a whole number >= 1, got 2.5"},
      {Profile(valid_costs, R"(, "samples": [])"), "c.json: samples: must not be empty"},
      {with_sample(R"({"operation": "allreduce", "processes": 2, "seconds": 1})"),
       "c.json: samples[0].operation: unknown operation 'allreduce'"},
      {Profile(valid_costs, R"(, "structures": {"ring": {"N": 1, "Q": 1}})"),
       "c.json: structures.ring: unknown structure 'ring'; allowed: multiphase, shift, broadcast, scatter, gather"},
      {Profile(valid_costs, R"(, "structures": {"shift": {"M": 1, "N": 1, "Q": 1}})"),
       "c.json: structures.shift.M: unknown field; allowed here: N, Q, r_squared, points"},
      {Profile(valid_costs, R"(, "structures": {"gather": {"M": 1, "N": 1, "Q": 1}})"),
       "c.json: structures.gather.R: missing (required)"},
      {Profile(valid_costs, R"(, "structures": {"scatter": {"M": 1, "N": 1, "R": 1, "Q": 1, "r_squared": 2}})"),
       "c.json: structures.scatter.r_squared: must be <= 1, got 2"},
      {with_sample(R"({"operation": "send", "processes": 0, "seconds": 1})"),
       "c.json: samples[0].processes: must be a whole number >= 1, got 0"},
      {with_sample(R"({"operation": "send", "processes": 2})"), "c.json: samples[0].seconds: missing (required)"},
      {with_sample(R"({"operation": "send", "processes": 2, "seconds": 1, "elements": -3})"),
       "c.json: samples[0].elements: must be >= 0, got -3"},
      {with_sample(R"({"operation": "send", "processes": 2, "seconds": 1, "repetitions": 0})"),
       "c.json: samples[0].repetitions: must be a whole number >= 1, got 0"},
      {Profile(valid_costs, R"(, "context": [1])"), "c.json: context: must be a JSON object, got array"},
  };
  for (const auto& c : cases) {
    const std::string message = ProfileError(c.text);
    EXPECT_NE(message.find(c.message), std::string::npos) << "got: " << message << "\nfor: " << c.text;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

TEST(CommProfile, MissingFileNamesThePath) {
  const std::string message = testing_support::ErrorMessage([] { read_comm_profile("/nonexistent/profile.json"); });
  EXPECT_NE(message.find("/nonexistent/profile.json"), std::string::npos) << message;
}

}  // namespace
}  // namespace hetscale
