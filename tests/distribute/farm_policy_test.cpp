// The task farm of APGA 2004 (Sections 5.2-5.4, 6.2): the static splits (even
// = Cantu-Paz, proportional), the policies behind the server (even,
// proportional, adaptive, adaptive+), the server and client state machines,
// the discrete-event simulation of the farm and the earliest-finish ceiling.
#include "hetscale/distribute/farm_policy.hpp"
#include "hetscale/distribute/counts.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "hetscale/programs/farm_protocol.hpp"
#include "hetscale/sim/farm_simulation.hpp"

namespace hetscale::distribute {
using namespace hetscale::programs;  // the protocol's state machines
using namespace hetscale::sim;       // the event simulation of the farm
namespace {

using testing_support::RelNear;
using testing_support::ThrowsInvalidArgumentNaming;

using Counts = std::vector<std::size_t>;

constexpr PolicyKind all_policies[] = {PolicyKind::even, PolicyKind::proportional, PolicyKind::adaptive,
                                       PolicyKind::adaptive_plus};

double sum_of(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }

// The 32 speeds of examples/speeds-hetero-32.txt before rounding to whole
// MHz (the formula of its header): v_k = (400 + 1533 (k/31)^1.642221391258221) / 1933.
std::vector<double> hetero32_speeds() {
  std::vector<double> speeds;
  for (int k = 0; k < 32; ++k) speeds.push_back((400.0 + 1533.0 * std::pow(k / 31.0, 1.642221391258221)) / 1933.0);
  return speeds;
}

// APGA 2004 Eq. (17) as an efficiency: s / s_max = (n min v / max v) / (sum v / max v).
double eq17_efficiency(const std::vector<double>& speeds) {
  return static_cast<double>(speeds.size()) * *std::min_element(speeds.begin(), speeds.end()) / sum_of(speeds);
}

// "c0 YesWork", "c1 YesWork g1 t2", "c0 YesWork g2 t0 dup", "c1 NoWork": the
// server's messages in a form whose mismatches read well.
std::string describe(const Outgoing& m) {
  std::string s = "c" + std::to_string(m.client) + " " + to_string(m.signal);
  if (m.has_task) s += " g" + std::to_string(m.generation) + " t" + std::to_string(m.task);
  if (m.duplicate) s += " dup";
  return s;
}
std::vector<std::string> describe(const std::vector<Outgoing>& messages) {
  std::vector<std::string> out;
  for (const auto& m : messages) out.push_back(describe(m));
  return out;
}
using Lines = std::vector<std::string>;

// ============================================================ names

TEST(PolicyNames, RoundTripForAllFour) {
  const std::vector<std::string> expected{"even", "proportional", "adaptive", "adaptive+"};
  EXPECT_EQ(policy_names(), expected);
  for (const PolicyKind kind : all_policies) EXPECT_EQ(policy_from_string(to_string(kind)), kind);
  EXPECT_EQ(to_string(PolicyKind::even), "even");
  EXPECT_EQ(to_string(PolicyKind::proportional), "proportional");
  EXPECT_EQ(to_string(PolicyKind::adaptive), "adaptive");
  EXPECT_EQ(to_string(PolicyKind::adaptive_plus), "adaptive+");
  EXPECT_EQ(policy_from_string("adaptive+"), PolicyKind::adaptive_plus);
  for (const auto& name : policy_names()) EXPECT_EQ(to_string(policy_from_string(name)), name);
}

TEST(PolicyNames, UnknownNameThrowsListingTheAllowedOnes) {
  for (const std::string bad : {"fastest", "", "Even", "adaptive_plus", "adaptive++", " even"})
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { policy_from_string(bad); },
                                            {"'" + bad + "'", "even", "proportional", "adaptive", "adaptive+"}))
        << "name \"" << bad << "\"";
}

TEST(PolicyNames, SignalNamesAndTags) {
  EXPECT_EQ(to_string(Signal::YesWork), "YesWork");
  EXPECT_EQ(to_string(Signal::WorkRequest), "WorkRequest");
  EXPECT_EQ(to_string(Signal::WorkEnd), "WorkEnd");
  EXPECT_EQ(to_string(Signal::NoWork), "NoWork");
  EXPECT_EQ(to_string(Signal::Shutdown), "Shutdown");
  // the MPI tags
  EXPECT_EQ(static_cast<int>(Signal::YesWork), 1);
  EXPECT_EQ(static_cast<int>(Signal::Shutdown), 5);
}

// ============================================================ static policies

// Asks for work for `client` until NoWork; the tasks received, in order.
std::vector<std::size_t> drain_client(FarmPolicy& policy, std::size_t client, double now = 0.0) {
  std::vector<std::size_t> tasks;
  for (int guard = 0; guard < 1000; ++guard) {
    const Answer answer = policy.on_work_request(client, now);
    if (answer.kind == Answer::Kind::no_work) return tasks;
    EXPECT_EQ(answer.kind, Answer::Kind::task) << "client " << client;
    tasks.push_back(answer.task);
  }
  ADD_FAILURE() << "client " << client << " never got NoWork";
  return tasks;
}

TEST(PolicyStatic, EvenGivesEachClientItsBlockThenNoWork) {
  auto policy = make_farm_policy(PolicyKind::even, 3);
  EXPECT_EQ(policy->kind(), PolicyKind::even);
  EXPECT_FALSE(policy->clients_prefetch());
  EXPECT_EQ(policy->generation(), 0u);
  policy->begin_generation(10, false, 0.0);
  EXPECT_EQ(policy->generation(), 1u);
  EXPECT_EQ(policy->tasks_outstanding(), 10u);
  EXPECT_FALSE(policy->generation_complete());

  // requests interleaved across clients: each gets the next task of its own
  // block (4, 3, 3 = 0-3, 4-6, 7-9), whatever the order of the requests
  std::vector<std::vector<std::size_t>> got(3);
  for (const std::size_t client : {2u, 0u, 1u, 0u, 2u, 2u, 1u, 0u, 0u, 1u}) {
    const Answer a = policy->on_work_request(client, 0.0);
    ASSERT_EQ(a.kind, Answer::Kind::task) << "client " << client;
    got[client].push_back(a.task);
  }
  EXPECT_EQ(got[0], (Counts{0, 1, 2, 3}));
  EXPECT_EQ(got[1], (Counts{4, 5, 6}));
  EXPECT_EQ(got[2], (Counts{7, 8, 9}));
  for (std::size_t client = 0; client < 3; ++client) {
    EXPECT_EQ(policy->on_work_request(client, 1.0).kind, Answer::Kind::no_work) << "client " << client;
    EXPECT_EQ(policy->on_work_request(client, 2.0).kind, Answer::Kind::no_work) << "client " << client;
  }

  // results: complete only after the tenth
  std::size_t outstanding = 10;
  for (std::size_t client = 0; client < 3; ++client)
    for (const std::size_t task : got[client]) {
      EXPECT_FALSE(policy->generation_complete());
      EXPECT_EQ(policy->on_work_end(client, 1, task, 1.0, 1.0, 3.0), ResultUse::first);
      EXPECT_EQ(policy->tasks_outstanding(), --outstanding);
    }
  EXPECT_TRUE(policy->generation_complete());

  // the next generation splits again from task 0
  policy->begin_generation(5, true, 4.0);
  EXPECT_EQ(policy->generation(), 2u);
  EXPECT_EQ(policy->tasks_outstanding(), 5u);
  EXPECT_FALSE(policy->generation_complete());
  EXPECT_EQ(drain_client(*policy, 1), (Counts{2, 3}));
  EXPECT_EQ(drain_client(*policy, 0), (Counts{0, 1}));
  EXPECT_EQ(drain_client(*policy, 2), (Counts{4}));
}

TEST(PolicyStatic, ProportionalGivesEachClientItsLargestRemainderBlock) {
  // speeds 1, 1, 2 and 10 tasks: 3, 2, 5 (see ProportionalExamples)
  auto policy = make_farm_policy(PolicyKind::proportional, 3, {1.0, 1.0, 2.0});
  EXPECT_EQ(policy->kind(), PolicyKind::proportional);
  EXPECT_FALSE(policy->clients_prefetch());
  policy->begin_generation(10, true, 0.0);
  const auto c2 = drain_client(*policy, 2);
  const auto c0 = drain_client(*policy, 0);
  const auto c1 = drain_client(*policy, 1);
  EXPECT_EQ(c0, (Counts{0, 1, 2}));
  EXPECT_EQ(c1, (Counts{3, 4}));
  EXPECT_EQ(c2, (Counts{5, 6, 7, 8, 9}));
  for (const auto* tasks : {&c0, &c1, &c2}) {
    const std::size_t client = tasks == &c0 ? 0 : tasks == &c1 ? 1 : 2;
    for (const std::size_t task : *tasks) {
      EXPECT_FALSE(policy->generation_complete());
      EXPECT_EQ(policy->on_work_end(client, 1, task, 1.0, 0.5, 1.0), ResultUse::first);
    }
  }
  EXPECT_TRUE(policy->generation_complete());
  EXPECT_EQ(policy->tasks_outstanding(), 0u);
}

// Over many splits, every task of the generation goes to exactly one client,
// in the numbers of the static split.
TEST(PolicyStatic, TasksNeverGivenTwice) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t clients = 1 + rng() % 9, tasks = rng() % 50;
    std::vector<double> speeds(clients);
    for (double& v : speeds) v = 0.2 + static_cast<double>(rng() % 100) / 100.0;
    for (const PolicyKind kind : {PolicyKind::even, PolicyKind::proportional}) {
      auto policy = make_farm_policy(kind, clients, speeds);
      const Counts expected =
          kind == PolicyKind::even ? even_counts(tasks, clients) : proportional_counts(tasks, speeds);
      for (std::size_t generation = 1; generation <= 2; ++generation) {
        policy->begin_generation(tasks, generation == 2, 0.0);
        std::set<std::size_t> seen;
        for (std::size_t client = 0; client < clients; ++client) {
          const auto got = drain_client(*policy, client);
          EXPECT_EQ(got.size(), expected[client]) << to_string(kind) << " trial " << trial << " client " << client;
          for (const std::size_t task : got) {
            EXPECT_LT(task, tasks);
            EXPECT_TRUE(seen.insert(task).second) << to_string(kind) << " task " << task << " given twice";
            EXPECT_EQ(policy->on_work_end(client, generation, task, 1.0, 1.0, 1.0), ResultUse::first);
          }
        }
        EXPECT_EQ(seen.size(), tasks);
        EXPECT_TRUE(policy->generation_complete());
      }
    }
  }
}

TEST(PolicyStatic, ProportionalNeedsOneValidSpeedPerClient) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] {
        make_farm_policy(PolicyKind::proportional, 3, {1.0, 2.0});
      },
      {"2 speeds for 3 clients"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming([] { make_farm_policy(PolicyKind::proportional, 2); }, {"0 speeds for 2 clients"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] {
        make_farm_policy(PolicyKind::proportional, 2, {1.0, 2.0, 3.0});
      },
      {"3 speeds for 2 clients"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] {
        make_farm_policy(PolicyKind::proportional, 3, {1.0, 1.0, 0.0});
      },
      {"speeds[2]"}));
  // ignored by the other policies
  for (const PolicyKind kind : {PolicyKind::even, PolicyKind::adaptive, PolicyKind::adaptive_plus})
    EXPECT_NO_THROW(make_farm_policy(kind, 3, {1.0, 2.0})) << to_string(kind);
  // no policy without clients
  for (const PolicyKind kind : all_policies)
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { make_farm_policy(kind, 0, {}); }, {"clients", "0"}))
        << to_string(kind);
}

// ============================================================ adaptive

TEST(PolicyAdaptive, HandsOutTasksInRequestOrderThenNoWork) {
  auto policy = make_farm_policy(PolicyKind::adaptive, 3);
  EXPECT_EQ(policy->kind(), PolicyKind::adaptive);
  EXPECT_FALSE(policy->clients_prefetch());
  policy->begin_generation(5, false, 0.0);
  // APGA 2004 Section 5.4.2: every WorkRequest gets the next individual,
  // whichever client sends it
  std::size_t expected_task = 0;
  for (const std::size_t client : {1u, 1u, 0u, 2u, 1u}) {
    const Answer a = policy->on_work_request(client, 0.1 * static_cast<double>(expected_task));
    EXPECT_EQ(a.kind, Answer::Kind::task);
    EXPECT_EQ(a.task, expected_task++);
  }
  // none left: NoWork for everyone, asked again or not
  for (const std::size_t client : {0u, 1u, 2u, 0u})
    EXPECT_EQ(policy->on_work_request(client, 1.0).kind, Answer::Kind::no_work);
  EXPECT_EQ(policy->tasks_outstanding(), 5u);
  for (std::size_t task = 0; task < 5; ++task) {
    EXPECT_FALSE(policy->generation_complete());
    EXPECT_EQ(policy->on_work_end(task % 3, 1, task, 1.0, 1.0, 2.0), ResultUse::first);
  }
  EXPECT_TRUE(policy->generation_complete());

  // the next generation starts again at task 0
  policy->begin_generation(2, true, 3.0);
  EXPECT_EQ(policy->on_work_request(2, 3.0).task, 0u);
  EXPECT_EQ(policy->on_work_request(2, 3.0).task, 1u);
  EXPECT_EQ(policy->on_work_request(0, 3.0).kind, Answer::Kind::no_work);
}

TEST(PolicyAdaptive, RepeatedOrStaleResultsDoNotCountTwice) {
  auto policy = make_farm_policy(PolicyKind::adaptive, 2);
  policy->begin_generation(2, false, 0.0);
  policy->on_work_request(0, 0.0);
  policy->on_work_request(1, 0.0);
  EXPECT_EQ(policy->on_work_end(0, 1, 0, 1.0, 1.0, 1.0), ResultUse::first);
  EXPECT_EQ(policy->tasks_outstanding(), 1u);
  // the same result again is not a second result
  EXPECT_EQ(policy->on_work_end(1, 1, 0, 1.0, 1.0, 1.0), ResultUse::lost);
  EXPECT_EQ(policy->tasks_outstanding(), 1u);
  EXPECT_FALSE(policy->generation_complete());
  EXPECT_EQ(policy->on_work_end(1, 1, 1, 1.0, 1.0, 2.0), ResultUse::first);
  EXPECT_TRUE(policy->generation_complete());
  // a result of generation 1 arriving during generation 2 is lost work
  policy->begin_generation(2, true, 2.0);
  EXPECT_EQ(policy->on_work_end(0, 1, 1, 1.0, 1.0, 2.5), ResultUse::lost);
  EXPECT_EQ(policy->tasks_outstanding(), 2u);
}

TEST(PolicyAdaptive, WorkEndOfUnknownTaskOrClientThrows) {
  auto policy = make_farm_policy(PolicyKind::adaptive, 2);
  // before any generation: generation 1 is not running yet
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { policy->on_work_end(0, 1, 0, 1.0, 1.0, 0.0); }, {"generation 1"}));
  policy->begin_generation(3, false, 0.0);
  policy->on_work_request(0, 0.0);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { policy->on_work_end(0, 1, 3, 1.0, 1.0, 1.0); }, {"task 3", "3 tasks"}));
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming([&] { policy->on_work_end(2, 1, 0, 1.0, 1.0, 1.0); }, {"client 2", "2 clients"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { policy->on_work_end(0, 2, 0, 1.0, 1.0, 1.0); }, {"generation 2"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { policy->on_work_end(0, 0, 0, 1.0, 1.0, 1.0); }, {"generation 0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { policy->on_work_request(5, 1.0); }, {"client 5"}));
  // nothing was counted by the bad calls
  EXPECT_EQ(policy->tasks_outstanding(), 3u);
  // the same checks in every policy
  for (const PolicyKind kind : all_policies) {
    auto p = make_farm_policy(kind, 2, {1.0, 1.0});
    p->begin_generation(2, true, 0.0);
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { p->on_work_end(0, 1, 2, 1.0, 1.0, 1.0); }, {"task 2"}))
        << to_string(kind);
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { p->on_work_end(3, 1, 0, 1.0, 1.0, 1.0); }, {"client 3"}))
        << to_string(kind);
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { p->on_work_request(2, 0.0); }, {"client 2"})) << to_string(kind);
  }
}

// ============================================================ adaptive+

// Generation 1 (not the last) of 2 tasks at t = 0 measures client 0 at speed
// 1 (a task of 1 nominal second in 1 s) and client 1 at speed 0.25 (4 s).
// Before any measurement both count at speed 1 and the task cost is 1, so:
//   c0 asks at 0: 2 remain; c0 finishes at 1, c1's first slot ends at 1, not
//     strictly earlier: c0 gets task 0 (busy until 1)
//   c1 asks at 0: 1 remains; c1 finishes at 1, c0's next slot ends at 2: c1
//     gets task 1 -- the slow client gets the last task while unmeasured
//   both prefetch: nothing left, each holds a task: wait
// Then c0 returns task 0 at t = 1 and c1 task 1 at t = 4.
std::unique_ptr<FarmPolicy> adaptive_plus_after_measuring_generation() {
  auto policy = make_farm_policy(PolicyKind::adaptive_plus, 2);
  policy->begin_generation(2, false, 0.0);
  const Answer a0 = policy->on_work_request(0, 0.0);
  EXPECT_EQ(a0.kind, Answer::Kind::task);
  EXPECT_EQ(a0.task, 0u);
  const Answer a1 = policy->on_work_request(1, 0.0);
  EXPECT_EQ(a1.kind, Answer::Kind::task);
  EXPECT_EQ(a1.task, 1u);
  EXPECT_EQ(policy->on_work_request(0, 0.0).kind, Answer::Kind::wait);
  EXPECT_EQ(policy->on_work_request(1, 0.0).kind, Answer::Kind::wait);
  EXPECT_EQ(policy->on_work_end(0, 1, 0, 1.0, 1.0, 1.0), ResultUse::first);
  EXPECT_EQ(policy->on_work_end(1, 1, 1, 1.0, 4.0, 4.0), ResultUse::first);
  EXPECT_TRUE(policy->generation_complete());
  return policy;
}

TEST(PolicyAdaptivePlus, ClientsPrefetch) {
  auto policy = make_farm_policy(PolicyKind::adaptive_plus, 4);
  EXPECT_EQ(policy->kind(), PolicyKind::adaptive_plus);
  EXPECT_TRUE(policy->clients_prefetch());
  for (const PolicyKind kind : {PolicyKind::even, PolicyKind::proportional, PolicyKind::adaptive})
    EXPECT_FALSE(make_farm_policy(kind, 4, std::vector<double>(4, 1.0))->clients_prefetch()) << to_string(kind);
}

// Generation 2 of 2 tasks at t = 4, with speeds 1 and 0.25 measured:
//   c0 asks: 2 remain; c0 finishes at 5; c1's first slot ends at 8: task 0
//     (c0 busy until 5)
//   c1 asks: 1 remains; c1 would finish at 4 + 1/0.25 = 8, c0's next slot ends
//     at 6 (and the one after at 7), before 8: wait, not the task
//   c0 prefetches: 1 remains; c0 finishes at 6 < 8: task 1
//   c1 asks again: nothing left to plan; the running tasks end at 5 and 6,
//     before c1 could finish a copy at 8: wait
TEST(PolicyAdaptivePlus, SlowClientWaitsForTheLastTaskAFastClientFinishesFirst) {
  auto policy = adaptive_plus_after_measuring_generation();
  policy->begin_generation(2, false, 4.0);
  const Answer a0 = policy->on_work_request(0, 4.0);
  EXPECT_EQ(a0.kind, Answer::Kind::task);
  EXPECT_EQ(a0.task, 0u);
  const Answer slow = policy->on_work_request(1, 4.0);
  EXPECT_EQ(slow.kind, Answer::Kind::wait) << "the slow client got task " << slow.task;
  const Answer prefetch = policy->on_work_request(0, 4.0);
  EXPECT_EQ(prefetch.kind, Answer::Kind::task);
  EXPECT_EQ(prefetch.task, 1u);
  EXPECT_EQ(policy->on_work_request(1, 4.0).kind, Answer::Kind::wait);
  EXPECT_EQ(policy->on_work_end(0, 2, 0, 1.0, 1.0, 5.0), ResultUse::first);
  EXPECT_EQ(policy->on_work_end(0, 2, 1, 1.0, 1.0, 6.0), ResultUse::first);
  EXPECT_TRUE(policy->generation_complete());
}

// A client set aside (a retry that failed on it, run::TaskFarm) gets no new
// task: the slow client gets the last one, which the fast client would have
// taken, and the fast client's request waits; set back, it gets the next.
TEST(PolicyAdaptivePlus, ClientSetAsideGetsNoTaskAndIsNotPlanned) {
  auto policy = adaptive_plus_after_measuring_generation();
  EXPECT_TRUE(policy->can_set_aside());
  policy->begin_generation(2, true, 4.0);
  policy->set_aside(0, true);
  EXPECT_EQ(policy->on_work_request(0, 4.0).kind, Answer::Kind::wait);
  const Answer slow = policy->on_work_request(1, 4.0);
  EXPECT_EQ(slow.kind, Answer::Kind::task) << "the slow client must take the task the fast one stands aside from";
  EXPECT_EQ(slow.task, 0u);
  policy->set_aside(0, false);
  const Answer fast = policy->on_work_request(0, 4.0);
  EXPECT_EQ(fast.kind, Answer::Kind::task);
  EXPECT_EQ(fast.task, 1u);
  EXPECT_THROW(policy->set_aside(2, true), std::invalid_argument);
}

TEST(PolicyAdaptive, ClientSetAsideWaitsWhileAnotherTakesTheTask) {
  auto policy = make_farm_policy(PolicyKind::adaptive, 2);
  EXPECT_TRUE(policy->can_set_aside());
  policy->begin_generation(1, true, 0.0);
  policy->set_aside(1, true);
  EXPECT_EQ(policy->on_work_request(1, 0.0).kind, Answer::Kind::wait);
  const Answer other = policy->on_work_request(0, 0.0);
  EXPECT_EQ(other.kind, Answer::Kind::task);
  EXPECT_EQ(other.task, 0u);
  EXPECT_EQ(policy->on_work_request(1, 0.0).kind, Answer::Kind::no_work);  // nothing left: it sleeps
}

TEST(PolicyStatic, ListsAreFixedSoNoClientIsSetAside) {
  for (const auto kind : {PolicyKind::even, PolicyKind::proportional}) {
    auto policy = make_farm_policy(kind, 2, {1.0, 1.0});
    EXPECT_FALSE(policy->can_set_aside());
    policy->begin_generation(2, true, 0.0);
    policy->set_aside(0, true);  // ignored
    EXPECT_EQ(policy->on_work_request(0, 0.0).kind, Answer::Kind::task);
  }
}

// Generation 2 (not the last) of 4 tasks at t = 4, speeds 1 and 0.25 measured:
//   c1 asks first: 4 remain; c1 would finish at 8; c0's slots ending before 8
//     are 5, 6, 7: three < 4, so c1 gets task 0 (expected to end at 8)
//   c0 asks and prefetches three times: tasks 1, 2, 3 (ending at 5, 6, 7),
//     then waits (it holds tasks, none left); c1 prefetches: waits
//   c0 returns tasks 1-3 at 5, 6, 7 and asks at 7: a copy of task 0 would end
//     at 8, no earlier than the original's 8: wait (not worth duplicating)
//   c1 is slower than measured: at 9 task 0 is overdue (expected at 8),
//     counted as needing as long again, to 9 + (9 - 4) = 14; c0 would finish
//     a copy at 10: duplicate of task 0
//   c0's copy ends at 10 and counts; c1's original at 12 is lost work
TEST(PolicyAdaptivePlus, FreeClientDuplicatesATaskExpectedToFinishMuchLater) {
  auto policy = adaptive_plus_after_measuring_generation();
  policy->begin_generation(4, false, 4.0);
  const Answer slow = policy->on_work_request(1, 4.0);
  ASSERT_EQ(slow.kind, Answer::Kind::task);
  EXPECT_EQ(slow.task, 0u);
  for (const std::size_t expected : {1u, 2u, 3u}) {
    const Answer a = policy->on_work_request(0, 4.0);
    ASSERT_EQ(a.kind, Answer::Kind::task);
    EXPECT_EQ(a.task, expected);
  }
  EXPECT_EQ(policy->on_work_request(0, 4.0).kind, Answer::Kind::wait);
  EXPECT_EQ(policy->on_work_request(1, 4.0).kind, Answer::Kind::wait);
  EXPECT_EQ(policy->on_work_end(0, 2, 1, 1.0, 1.0, 5.0), ResultUse::first);
  EXPECT_EQ(policy->on_work_end(0, 2, 2, 1.0, 1.0, 6.0), ResultUse::first);
  EXPECT_EQ(policy->on_work_end(0, 2, 3, 1.0, 1.0, 7.0), ResultUse::first);
  EXPECT_EQ(policy->tasks_outstanding(), 1u);
  EXPECT_EQ(policy->on_work_request(0, 7.0).kind, Answer::Kind::wait);

  const Answer copy = policy->on_work_request(0, 9.0);
  ASSERT_EQ(copy.kind, Answer::Kind::duplicate);
  EXPECT_EQ(copy.task, 0u);
  // a task is duplicated once: c0 asks again (prefetch) and waits
  EXPECT_EQ(policy->on_work_request(0, 9.0).kind, Answer::Kind::wait);
  EXPECT_EQ(policy->on_work_end(0, 2, 0, 1.0, 1.0, 10.0), ResultUse::first);
  EXPECT_TRUE(policy->generation_complete());
  EXPECT_EQ(policy->on_work_end(1, 2, 0, 1.0, 8.0, 12.0), ResultUse::lost);
  EXPECT_TRUE(policy->generation_complete());
  EXPECT_EQ(policy->tasks_outstanding(), 0u);
}

// The same as above in the last generation: a duplicate cannot shorten the
// run (the original must still be drained), so a free client with nothing
// left gets NoWork -- at 7 and at 9 alike.
TEST(PolicyAdaptivePlus, NoDuplicatesInTheLastGeneration) {
  auto policy = adaptive_plus_after_measuring_generation();
  policy->begin_generation(4, true, 4.0);
  EXPECT_EQ(policy->on_work_request(1, 4.0).task, 0u);
  for (const std::size_t expected : {1u, 2u, 3u}) EXPECT_EQ(policy->on_work_request(0, 4.0).task, expected);
  EXPECT_EQ(policy->on_work_request(0, 4.0).kind, Answer::Kind::wait);  // still holds tasks
  for (const std::size_t task : {1u, 2u, 3u})
    EXPECT_EQ(policy->on_work_end(0, 2, task, 1.0, 1.0, 4.0 + static_cast<double>(task)), ResultUse::first);
  const Answer at7 = policy->on_work_request(0, 7.0);
  EXPECT_EQ(at7.kind, Answer::Kind::no_work);
  const Answer at9 = policy->on_work_request(0, 9.0);
  EXPECT_EQ(at9.kind, Answer::Kind::no_work);
  EXPECT_EQ(policy->on_work_request(0, 100.0).kind, Answer::Kind::no_work);
  EXPECT_FALSE(policy->generation_complete());
  EXPECT_EQ(policy->on_work_end(1, 2, 0, 1.0, 8.0, 12.0), ResultUse::first);
  EXPECT_TRUE(policy->generation_complete());
  // the slow client, free at last, sleeps too
  EXPECT_EQ(policy->on_work_request(1, 12.0).kind, Answer::Kind::no_work);
}

// BUG (src/run/farm_policy.cpp:293, planned_to_get_a_task): two clients
// of the same estimated speed, both free at `now`, one task left. Client 0
// finishes it at now + 1; client 1's first slot ends at now + 1 too, which is
// not strictly earlier, so client 0 must get the task. The code counts the
// other's slots as ceil((finish - available) v / cost) - 1, and
// (now + 1) - now rounds to 1 + 2^-52 for many `now`: ceil gives 2, the tie
// counts as "earlier", and the request waits. By symmetry client 1 waits too:
// nobody holds a task, no WorkEnd will come to re-ask them, and the farm
// hangs (see SimulateFarm.AdaptivePlusNeverDeadlocksOnTiedPlans).
TEST(PolicyAdaptivePlus, TiedIdleClientsDoNotBothWaitForTheLastTask) {
  std::vector<double> refused_at;
  for (int k = 0; k <= 100; ++k) {
    const double now = 0.1 * k;
    auto policy = make_farm_policy(PolicyKind::adaptive_plus, 2);
    policy->begin_generation(1, true, now);
    const Answer first = policy->on_work_request(0, now);
    const Answer second = policy->on_work_request(1, now);
    // one of the two gets the only task
    if (first.kind != Answer::Kind::task && second.kind != Answer::Kind::task) refused_at.push_back(now);
  }
  EXPECT_TRUE(refused_at.empty()) << refused_at.size() << " of 101 times both clients waited, the first at now = "
                                  << (refused_at.empty() ? 0.0 : refused_at.front());
}

// ============================================================ server and client

// APGA 2004 Sections 5.3-5.4 with the adaptive policy, 2 clients, a
// generation of 3 tasks and a last one of 3, driven by hand.
TEST(FarmServer, AdaptiveExchangeForTwoClients) {
  auto policy = make_farm_policy(PolicyKind::adaptive, 2);
  FarmServer server(*policy, 2);
  EXPECT_EQ(server.clients(), 2u);
  EXPECT_EQ(server.state(), ServerState::initialization);
  ResultUse use = ResultUse::lost;

  // initialization mode: YesWork (no individual) to every client
  EXPECT_EQ(describe(server.begin_generation(3, false, 0.0)), (Lines{"c0 YesWork", "c1 YesWork"}));
  EXPECT_EQ(server.state(), ServerState::active);
  // the clients' WorkRequests are due: no Shutdown yet
  EXPECT_FALSE(server.quiescent());
  EXPECT_THROW(server.shutdown(), std::logic_error);

  EXPECT_EQ(describe(server.on_work_request(0, 0.0)), (Lines{"c0 YesWork g1 t0"}));
  // a second request from client 0 before its WorkEnd breaks the protocol
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { server.on_work_request(0, 0.0); }, {"client 0"}));
  EXPECT_EQ(describe(server.on_work_request(1, 0.0)), (Lines{"c1 YesWork g1 t1"}));
  EXPECT_FALSE(server.quiescent());
  EXPECT_FALSE(server.drained());

  // WorkEnd answers nothing by itself; the client's next WorkRequest does
  EXPECT_EQ(describe(server.on_work_end(0, 1, 0, 1.0, 1.0, 1.0, use)), Lines{});
  EXPECT_EQ(use, ResultUse::first);
  EXPECT_EQ(describe(server.on_work_request(0, 1.0)), (Lines{"c0 YesWork g1 t2"}));
  EXPECT_EQ(describe(server.on_work_end(1, 1, 1, 1.0, 2.0, 2.0, use)), Lines{});
  EXPECT_EQ(use, ResultUse::first);
  // no individual left: NoWork, client 1 sleeps
  EXPECT_EQ(describe(server.on_work_request(1, 2.0)), (Lines{"c1 NoWork"}));
  EXPECT_FALSE(server.generation_complete());
  EXPECT_EQ(describe(server.on_work_end(0, 1, 2, 1.0, 1.0, 2.0, use)), Lines{});
  EXPECT_TRUE(server.generation_complete());
  EXPECT_TRUE(server.drained());
  // client 0's WorkRequest after its WorkEnd is still on its way
  EXPECT_FALSE(server.quiescent());

  // the last generation begins before it arrives: YesWork wakes only the
  // sleeper; client 0 is active and its request gets the first individual
  EXPECT_EQ(describe(server.begin_generation(3, true, 2.0)), (Lines{"c1 YesWork"}));
  EXPECT_EQ(describe(server.on_work_request(0, 2.0)), (Lines{"c0 YesWork g2 t0"}));
  EXPECT_EQ(describe(server.on_work_request(1, 2.0)), (Lines{"c1 YesWork g2 t1"}));
  EXPECT_EQ(describe(server.on_work_end(1, 2, 1, 1.0, 1.0, 3.0, use)), Lines{});
  EXPECT_EQ(describe(server.on_work_request(1, 3.0)), (Lines{"c1 YesWork g2 t2"}));
  EXPECT_EQ(describe(server.on_work_end(0, 2, 0, 1.0, 1.5, 3.5, use)), Lines{});
  EXPECT_EQ(describe(server.on_work_request(0, 3.5)), (Lines{"c0 NoWork"}));
  // client 1 still holds task 2
  EXPECT_FALSE(server.drained());
  EXPECT_THROW(server.shutdown(), std::logic_error);
  // a WorkEnd from a client holding nothing
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { server.on_work_end(0, 2, 2, 1.0, 1.0, 3.6, use); }, {"client 0"}));
  EXPECT_EQ(describe(server.on_work_end(1, 2, 2, 1.0, 1.0, 4.0, use)), Lines{});
  EXPECT_TRUE(server.generation_complete());
  EXPECT_TRUE(server.drained());
  // client 1's last WorkRequest is due
  EXPECT_FALSE(server.quiescent());
  EXPECT_THROW(server.shutdown(), std::logic_error);
  EXPECT_EQ(describe(server.on_work_request(1, 4.0)), (Lines{"c1 NoWork"}));
  EXPECT_TRUE(server.quiescent());
  EXPECT_EQ(describe(server.shutdown()), (Lines{"c0 Shutdown", "c1 Shutdown"}));
  EXPECT_EQ(server.lost_results(), 0u);
}

TEST(FarmServer, RejectsBadClients) {
  auto policy = make_farm_policy(PolicyKind::adaptive, 2);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { (void)FarmServer(*policy, 0); }, {"clients", "0"}));
  FarmServer server(*policy, 2);
  ResultUse use = ResultUse::first;
  // nothing asked yet: no request is due
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { server.on_work_request(0, 0.0); }, {"client 0"}));
  server.begin_generation(2, true, 0.0);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { server.on_work_request(2, 0.0); }, {"client 2"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { server.on_work_end(2, 1, 0, 1.0, 1.0, 0.0, use); }, {"client 2"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { server.on_work_end(1, 1, 0, 1.0, 1.0, 0.0, use); }, {"client 1"}));
}

// adaptive+ with one client: a request kept waiting across the end of a
// generation is answered when the next one begins, and the last generation
// ends with NoWork to it.
TEST(FarmServer, AdaptivePlusAnswersWaitingRequestsAtTheNextGeneration) {
  auto policy = make_farm_policy(PolicyKind::adaptive_plus, 1);
  FarmServer server(*policy, 1);
  ResultUse use = ResultUse::lost;
  EXPECT_EQ(describe(server.begin_generation(1, false, 0.0)), (Lines{"c0 YesWork"}));
  EXPECT_EQ(describe(server.on_work_request(0, 0.0)), (Lines{"c0 YesWork g1 t0"}));
  // the prefetching client asks again at once; nothing left: no answer yet
  EXPECT_EQ(describe(server.on_work_request(0, 0.0)), Lines{});
  EXPECT_THROW(server.shutdown(), std::logic_error);  // task 0 is out
  // the result frees nothing in a non-last generation: still waiting
  EXPECT_EQ(describe(server.on_work_end(0, 1, 0, 1.0, 1.0, 1.0, use)), Lines{});
  EXPECT_EQ(use, ResultUse::first);
  EXPECT_TRUE(server.generation_complete());
  EXPECT_EQ(describe(server.poll(1.5)), Lines{});
  // the waiting request gets the new generation's task, without a wake-up
  EXPECT_EQ(describe(server.begin_generation(1, true, 1.5)), (Lines{"c0 YesWork g2 t0"}));
  EXPECT_EQ(describe(server.on_work_request(0, 1.5)), Lines{});
  EXPECT_EQ(describe(server.on_work_end(0, 2, 0, 1.0, 1.0, 2.5, use)), (Lines{"c0 NoWork"}));
  EXPECT_TRUE(server.quiescent());
  EXPECT_EQ(describe(server.shutdown()), (Lines{"c0 Shutdown"}));
}

TEST(FarmClient, TransitionsOfSeed000Section53) {
  FarmClient client(false);
  EXPECT_EQ(client.state(), ClientState::initialization);
  EXPECT_FALSE(client.stopped());
  using Actions = std::vector<ClientAction>;
  // 5.3.1: YesWork switches to active mode, which asks for work
  EXPECT_EQ(client.on_signal(Signal::YesWork, false), Actions{ClientAction::request_work});
  EXPECT_EQ(client.state(), ClientState::active);
  // 5.3.2: an individual is evaluated, then WorkEnd and a new WorkRequest
  EXPECT_EQ(client.on_signal(Signal::YesWork, true), Actions{ClientAction::evaluate});
  EXPECT_EQ(client.state(), ClientState::active);
  EXPECT_EQ(client.finished_evaluation(), Actions{ClientAction::request_work});
  // a wake-up while active changes nothing
  EXPECT_EQ(client.on_signal(Signal::YesWork, false), Actions{ClientAction::wait});
  EXPECT_EQ(client.state(), ClientState::active);
  // NoWork: sleep mode until YesWork or Shutdown
  EXPECT_EQ(client.on_signal(Signal::NoWork, false), Actions{ClientAction::wait});
  EXPECT_EQ(client.state(), ClientState::sleep);
  // 5.3.3: YesWork in sleep mode starts the active cycle again
  EXPECT_EQ(client.on_signal(Signal::YesWork, false), Actions{ClientAction::request_work});
  EXPECT_EQ(client.state(), ClientState::active);
  EXPECT_EQ(client.on_signal(Signal::NoWork, false), Actions{ClientAction::wait});
  EXPECT_FALSE(client.stopped());
  EXPECT_EQ(client.on_signal(Signal::Shutdown, false), Actions{ClientAction::stop});
  EXPECT_TRUE(client.stopped());

  // Shutdown straight from initialization
  FarmClient idle(false);
  EXPECT_EQ(idle.on_signal(Signal::Shutdown, false), Actions{ClientAction::stop});
  EXPECT_TRUE(idle.stopped());
}

TEST(FarmClient, PrefetchingClientAsksBeforeEvaluating) {
  using Actions = std::vector<ClientAction>;
  FarmClient client(true);
  EXPECT_EQ(client.on_signal(Signal::YesWork, false), Actions{ClientAction::request_work});
  // the next request goes out before the evaluation, hiding its round trip
  EXPECT_EQ(client.on_signal(Signal::YesWork, true), (Actions{ClientAction::request_work, ClientAction::evaluate}));
  // and no second request after it
  EXPECT_EQ(client.finished_evaluation(), Actions{ClientAction::wait});
  EXPECT_EQ(client.state(), ClientState::active);
  // an individual sent to a sleeping client activates it
  FarmClient sleeper(true);
  sleeper.on_signal(Signal::NoWork, false);
  EXPECT_EQ(sleeper.state(), ClientState::sleep);
  EXPECT_EQ(sleeper.on_signal(Signal::YesWork, true), (Actions{ClientAction::request_work, ClientAction::evaluate}));
  EXPECT_EQ(sleeper.state(), ClientState::active);
}

TEST(FarmClient, ServerSignalsOnly) {
  for (const bool prefetch : {false, true}) {
    FarmClient client(prefetch);
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { client.on_signal(Signal::WorkRequest, false); }, {"WorkRequest"}));
    EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { client.on_signal(Signal::WorkEnd, true); }, {"WorkEnd"}));
    EXPECT_EQ(client.state(), ClientState::initialization);
    EXPECT_FALSE(client.stopped());
  }
}

// ============================================================ simulation

SimulatedFarmSetup setup_of(std::vector<double> speeds, std::size_t tasks, std::size_t generations,
                            double latency = 0.0) {
  SimulatedFarmSetup setup;
  setup.client_speeds = std::move(speeds);
  setup.tasks_per_generation = tasks;
  setup.generations = generations;
  setup.latency_seconds = latency;
  return setup;
}

std::size_t counted_tasks(const FarmSimulation& sim) {
  std::size_t n = 0;
  for (const auto& c : sim.clients) n += c.tasks;
  return n;
}
std::size_t lost_tasks(const FarmSimulation& sim) {
  std::size_t n = 0;
  for (const auto& c : sim.clients) n += c.lost_tasks;
  return n;
}

// (a) equal speeds, no latency, tasks a multiple of the clients: no idle
// time in any policy.
TEST(SimulateFarm, HomogeneousReachesEfficiencyOne) {
  for (const PolicyKind kind : all_policies)
    for (const std::size_t clients : {1u, 2u, 3u, 4u, 8u})
      for (const std::size_t per_client : {1u, 2u, 4u}) {
        auto setup = setup_of(std::vector<double>(clients, 0.5), clients * per_client, 3);
        setup.task_seconds = 2.0;
        const FarmSimulation sim = simulate_farm(kind, setup);
        EXPECT_NEAR(sim.efficiency(), 1.0, 1e-9)
            << to_string(kind) << ", " << clients << " clients, " << per_client << " tasks each";
        // each generation takes per_client tasks of 2 / 0.5 = 4 s
        EXPECT_NEAR(sim.t_par, 3.0 * 4.0 * static_cast<double>(per_client), 1e-9) << to_string(kind);
        EXPECT_EQ(sim.speed_sum, 0.5 * static_cast<double>(clients));
        EXPECT_EQ(sim.t_seq_ref, 2.0 * 3.0 * static_cast<double>(clients * per_client));
        EXPECT_EQ(sim.generation_seconds.size(), 3u);
      }
}

// (b) even on speeds 1, 0.5, 0.25, no latency, 6 = 2 n tasks: each client
// evaluates 2 per generation and the generation lasts as long as the slowest
// client's 2 / 0.25 = 8 s. With G generations t_par = 8 G, t_seq = 6 G, and
// efficiency = 6 G / (8 G * 1.75) = 3/7 = n min v / sum v (Eq. 17 divided by
// s_max = sum v / max v): in general m n G / ((m G / min v) sum v).
TEST(SimulateFarm, EvenEqualsTheEq17Bound) {
  const std::vector<double> speeds{1.0, 0.5, 0.25};
  const FarmSimulation sim = simulate_farm(PolicyKind::even, setup_of(speeds, 6, 3));
  EXPECT_TRUE(RelNear(sim.efficiency(), 3.0 / 7.0));
  EXPECT_TRUE(RelNear(sim.efficiency(), eq17_efficiency(speeds)));
  EXPECT_TRUE(RelNear(sim.t_par, 24.0));
  ASSERT_EQ(sim.generation_seconds.size(), 3u);
  for (const double g : sim.generation_seconds) EXPECT_TRUE(RelNear(g, 8.0));
  ASSERT_EQ(sim.clients.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sim.clients[i].tasks, 6u);  // 2 per generation
    EXPECT_TRUE(RelNear(sim.clients[i].t_comp, 6.0 / speeds[i]));
  }
  // the order of the speeds does not matter, nor how many tasks each gets
  for (const std::size_t m : {1u, 3u, 5u}) {
    const std::vector<double> shuffled{0.25, 1.0, 0.8, 0.5};
    const FarmSimulation s = simulate_farm(PolicyKind::even, setup_of(shuffled, 4 * m, 2));
    EXPECT_TRUE(RelNear(s.efficiency(), eq17_efficiency(shuffled))) << m << " tasks per client";
  }
}

// proportional with exact quotas has no idle time: speeds 1, 0.5, 0.25 and 7
// tasks split 4, 2, 1, each client busy 4 s. Told equal speeds it is even.
TEST(SimulateFarm, ProportionalWithExactQuotasReachesOne) {
  const std::vector<double> speeds{1.0, 0.5, 0.25};
  const FarmSimulation sim = simulate_farm(PolicyKind::proportional, setup_of(speeds, 7, 2));
  EXPECT_NEAR(sim.efficiency(), 1.0, 1e-12);
  EXPECT_TRUE(RelNear(sim.t_par, 8.0));
  EXPECT_EQ(sim.clients[0].tasks, 8u);
  EXPECT_EQ(sim.clients[1].tasks, 4u);
  EXPECT_EQ(sim.clients[2].tasks, 2u);

  auto told_equal = setup_of(speeds, 6, 2);
  told_equal.declared_speeds = {2.0, 2.0, 2.0};
  EXPECT_TRUE(RelNear(simulate_farm(PolicyKind::proportional, told_equal).efficiency(), 3.0 / 7.0));
}

// (c) APGA 2004 Section 6.2: 32 clients of speeds 400-1933 MHz (d_conf 0.96),
// 128 individuals, 10 generations, no latency.
TEST(SimulateFarm, Hetero32ComparesThePolicies) {
  const std::vector<double> speeds = hetero32_speeds();
  ASSERT_EQ(speeds.size(), 32u);
  EXPECT_NEAR(speeds.front(), 400.0 / 1933.0, 1e-15);
  EXPECT_NEAR(speeds.back(), 1.0, 1e-15);
  // d_conf = n / s_max - 1 with s_max = sum v / max v: 0.96 as in the paper
  EXPECT_NEAR(32.0 / sum_of(speeds) - 1.0, 0.96, 1e-6);

  const double ceiling = earliest_finish_efficiency(speeds, 128, 1.0);
  EXPECT_GT(ceiling, 0.87);
  EXPECT_LT(ceiling, 0.89);

  const auto setup = setup_of(speeds, 128, 10);
  const double even = simulate_farm(PolicyKind::even, setup).efficiency();
  const double adaptive = simulate_farm(PolicyKind::adaptive, setup).efficiency();
  const double plus = simulate_farm(PolicyKind::adaptive_plus, setup).efficiency();
  // 4 individuals each: the slowest client sets the pace, Eq. 17 (0.406)
  EXPECT_TRUE(RelNear(even, eq17_efficiency(speeds), 1e-12)) << even;
  // the paper's protocol loses the tail: a slow client takes one of the last
  // tasks the fast ones would have finished sooner
  EXPECT_GT(ceiling - adaptive, 0.05) << "adaptive " << adaptive << ", ceiling " << ceiling;
  EXPECT_GT(adaptive, even);
  // adaptive+ plans the tail: within 3% of the ceiling, never above it
  EXPECT_GT(plus, 0.97 * ceiling) << "adaptive+ " << plus << ", ceiling " << ceiling;
  EXPECT_LE(plus, ceiling + 1e-9);
  EXPECT_LE(adaptive, ceiling + 1e-9);
}

// (d) a message time only delays: adaptive's efficiency never rises with it.
TEST(SimulateFarm, LatencyNeverIncreasesAdaptiveEfficiency) {
  const std::vector<std::vector<double>> speed_sets{
      hetero32_speeds(), {1.0, 1.0, 1.0, 1.0}, {1.0, 0.6, 0.35}, {0.9, 0.3, 0.5, 0.75, 0.2}};
  for (const auto& speeds : speed_sets)
    for (const std::size_t tasks : {4u * speeds.size(), 4u * speeds.size() + 3u}) {
      double previous = std::numeric_limits<double>::infinity();
      for (const double latency : {0.0, 0.001, 0.01, 0.05, 0.1, 0.2, 0.5}) {
        const double e = simulate_farm(PolicyKind::adaptive, setup_of(speeds, tasks, 3, latency)).efficiency();
        EXPECT_LE(e, previous + 1e-12) << speeds.size() << " clients, " << tasks << " tasks, latency " << latency;
        previous = e;
      }
      // and a latency of 0.1 s costs something: the round trips idle the clients
      EXPECT_LT(simulate_farm(PolicyKind::adaptive, setup_of(speeds, tasks, 3, 0.1)).efficiency(),
                simulate_farm(PolicyKind::adaptive, setup_of(speeds, tasks, 3, 0.0)).efficiency());
    }
}

// (e) every task counts exactly once; only adaptive+ loses duplicates.
TEST(SimulateFarm, CountsEveryTaskOnceAndOnlyAdaptivePlusLosesWork) {
  const std::vector<double> speeds = hetero32_speeds();
  for (const double latency : {0.0, 0.05}) {
    for (const PolicyKind kind : all_policies) {
      const FarmSimulation sim = simulate_farm(kind, setup_of(speeds, 128, 10, latency));
      EXPECT_EQ(counted_tasks(sim), 1280u) << to_string(kind);
      EXPECT_EQ(sim.generation_seconds.size(), 10u) << to_string(kind);
      double generations_total = 0.0;
      for (const double g : sim.generation_seconds) generations_total += g;
      EXPECT_LE(generations_total, sim.t_par * (1.0 + 1e-12)) << to_string(kind);
      for (std::size_t i = 0; i < sim.clients.size(); ++i) {
        const auto& c = sim.clients[i];
        // each evaluation takes 1 / v_i
        EXPECT_TRUE(RelNear(c.t_comp, static_cast<double>(c.tasks) / speeds[i], 1e-9)) << to_string(kind);
        EXPECT_TRUE(RelNear(c.t_lost, static_cast<double>(c.lost_tasks) / speeds[i], 1e-9)) << to_string(kind);
        EXPECT_LE(c.t_comp + c.t_lost, sim.t_par * (1.0 + 1e-12)) << to_string(kind) << " client " << i;
      }
      if (kind == PolicyKind::adaptive_plus)
        EXPECT_GT(lost_tasks(sim), 0u) << "adaptive+ duplicates some of the tail on these speeds";
      else
        EXPECT_EQ(lost_tasks(sim), 0u) << to_string(kind);
    }
  }
}

// BUG (see PolicyAdaptivePlus.TiedIdleClientsDoNotBothWaitForTheLastTask):
// two equal clients, one generation of 3 tasks, 0.1 s messages. At t = 0.4
// both prefetch requests find one task left and both clients busy until 1.2;
// (2.2 - 1.2 rounds to 1 + 2^-52) the tie is counted as "the other finishes
// earlier" for both, both wait, and after their WorkEnds at 1.4 the same
// rounding recurs: no message is left and the simulation throws "stopped
// before its last generation" (the MPI farm would hang). Expected: the 3
// tasks done.
TEST(SimulateFarm, AdaptivePlusNeverDeadlocksOnTiedPlans) {
  const std::vector<SimulatedFarmSetup> setups{
      setup_of({1.0, 1.0}, 3, 1, 0.1),       setup_of({1.0, 1.0}, 1, 2, 0.1),
      setup_of({1.0, 0.5}, 1, 2, 0.1),       setup_of({1.0, 1.0, 1.0}, 4, 1, 0.1),
      setup_of({1.0, 0.5, 0.25}, 1, 3, 0.1), setup_of(std::vector<double>(9, 0.7), 1, 3, 0.0)};
  for (std::size_t i = 0; i < setups.size(); ++i) {
    const auto& setup = setups[i];
    try {
      const FarmSimulation sim = simulate_farm(PolicyKind::adaptive_plus, setup);
      EXPECT_EQ(counted_tasks(sim), setup.tasks_per_generation * setup.generations) << "setup " << i;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "setup " << i << " (" << setup.client_speeds.size() << " clients, " << setup.tasks_per_generation
                    << " tasks x " << setup.generations << ", latency " << setup.latency_seconds << "): " << e.what();
    }
  }
}

// Every policy finishes and counts every task on random small farms
// (speeds, tasks, generations, latency). Catches protocol deadlocks.
TEST(SimulateFarm, RandomFarmsFinish) {
  std::mt19937_64 rng(99);
  int failures = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const std::size_t clients = 1 + rng() % 6;
    std::vector<double> speeds(clients);
    for (double& v : speeds) v = 0.2 + static_cast<double>(rng() % 81) / 100.0;
    const std::size_t tasks = 1 + rng() % 15, generations = 1 + rng() % 3;
    const double latency = std::vector<double>{0.0, 0.01, 0.1, 0.3}[rng() % 4];
    for (const PolicyKind kind : all_policies) {
      try {
        const FarmSimulation sim = simulate_farm(kind, setup_of(speeds, tasks, generations, latency));
        EXPECT_EQ(counted_tasks(sim), tasks * generations) << to_string(kind) << " trial " << trial;
        EXPECT_GT(sim.efficiency(), 0.0);
        EXPECT_LE(sim.efficiency(), earliest_finish_efficiency(speeds, tasks, 1.0) + 1e-9)
            << to_string(kind) << " trial " << trial;
      } catch (const std::exception& e) {
        if (++failures <= 5)
          ADD_FAILURE() << to_string(kind) << " trial " << trial << " (" << clients << " clients, " << tasks
                        << " tasks x " << generations << ", latency " << latency << "): " << e.what();
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

// A bag of tasks of unequal costs, unknown to the policy (a user's tasks):
// every policy finishes and runs every task once on random farms, never
// beating the ceiling of a dispatcher that knew the costs (list order) by
// more than that ceiling's own slack, and adaptive+ (which plans the client
// asking with a long task, the 90th percentile of the costs seen) never
// deadlocks however the costs fall, heavy tails included.
TEST(SimulateFarm, BagsOfUnequalTasksFinish) {
  std::mt19937_64 rng(2026);
  std::lognormal_distribution<double> heavy(0.0, 1.5);
  for (int trial = 0; trial < 120; ++trial) {
    const std::size_t clients = 1 + rng() % 9;
    std::vector<double> speeds(clients);
    for (double& v : speeds) v = std::vector<double>{1.0, 0.5, 0.25, 0.125, 0.0625}[rng() % 5];
    std::vector<double> costs(1 + rng() % 120);
    for (double& cost : costs) cost = 0.01 + heavy(rng);
    SimulatedFarmSetup setup;
    setup.client_speeds = speeds;
    setup.task_costs = costs;
    setup.latency_seconds = std::vector<double>{0.0, 1e-4, 0.01}[rng() % 3];
    const double total = std::accumulate(costs.begin(), costs.end(), 0.0);
    const double speed_sum = std::accumulate(speeds.begin(), speeds.end(), 0.0);
    for (const PolicyKind kind : all_policies) {
      const FarmSimulation sim = simulate_farm(kind, setup);
      EXPECT_EQ(counted_tasks(sim), costs.size()) << to_string(kind) << " trial " << trial;
      EXPECT_TRUE(RelNear(sim.t_seq_ref, total)) << to_string(kind) << " trial " << trial;
      // No farm of these tasks ends before the work is done at full speed,
      // nor before its longest task can end on the fastest client.
      const double longest = *std::max_element(costs.begin(), costs.end());
      EXPECT_GE(sim.t_par * (1.0 + 1e-9),
                std::max(total / speed_sum, longest / *std::max_element(speeds.begin(), speeds.end())))
          << to_string(kind) << " trial " << trial;
    }
  }
}

// The ceiling of a bag of tasks: each task, in list order, to the client that
// would finish it first.
TEST(EarliestFinish, BagOfTasksInListOrder) {
  // Speeds 1 and 0.5; tasks 2, 1, 1: 2 -> client 0 (ends 2; client 1 would end 4);
  // 1 -> client 1 (ends 2; client 0 would end 3); 1 -> client 0 (ends 3; client 1 would end 4).
  EXPECT_DOUBLE_EQ(earliest_finish_makespan({1.0, 0.5}, std::vector<double>{2.0, 1.0, 1.0}), 3.0);
  EXPECT_DOUBLE_EQ(earliest_finish_makespan({1.0}, std::vector<double>{0.5, 0.25}), 0.75);
  EXPECT_TRUE(ThrowsInvalidArgumentNaming(
      [] {
        earliest_finish_makespan({1.0}, std::vector<double>{1.0, 0.0});
      },
      {"task_costs[1]", "0"}));
}

// What no schedule of a bag beats: the work over the sum of the speeds, or
// the longest task on the fastest client. The list-order ceiling is not one:
// speeds 1, 1 and tasks 1, 1, 2 in that order end at 3 (the 2 after a 1),
// the bound (and the best schedule: 2 | 1, 1) at 2.
TEST(EarliestFinish, LowerBoundOfABag) {
  EXPECT_DOUBLE_EQ(makespan_lower_bound({1.0, 1.0}, {1.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(earliest_finish_makespan({1.0, 1.0}, std::vector<double>{1.0, 1.0, 2.0}), 3.0);
  EXPECT_DOUBLE_EQ(makespan_lower_bound({1.0, 0.5}, {4.0, 0.5}), 4.0);       // the longest on the fastest
  EXPECT_DOUBLE_EQ(makespan_lower_bound({1.0, 0.5}, {1.0, 1.0, 1.0}), 2.0);  // 3 / 1.5
  for (int trial = 0; trial < 50; ++trial) {
    std::mt19937 random(static_cast<unsigned>(trial));
    std::uniform_real_distribution<double> cost(0.1, 5.0), speed(0.1, 1.0);
    std::vector<double> speeds(1 + trial % 5), costs(1 + trial % 17);
    for (double& v : speeds) v = speed(random);
    for (double& c : costs) c = cost(random);
    EXPECT_LE(makespan_lower_bound(speeds, costs), earliest_finish_makespan(speeds, costs) * (1 + 1e-12)) << trial;
  }
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { makespan_lower_bound({1.0}, {1.0, -1.0}); }, {"task_costs[1]", "-1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { makespan_lower_bound({}, {1.0}); }, {"speeds"}));
}

// (f) bad setups name the field.
TEST(SimulateFarm, BadSetupsThrowNamingTheField) {
  const auto good = setup_of({1.0, 0.5}, 4, 2);
  EXPECT_NO_THROW(simulate_farm(PolicyKind::adaptive, good));
  auto bad = good;
  bad.client_speeds = {};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::even, bad); }, {"client_speeds"}));
  bad = good;
  bad.client_speeds = {1.0, 0.0};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::even, bad); }, {"client_speeds[1]", "0"}));
  bad = good;
  bad.client_speeds = {std::numeric_limits<double>::quiet_NaN(), 1.0};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"client_speeds[0]"}));
  bad = good;
  bad.declared_speeds = {1.0};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::proportional, bad); },
                                          {"declared_speeds", "1 values for 2 clients"}));
  bad = good;
  bad.declared_speeds = {1.0, -1.0};
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::proportional, bad); }, {"declared_speeds[1]", "-1"}));
  bad = good;
  bad.tasks_per_generation = 0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"tasks_per_generation"}));
  bad = good;
  bad.generations = 0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"generations"}));
  bad = good;
  bad.task_seconds = 0.0;
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"task_seconds", "0"}));
  bad.task_seconds = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"task_seconds", "inf"}));
  bad = good;
  bad.latency_seconds = -0.5;
  EXPECT_TRUE(
      ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"latency_seconds", "-0.5"}));
  bad.latency_seconds = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"latency_seconds"}));
  bad = good;
  bad.task_costs = {1.0, -2.0};
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([&] { simulate_farm(PolicyKind::adaptive, bad); }, {"task_costs[1]", "-2"}));
}

// ============================================================ earliest finish

TEST(EarliestFinish, HandComputedMakespans) {
  // speeds 1 and 0.5, 3 tasks of 1 s: slots end at 1, 2, 3 (fast) and 2, 4
  // (slow); the three earliest end at 1, 2, 2: makespan 2
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0, 0.5}, 3, 1.0), 2.0));
  // ... 4 tasks: 1, 2, 2, 3 -> 3; 5 tasks: 1, 2, 2, 3, 4 -> 4 (the slow
  // client's 4 ties the fast client's 4)
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0, 0.5}, 4, 1.0), 3.0));
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0, 0.5}, 5, 1.0), 4.0));
  // one client: tasks in a row
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0}, 5, 2.0), 10.0));
  EXPECT_TRUE(RelNear(earliest_finish_makespan({0.25}, 1, 1.0), 4.0));
  // speeds 1 and 0.25, tasks of 1 s: the slow client's first slot ends at 4,
  // so 4 tasks go to the fast client (1, 2, 3, 4) -> 4; 5 tasks: 4 as well
  // (the slow one takes one ending at 4); 6 tasks -> 5
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0, 0.25}, 3, 1.0), 3.0));
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0, 0.25}, 4, 1.0), 4.0));
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0, 0.25}, 5, 1.0), 4.0));
  EXPECT_TRUE(RelNear(earliest_finish_makespan({1.0, 0.25}, 6, 1.0), 5.0));
  // speeds 2, 1, 0.5, 7 tasks of 1 s: slots 0.5 1 1.5 2 (fast), 1 2 (mid),
  // 2 (slow); the 7 earliest end by 2, and work 7 = 2 * 3.5: efficiency 1
  EXPECT_TRUE(RelNear(earliest_finish_makespan({2.0, 1.0, 0.5}, 7, 1.0), 2.0));
  EXPECT_TRUE(RelNear(earliest_finish_efficiency({2.0, 1.0, 0.5}, 7, 1.0), 1.0));
  // ... 3 tasks: 0.5, 1, 1 -> 1; efficiency 3 / (1 * 3.5) = 6/7
  EXPECT_TRUE(RelNear(earliest_finish_makespan({2.0, 1.0, 0.5}, 3, 1.0), 1.0));
  EXPECT_TRUE(RelNear(earliest_finish_efficiency({2.0, 1.0, 0.5}, 3, 1.0), 6.0 / 7.0));
  // the task length scales the makespan; the order of the speeds does not matter
  EXPECT_TRUE(RelNear(earliest_finish_makespan({0.5, 1.0}, 3, 2.5), 5.0));
  // no tasks, no time
  EXPECT_EQ(earliest_finish_makespan({1.0, 0.5}, 0, 1.0), 0.0);
  // speeds 1, 0.5 and 3 tasks: efficiency 3 / (2 * 1.5) = 1; 4 tasks: 4 / (3 * 1.5) = 8/9
  EXPECT_TRUE(RelNear(earliest_finish_efficiency({1.0, 0.5}, 3, 1.0), 1.0));
  EXPECT_TRUE(RelNear(earliest_finish_efficiency({1.0, 0.5}, 4, 1.0), 8.0 / 9.0));
}

TEST(EarliestFinish, EqualSpeedsWithTasksAMultipleOfClientsReachOne) {
  for (const std::size_t clients : {1u, 2u, 3u, 5u, 32u})
    for (const std::size_t per_client : {1u, 2u, 4u, 7u})
      for (const double speed : {0.3, 1.0, 2.0}) {
        const std::vector<double> speeds(clients, speed);
        const std::size_t tasks = clients * per_client;
        EXPECT_TRUE(RelNear(earliest_finish_makespan(speeds, tasks, 1.5), 1.5 * per_client / speed, 1e-12));
        EXPECT_TRUE(RelNear(earliest_finish_efficiency(speeds, tasks, 1.5), 1.0, 1e-12))
            << clients << " clients, " << per_client << " each, speed " << speed;
      }
  // one task more than a multiple: a whole extra round for one client
  EXPECT_TRUE(RelNear(earliest_finish_efficiency(std::vector<double>(4, 1.0), 9, 1.0), 9.0 / 12.0));
}

// The ceiling is at least every policy's efficiency: no farm of indivisible
// equal tasks beats the earliest-finish schedule, and it at least matches the
// static splits.
TEST(EarliestFinish, IsTheCeilingOfTheStaticSplits) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t clients = 1 + rng() % 8, tasks = 1 + rng() % 40;
    std::vector<double> speeds(clients);
    for (double& v : speeds) v = 0.2 + static_cast<double>(rng() % 81) / 100.0;
    const double makespan = earliest_finish_makespan(speeds, tasks, 1.0);
    // a static split's makespan: its most loaded client
    for (const Counts& counts : {even_counts(tasks, clients), proportional_counts(tasks, speeds)}) {
      double split = 0.0;
      for (std::size_t i = 0; i < clients; ++i) split = std::max(split, static_cast<double>(counts[i]) / speeds[i]);
      EXPECT_LE(makespan, split * (1.0 + 1e-12)) << "trial " << trial;
    }
    // and at least the perfectly divisible time
    EXPECT_GE(makespan, static_cast<double>(tasks) / sum_of(speeds) * (1.0 - 1e-12));
    EXPECT_LE(earliest_finish_efficiency(speeds, tasks, 1.0), 1.0 + 1e-12);
  }
}

TEST(EarliestFinish, BadInputsThrow) {
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { earliest_finish_makespan({}, 3, 1.0); }, {"speeds"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { earliest_finish_makespan({1.0, -1.0}, 3, 1.0); }, {"speeds[1]", "-1"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { earliest_finish_makespan({1.0}, 3, 0.0); }, {"task_seconds", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { earliest_finish_efficiency({1.0}, 0, 1.0); }, {"tasks", "0"}));
  EXPECT_TRUE(ThrowsInvalidArgumentNaming([] { earliest_finish_efficiency({0.0}, 1, 1.0); }, {"speeds[0]"}));
}

}  // namespace
}  // namespace hetscale::distribute
