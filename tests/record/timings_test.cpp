// Timings (procs,size,seconds) for Majumdar 1999's serial-fraction fit: written by
// `hetscale scale sweep --timings`, read (several files as one) by `fit serial`.
#include "hetscale/record/timings.hpp"

#include <gtest/gtest.h>

#include "support/assertions.hpp"
#include "support/temp_folder.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace hetscale {
namespace {

using testing_support::ErrorMessage;
using testing_support::TempFolder;

struct Row {
  std::size_t procs;
  double size, seconds;
  bool operator==(const Row&) const = default;
};

std::vector<Row> Rows(const Timings& timings) {
  std::vector<Row> rows;
  for (const auto& timing : timings.rows) rows.push_back({timing.procs, timing.size, timing.seconds});
  return rows;
}

TEST(TimingsCsv, WritesTheHeaderAndOneRowPerTiming) {
  const Timings timings{"sweep", {{1, 1000, 2.5, 0}, {4, 2e6, 0.123456789012, 0}}};
  EXPECT_EQ(timings_csv(timings), "procs,size,seconds\n1,1000,2.5\n4,2000000,0.123456789\n");
}

TEST(TimingsCsv, ReadsBackAsWritten) {
  const Timings written{"sweep", {{1, 100, 0.26077, 0}, {3, 200, 0.473786, 0}, {3, 1.5e5, 12.25, 0}}};
  const Timings read = parse_timings_csv(timings_csv(written), "t.csv");
  EXPECT_EQ(Rows(read), Rows(written));
  EXPECT_EQ(read.source, "t.csv");
}

TEST(TimingsCsv, ASweepsPointsOnItsProcesses) {
  Sweep sweep;
  sweep.source = "c2.json";
  sweep.marked_speeds = {20.88, 20.88, 20.29};
  sweep.points = {{100, 661353, 0.26077, 0.2, true, {}}, {200, 5312703, 0.473786, 0.35, false, {}}};
  const Timings timings = sweep_timings(sweep);
  EXPECT_EQ(timings.source, "c2.json");
  EXPECT_EQ(Rows(timings), (std::vector<Row>{{3, 100, 0.26077}, {3, 200, 0.473786}}));
  EXPECT_EQ(timings_csv(timings), "procs,size,seconds\n3,100,0.26077\n3,200,0.473786\n");
}

TEST(TimingsFiles, SeveralAreReadAsOne) {
  const TempFolder folder;
  const std::string serial = folder.write("serial.csv", "procs,size,seconds\n1,1000,8\n");
  const std::string parallel = folder.write("parallel.csv", "procs,size,seconds\n4,1000,2.5\n8,1000,1.5\n");
  const Timings timings = read_timings(std::vector<std::string>{serial, parallel});
  EXPECT_EQ(timings.source, serial + " + " + parallel);
  EXPECT_EQ(Rows(timings), (std::vector<Row>{{1, 1000, 8}, {4, 1000, 2.5}, {8, 1000, 1.5}}));
  EXPECT_EQ(timings.rows[2].line, 3u);  // lines stay those of their own file
  EXPECT_EQ(read_timings(std::vector<std::string>{serial}).source, serial);
}

TEST(TimingsFiles, ABadFileIsNamedAndNoFilesIsMisuse) {
  const TempFolder folder;
  const std::string good = folder.write("good.csv", "procs,size,seconds\n1,1000,8\n");
  const std::string bad = folder.write("bad.csv", "procs,size\n");
  EXPECT_EQ(ErrorMessage([&] {
              read_timings(std::vector<std::string>{good, bad});
            }),
            bad + ": line 1: header is 'procs,size', expected 'procs,size,seconds'");
  EXPECT_EQ(ErrorMessage<std::invalid_argument>([] { read_timings(std::vector<std::string>{}); }),
            "read_timings: no timings files given");
}

}  // namespace
}  // namespace hetscale
