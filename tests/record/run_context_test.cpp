// A run record's context, typed (record/run_context.hpp): each tool's part
// written and read back field by field through the record; the part is told
// by its keys; fields of the wrong type left out; keys no part holds kept.
#include "hetscale/record/run_context.hpp"

#include <gtest/gtest.h>

#include <string>

#include "hetscale/io/input_error.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale {
namespace {

RunRecord OneRankRun(RunContext context) {
  RunRecord run;
  run.t_par = 2.0;
  run.t_seq_ref = 1.0;
  NodeRecord node;
  node.name = "rank-0";
  node.work = 1.0;
  node.t_comp = 1.0;
  node.t_idle = 1.0;
  run.nodes.push_back(node);
  run.context = std::move(context);
  return run;
}

RunRecord WrittenAndRead(const RunRecord& run) { return parse_run_record(run_record_json(run), "run.json"); }

TEST(RunContext, AMeasuredRunRoundTrips) {
  MeasuredContext measured;
  measured.tool = "hetscale measure";
  measured.program = "./app";
  measured.ranks = 1;
  measured.hosts = {"node-a"};
  measured.times = "what each time means";
  measured.sharing = MeasuredSharing{{2}, {1}, {{"node-a", 1}}, false};
  measured.emulation = MeasuredEmulation{"hold-back", {0.5}, {0.49}};
  measured.threads = {{{true, 1.0, 1.0, 0.0, 0.0, 0.1, 0.2, 0.3}, {false, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}}};
  measured.mpi_functions = {{"MPI_Allreduce", 10, 0.5, 0.5, 0.5, 80, 0}};
  MeasuredContext region_context;
  region_context.tool = "hetscale measure";
  region_context.region = "solve";
  measured.regions.push_back(OneRankRun(RunContext{region_context, std::nullopt, std::nullopt, ""}));
  const auto read = WrittenAndRead(OneRankRun(RunContext{measured, std::nullopt, std::nullopt, ""}));

  ASSERT_TRUE(read.context.measured);
  EXPECT_FALSE(read.context.kernel);
  EXPECT_FALSE(read.context.farm);
  EXPECT_TRUE(read.context.notes_json.empty());
  const auto& m = *read.context.measured;
  EXPECT_EQ(read.context.tool(), "hetscale measure");
  EXPECT_EQ(m.program, "./app");
  EXPECT_EQ(m.ranks, 1u);
  EXPECT_EQ(m.hosts, std::vector<std::string>{"node-a"});
  EXPECT_EQ(m.times, "what each time means");
  ASSERT_TRUE(m.sharing);
  EXPECT_EQ(m.sharing->cpus, std::vector<int>{2});
  EXPECT_EQ(m.sharing->ranks_per_host.at("node-a"), 1);
  EXPECT_FALSE(m.sharing->cores_shared);
  ASSERT_TRUE(m.emulation);
  EXPECT_EQ(m.emulation->asked, std::vector<double>{0.5});
  EXPECT_EQ(m.emulation->achieved, std::vector<double>{0.49});
  ASSERT_EQ(m.threads.size(), 1u);
  ASSERT_EQ(m.threads[0].size(), 2u);
  EXPECT_TRUE(m.threads[0][0].calls_mpi);
  EXPECT_EQ(m.threads[0][0].idle, 0.3);
  EXPECT_EQ(m.threads[0][1].on_cpu, 0.5);
  ASSERT_EQ(read.context.mpi_functions().size(), 1u);
  EXPECT_EQ(read.context.mpi_functions()[0].bytes, 80.0);
  ASSERT_EQ(m.regions.size(), 1u);
  EXPECT_EQ(m.regions[0].source, "run.json, region solve");
  EXPECT_EQ(m.regions[0].context.measured.value().region, "solve");
  EXPECT_EQ(m.regions[0].t_par, 2.0);
}

TEST(RunContext, OpenMpThreadsAndDevicesRoundTrip) {
  MeasuredContext measured;
  measured.tool = "hetscale measure";
  measured.program = "./app";
  MeasuredOpenMp openmp;
  openmp.how = "OMPT";
  openmp.team = {2};
  openmp.useful = {9};
  openmp.in_regions = {6.25};
  openmp.threads = {{{0, 1.0, 3.0, 0.0}, {1, 0.5, 3.0, 3.0}}};
  measured.openmp = openmp;
  MeasuredOffload offload;
  offload.how = "libomptarget";
  offload.runtime_seconds = {0.5};
  offload.runtime_waited = {0.125};
  offload.runtime_calls = {14};
  offload.devices = {{{3, 8, 0.25, 13, 4000064, 17, 7200064, 0.0625}}};
  measured.offload = offload;
  const auto read = WrittenAndRead(OneRankRun(RunContext{measured, std::nullopt, std::nullopt, ""}));

  ASSERT_TRUE(read.context.measured && read.context.measured->openmp && read.context.measured->offload);
  const auto& o = *read.context.measured->openmp;
  EXPECT_EQ(o.in_regions, std::vector<double>{6.25});
  ASSERT_EQ(o.threads.size(), 1u);
  ASSERT_EQ(o.threads[0].size(), 2u);
  EXPECT_EQ(o.threads[0][1].number, 1);
  EXPECT_EQ(o.threads[0][1].speed, 0.5);
  EXPECT_EQ(o.threads[0][1].work, 3.0);
  EXPECT_EQ(o.threads[0][1].held, 3.0);
  const auto& d = *read.context.measured->offload;
  EXPECT_EQ(d.how, "libomptarget");
  EXPECT_EQ(d.runtime_seconds, std::vector<double>{0.5});
  EXPECT_EQ(d.runtime_waited, std::vector<double>{0.125});
  EXPECT_EQ(d.runtime_calls, std::vector<double>{14});
  ASSERT_EQ(d.devices.size(), 1u);
  ASSERT_EQ(d.devices[0].size(), 1u);
  const auto& device = d.devices[0][0];
  EXPECT_EQ(device.number, 3);
  EXPECT_EQ(device.kernels, 8);
  EXPECT_EQ(device.kernel_seconds, 0.25);
  EXPECT_EQ(device.copies_to, 13);
  EXPECT_EQ(device.bytes_to, 4000064);
  EXPECT_EQ(device.copies_from, 17);
  EXPECT_EQ(device.bytes_from, 7200064);
  EXPECT_EQ(device.copy_seconds, 0.0625);
}

TEST(RunContext, AKernelRunRoundTrips) {
  KernelContext kernel;
  kernel.kernel = "ge";
  kernel.N = 600;
  kernel.W = 1.44e8;
  kernel.distribution = WorkDistribution{"fpm:ge.json", {300, 300}};
  kernel.marked_speed_Mflops = 20.0;
  kernel.check = KernelCheck{"residual", 1e-12, 1e-9, true};
  kernel.seed = 7;
  kernel.simulator = "SimGrid";
  kernel.simulated_hosts = {"a", "b"};
  const auto read = WrittenAndRead(OneRankRun(RunContext{std::nullopt, kernel, std::nullopt, ""}));
  ASSERT_TRUE(read.context.kernel);
  const auto& k = *read.context.kernel;
  EXPECT_EQ(k.kernel, "ge");
  EXPECT_EQ(k.N, 600u);
  EXPECT_EQ(k.W, 1.44e8);
  EXPECT_EQ(read.context.distribution().value().model_path(), "ge.json");
  EXPECT_EQ(read.context.distribution()->shares, (std::vector<double>{300, 300}));
  EXPECT_EQ(k.marked_speed_Mflops, 20.0);
  ASSERT_TRUE(k.check);
  EXPECT_EQ(k.check->quantity, "residual");
  EXPECT_TRUE(k.check->passed);
  EXPECT_EQ(k.seed, 7u);
  EXPECT_EQ(k.simulator, "SimGrid");
  EXPECT_EQ(k.simulated_hosts, (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(read.context.measured);
  EXPECT_FALSE(read.context.tool());
}

TEST(RunContext, AFarmRunRoundTrips) {
  FarmContext farm;
  farm.tool = "hetscale farm";
  farm.clients = 2;
  farm.policy = "adaptive+";
  farm.tasks = {{"rank-1", 3, 0, 0.0}, {"rank-2", 5, 1, 0.25}};
  farm.evaluations = 9;
  const auto read = WrittenAndRead(OneRankRun(RunContext{std::nullopt, std::nullopt, farm, ""}));
  ASSERT_TRUE(read.context.farm);
  EXPECT_EQ(read.context.tool(), "hetscale farm");
  EXPECT_EQ(read.context.farm->policy, "adaptive+");
  ASSERT_EQ(read.context.farm->tasks.size(), 2u);
  EXPECT_EQ(read.context.farm->tasks[1].lost_seconds, 0.25);
  EXPECT_FALSE(read.context.measured);
}

TEST(RunContext, ThePartIsToldByItsKeysAndTheRestIsKept) {
  const auto described = parse_run_context(R"({"program": "./lmp", "note": "by hand"})", "c.json");
  ASSERT_TRUE(described.measured);
  EXPECT_EQ(described.measured->program, "./lmp");
  EXPECT_FALSE(described.measured->tool);
  EXPECT_EQ(described.notes_json, R"({"note":"by hand"})");

  const auto kernel = parse_run_context(R"({"kernel": "mm", "N": "large", "host": "h"})", "c.json");
  ASSERT_TRUE(kernel.kernel);
  EXPECT_FALSE(kernel.kernel->N);  // of the wrong type: left out
  EXPECT_EQ(kernel.kernel->host, "h");
  EXPECT_FALSE(kernel.measured);

  const auto notes = parse_run_context(R"({"cluster": "x"})", "c.json");
  EXPECT_FALSE(notes.measured || notes.kernel || notes.farm);
  EXPECT_FALSE(notes.empty());
  EXPECT_TRUE(parse_run_context("{}", "c.json").empty());
  EXPECT_THROW(parse_run_context("[]", "c.json"), InputError);
}

}  // namespace
}  // namespace hetscale
