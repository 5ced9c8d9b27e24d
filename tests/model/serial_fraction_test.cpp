// Majumdar 1999 (Majumdar): speed-up, theoretical speed-up, serial fraction and
// parallelization efficiency, Eqs 104-115; and the Karp-Flatt experimentally
// determined serial fraction (Karp and Flatt, CACM 33(5), 1990).
#include "hetscale/model/serial_fraction.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace hetscale::model {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

const std::vector<double> serial_fractions{0.0, 1e-4, 0.01, 0.05, 0.2, 0.5, 0.9, 1.0};
const std::vector<std::size_t> processor_counts{1, 2, 3, 7, 16, 64, 1000};

// Amdahl's law written out in the test, independently of the model code.
double amdahl(double f, std::size_t n) { return 1.0 / ((1.0 - f) / static_cast<double>(n) + f); }

// Majumdar 1999, Eq 104: S_N = tau_1 / tau_N
TEST(Seed002Eq104, SpeedupIsSingleOverParallelTime) {
  EXPECT_DOUBLE_EQ(speedup(120.0, 16.0), 7.5);
  EXPECT_DOUBLE_EQ(speedup(10.0, 10.0), 1.0);
}

// Majumdar 1999, Eqs 105-106: tau_N = tau_s + tau_p + delta_tau, and the overhead is what tau_N holds beyond
TEST(Seed002Eq105, ParallelTimeIsSumAndOverheadIsTheRemainder) {
  EXPECT_DOUBLE_EQ(parallel_time(2.0, 7.5, 0.5), 10.0);
  EXPECT_DOUBLE_EQ(parallelization_overhead(10.0, 2.0, 7.5), 0.5);
  for (double overhead : {0.0, 0.125, 3.0}) {
    SCOPED_TRACE("delta_tau = " + std::to_string(overhead));
    EXPECT_NEAR(parallelization_overhead(parallel_time(1.25, 4.5, overhead), 1.25, 4.5), overhead, 1e-12);
  }
}

// Majumdar 1999, Eq 112: S_N^th = 1 / ((1 - f) / N + f) on a hand-computed value
TEST(Seed002Eq112, TheoreticalSpeedupHandComputedValue) {
  // f = 0.1, N = 10: 1 / (0.9 / 10 + 0.1) = 1 / 0.19 = 5.263157894736842...
  EXPECT_NEAR(theoretical_speedup(0.1, 10), 5.263157894736842, 1e-12);
  // f = 0.5, N = 4: 1 / (0.125 + 0.5) = 1.6
  EXPECT_DOUBLE_EQ(theoretical_speedup(0.5, 4), 1.6);
  for (double f : serial_fractions) {
    for (std::size_t n : processor_counts) {
      SCOPED_TRACE("f = " + std::to_string(f) + ", N = " + std::to_string(n));
      EXPECT_DOUBLE_EQ(theoretical_speedup(f, n), amdahl(f, n));
    }
  }
}

// Majumdar 1999, Eq 112 limits (Amdahl): f = 0 gives N, f = 1 gives 1
TEST(Seed002Eq112, AmdahlLimitsNoSerialPartGivesNAllSerialGivesOne) {
  for (std::size_t n : processor_counts) {
    SCOPED_TRACE("N = " + std::to_string(n));
    EXPECT_DOUBLE_EQ(theoretical_speedup(0.0, n), static_cast<double>(n));
    EXPECT_DOUBLE_EQ(theoretical_speedup(1.0, n), 1.0);
  }
}

// Majumdar 1999, Eq 111 = Eq 112: the work form does not depend on W or on the processor speed nu
TEST(Seed002Eq111, WorkFormEqualsFractionFormForAnyWorkAndSpeed) {
  for (double work : {1.0, 3.7e4, 2.5e12}) {
    for (double nu : {1e-3, 1.0, 6.2e7}) {
      for (double f : serial_fractions) {
        for (std::size_t n : processor_counts) {
          SCOPED_TRACE("W = " + std::to_string(work) + ", nu = " + std::to_string(nu) + ", f = " + std::to_string(f) +
                       ", N = " + std::to_string(n));
          const double fraction_form = theoretical_speedup(f, n);
          EXPECT_NEAR(theoretical_speedup_from_work(work, f, n, nu), fraction_form, 1e-12 * fraction_form);
        }
      }
    }
  }
}

// Majumdar 1999, Eq 107 = Eq 112: with tau_s = f tau_1 and tau_p = (1 - f) tau_1 / N
TEST(Seed002Eq107, TimesFormEqualsFractionForm) {
  for (double tau_1 : {0.5, 80.0, 3.6e4}) {
    for (double f : serial_fractions) {
      for (std::size_t n : processor_counts) {
        SCOPED_TRACE("tau_1 = " + std::to_string(tau_1) + ", f = " + std::to_string(f) + ", N = " + std::to_string(n));
        const double tau_s = f * tau_1;
        const double tau_p = (1.0 - f) * tau_1 / static_cast<double>(n);
        const double fraction_form = theoretical_speedup(f, n);
        EXPECT_NEAR(theoretical_speedup_from_times(tau_1, tau_s, tau_p), fraction_form, 1e-12 * fraction_form);
      }
    }
  }
}

// Majumdar 1999, Eq 108 = Eq 107 when delta_tau = 0
TEST(Seed002Eq108, ZeroOverheadSpeedupEqualsTheoreticalSpeedup) {
  for (double f : serial_fractions) {
    for (std::size_t n : processor_counts) {
      SCOPED_TRACE("f = " + std::to_string(f) + ", N = " + std::to_string(n));
      const double tau_1 = 100.0;
      const double tau_s = f * tau_1;
      const double tau_p = (1.0 - f) * tau_1 / static_cast<double>(n);
      EXPECT_DOUBLE_EQ(speedup_with_overhead(tau_1, tau_s, tau_p, 0.0),
                       theoretical_speedup_from_times(tau_1, tau_s, tau_p));
      EXPECT_DOUBLE_EQ(parallelization_efficiency(speedup_with_overhead(tau_1, tau_s, tau_p, 0.0),
                                                  theoretical_speedup_from_times(tau_1, tau_s, tau_p)),
                       1.0);
    }
  }
}

// Majumdar 1999, Eqs 108-109: an overhead > 0 lowers S_N below S_N^th, so eps_N < 1
TEST(Seed002Eq109, OverheadMakesParallelizationEfficiencyBelowOne) {
  // tau_1 = 100, tau_s = 5, tau_p = 95 / 8 = 11.875, delta_tau = 3.125:
  // S^th = 100 / 16.875, S = 100 / 20, eps = 16.875 / 20 = 0.84375
  const double tau_1 = 100.0, tau_s = 5.0, tau_p = 11.875, overhead = 3.125;
  const double s = speedup_with_overhead(tau_1, tau_s, tau_p, overhead);
  const double s_th = theoretical_speedup_from_times(tau_1, tau_s, tau_p);
  EXPECT_DOUBLE_EQ(s, 5.0);
  EXPECT_DOUBLE_EQ(parallelization_efficiency(s, s_th), 0.84375);

  for (double f : serial_fractions) {
    for (std::size_t n : processor_counts) {
      for (double delta : {1e-6, 0.1, 10.0}) {
        SCOPED_TRACE("f = " + std::to_string(f) + ", N = " + std::to_string(n) + ", delta_tau = " + std::to_string(delta));
        const double ts = f * tau_1;
        const double tp = (1.0 - f) * tau_1 / static_cast<double>(n);
        const double with_overhead = speedup_with_overhead(tau_1, ts, tp, delta);
        const double theoretical = theoretical_speedup_from_times(tau_1, ts, tp);
        EXPECT_LT(with_overhead, theoretical);
        const double efficiency = parallelization_efficiency(with_overhead, theoretical);
        EXPECT_LT(efficiency, 1.0);
        EXPECT_NEAR(efficiency, (ts + tp) / (ts + tp + delta), 1e-12);
      }
    }
  }
}

// Majumdar 1999, Eq 110: f = W_S / (W_S + W_P)
TEST(Seed002Eq110, SerialFractionOfWorkHandComputed) {
  EXPECT_DOUBLE_EQ(serial_fraction_of_work(1.0, 3.0), 0.25);
  EXPECT_DOUBLE_EQ(serial_fraction_of_work(0.0, 7.0), 0.0);
  EXPECT_DOUBLE_EQ(serial_fraction_of_work(7.0, 0.0), 1.0);
}

// Majumdar 1999, Eqs 113-115: W = a' + b' N_h over nu is tau_1 = a + b N_h, and Eq 110 with
// W_S = a', W_P = b' N_h equals Eq 115 f = a / tau_1 when a = a' / nu, b = b' / nu
TEST(Seed002Eq115, LinearWorkloadSerialFractionMatchesTimeSerialFraction) {
  for (double nu : {0.25, 1.0, 4.0e8}) {
    for (double a_prime : {0.0, 5.0e3, 2.0e9}) {
      for (double b_prime : {1.0, 1.7e5}) {
        for (double histories : {0.0, 1.0, 1e4, 1e7}) {
          SCOPED_TRACE("nu = " + std::to_string(nu) + ", a' = " + std::to_string(a_prime) +
                       ", b' = " + std::to_string(b_prime) + ", N_h = " + std::to_string(histories));
          if (a_prime + b_prime * histories == 0.0) continue;  // no work at all
          const double a = a_prime / nu;
          const double b = b_prime / nu;
          const double work = linear_workload(a_prime, b_prime, histories);
          const double tau_1 = single_processor_time(a, b, histories);
          EXPECT_NEAR(work / nu, tau_1, 1e-12 * tau_1);
          const double from_work = serial_fraction_of_work(a_prime, b_prime * histories);
          EXPECT_NEAR(from_work, serial_fraction(a, tau_1), 1e-12);
        }
      }
    }
  }
  // Hand-computed: a = 2 s, b = 0.001 s per history, N_h = 8000: tau_1 = 10 s, f = 0.2.
  EXPECT_DOUBLE_EQ(single_processor_time(2.0, 0.001, 8000.0), 10.0);
  EXPECT_DOUBLE_EQ(serial_fraction(2.0, 10.0), 0.2);
  EXPECT_DOUBLE_EQ(linear_workload(3.0, 0.5, 10.0), 8.0);
}

// Karp-Flatt (1990): a run obeying Amdahl exactly with serial fraction f gives e = f for p = 2..64
TEST(KarpFlatt, RecoversSerialFractionOfAnAmdahlRun) {
  for (double f : serial_fractions) {
    for (std::size_t p = 2; p <= 64; ++p) {
      SCOPED_TRACE("f = " + std::to_string(f) + ", p = " + std::to_string(p));
      EXPECT_NEAR(karp_flatt_serial_fraction(amdahl(f, p), p), f, 1e-12);
    }
  }
}

// Karp-Flatt (1990): e = (1/S - 1/p) / (1 - 1/p) on a hand-computed value
TEST(KarpFlatt, HandComputedValueAndOverheadRaisesIt) {
  // S = 3 on p = 4: (1/3 - 1/4) / (3/4) = (1/12) / (3/4) = 1/9
  EXPECT_NEAR(karp_flatt_serial_fraction(3.0, 4), 1.0 / 9.0, 1e-15);
  // A run slower than Amdahl with f = 0.05 (overhead) shows e > f.
  const double f = 0.05;
  const double tau_1 = 100.0;
  const std::size_t p = 16;
  const double s = speedup_with_overhead(tau_1, f * tau_1, (1.0 - f) * tau_1 / 16.0, 1.0);
  EXPECT_GT(karp_flatt_serial_fraction(s, p), f);
}

// Karp-Flatt (1990): undefined for p = 1 (1 - 1/p = 0); the message names p and its value
TEST(KarpFlatt, RejectsFewerThanTwoProcessorsAndBadSpeedup) {
  EXPECT_THAT([] { karp_flatt_serial_fraction(1.0, 1); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("p >= 2"), HasSubstr("got 1"))));
  EXPECT_THAT([] { karp_flatt_serial_fraction(1.0, 0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("p >= 2"), HasSubstr("got 0"))));
  EXPECT_THAT([] { karp_flatt_serial_fraction(0.0, 4); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("speed-up S"), HasSubstr("got 0"))));
  EXPECT_THAT([] { karp_flatt_serial_fraction(std::numeric_limits<double>::quiet_NaN(), 4); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("speed-up S"), HasSubstr("nan"))));
}

// Majumdar 1999, Eqs 111-112: f outside [0, 1], N = 0, W <= 0 and nu <= 0 are rejected, naming the value
TEST(Seed002BadArguments, TheoreticalSpeedupRejectsBadFractionProcessorsWorkAndSpeed) {
  EXPECT_THAT([] { theoretical_speedup(-0.1, 4); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("serial fraction f"), HasSubstr("-0.1"))));
  EXPECT_THAT([] { theoretical_speedup(1.5, 4); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("serial fraction f"), HasSubstr("1.5"))));
  EXPECT_THAT([] { theoretical_speedup(std::numeric_limits<double>::quiet_NaN(), 4); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("serial fraction f"), HasSubstr("nan"))));
  EXPECT_THAT([] { theoretical_speedup(0.1, 0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("processors N"), HasSubstr("got 0"))));
  EXPECT_THAT([] { theoretical_speedup_from_work(0.0, 0.1, 4, 1.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("W"), HasSubstr("got 0"))));
  EXPECT_THAT([] { theoretical_speedup_from_work(10.0, 0.1, 4, -2.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("processor speed nu"), HasSubstr("-2"))));
  EXPECT_THAT([] { theoretical_speedup_from_work(10.0, 0.1, 0, 1.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("processors N"), HasSubstr("got 0"))));
}

// Majumdar 1999, Eqs 104-110, 115: non-positive times, negative work and an all-zero workload are rejected
TEST(Seed002BadArguments, TimesAndWorkRejectNonPositiveOrNan) {
  EXPECT_THAT([] { speedup(0.0, 1.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("tau_1"), HasSubstr("got 0"))));
  EXPECT_THAT([] { speedup(10.0, -1.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("tau_N"), HasSubstr("-1"))));
  EXPECT_THAT([] { parallel_time(-1.0, 2.0, 0.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("tau_s"), HasSubstr("-1"))));
  EXPECT_THAT([] { parallel_time(1.0, 2.0, std::numeric_limits<double>::quiet_NaN()); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("delta_tau"), HasSubstr("nan"))));
  EXPECT_THAT([] { parallelization_efficiency(2.0, 0.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("S_N^th"), HasSubstr("got 0"))));
  EXPECT_THAT([] { serial_fraction_of_work(-1.0, 3.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("W_S"), HasSubstr("-1"))));
  EXPECT_THAT([] { serial_fraction_of_work(0.0, 0.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("W = W_S + W_P"), HasSubstr("got 0"))));
  EXPECT_THAT([] { serial_fraction(1.0, 0.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("tau_1"), HasSubstr("got 0"))));
  EXPECT_THAT([] { single_processor_time(1.0, 0.5, -3.0); },
              ThrowsMessage<std::invalid_argument>(AllOf(HasSubstr("N_h"), HasSubstr("-3"))));
}

}  // namespace
}  // namespace hetscale::model
