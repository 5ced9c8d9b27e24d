# The simulator (SimGrid): the farm on simulated platforms, deterministic, so
# every output is a golden; the platform as SimGrid XML; bad input.
cli_golden(simulate_farm_seed000_even simulate farm --platform data/platforms/seed000-hetero33.json --policy even
           --tasks-per-generation 128 --generations 10 --eval-time 4)
cli_golden(simulate_farm_seed000_adaptive simulate farm --platform data/platforms/seed000-hetero33.json
           --policy adaptive --tasks-per-generation 128 --generations 10 --eval-time 4)
cli_golden(simulate_farm_seed000_adaptive_plus simulate farm --platform data/platforms/seed000-hetero33.json
           --policy adaptive+ --tasks-per-generation 128 --generations 10 --eval-time 4)
cli_golden(simulate_farm_small_proportional_json simulate farm --platform tests/cli/simulate/platform-small.json
           --policy proportional --tasks-per-generation 12 --generations 3 --eval-time 2 --json)
cli_golden(simulate_farm_small_adaptive_plus_json simulate farm --platform tests/cli/simulate/platform-small.json
           --policy adaptive+ --tasks-per-generation 12 --generations 3 --eval-time 2 --clients 3 --json)
# A job log replayed: each task's time on its client x the client's
# speed, on another platform; a task that never ended is left out.
cli_golden(simulate_farm_replay_small simulate farm --platform tests/cli/simulate/platform-small.json
           --tasks-from tests/cli/simulate/task-log-small.jsonl)
cli_golden(simulate_farm_replay_small_adaptive_json simulate farm --platform tests/cli/simulate/platform-small.json
           --tasks-from tests/cli/simulate/task-log-small.jsonl --policy adaptive --json)
cli_golden(simulate_platform_small_xml simulate platform tests/cli/simulate/platform-small.json)
cli_golden(simulate_platform_small_json simulate platform tests/cli/simulate/platform-small.json --json)
# A simulated record reads like a measured one.
cli_golden(analyze_simulated_seed000 analyze examples/run-simulated-seed000.json
           --platform data/platforms/seed000-hetero33.json)

cli_bad_input(simulate_replay_with_generations
  "^hetscale: --generations: is for the generations of equal tasks; --tasks-from replays a job log's own tasks\n$"
  simulate farm --platform tests/cli/simulate/platform-small.json --tasks-from tests/cli/simulate/task-log-small.jsonl
  --generations 3)
cli_bad_input(simulate_replay_not_a_log
  "^hetscale: tests/cli/simulate/platform-small.json: line 1: is not JSON"
  simulate farm --platform tests/cli/simulate/platform-small.json --tasks-from tests/cli/simulate/platform-small.json)


cli_bad_input(simulate_zero_speed_host
  "^hetscale: tests/cli/bad_input/simulate-zero-speed.json: nodes\\[1\\].speed: must be > 0, got 0\n$"
  simulate farm --platform tests/cli/bad_input/simulate-zero-speed.json)
cli_bad_input(simulate_zero_availability
  "^hetscale: tests/cli/bad_input/simulate-zero-availability.json: nodes\\[1\\].availability\\[1\\]: fraction 0 must be in \\(0, 1\\]"
  simulate farm --platform tests/cli/bad_input/simulate-zero-availability.json)
cli_bad_input(simulate_latency_does_not_parse
  "^hetscale: tests/cli/bad_input/simulate-latency.json: network.latency_s: latency '5 parsecs' does not parse; allowed: a number >= 0 with a unit \\(s, ms, us, ns\\)\n$"
  simulate farm --platform tests/cli/bad_input/simulate-latency.json)
cli_bad_input(simulate_more_clients_than_hosts
  "^hetscale: --clients: 40 clients need 41 nodes, but data/platforms/seed000-hetero33.json has 33 \\(the first node hosts the server\\)\n$"
  simulate farm --platform data/platforms/seed000-hetero33.json --clients 40)
cli_bad_input(simulate_one_node
  "^hetscale: tests/cli/bad_input/simulate-one-node.json: nodes: has 1 node; the farm needs a server node and at least one client node\n$"
  simulate farm --platform tests/cli/bad_input/simulate-one-node.json)
cli_bad_input(simulate_marked_without_reference
  "^hetscale: tests/cli/bad_input/simulate-marked-no-reference.json: reference: marked speeds need a reference"
  simulate farm --platform tests/cli/bad_input/simulate-marked-no-reference.json)
cli_bad_input(simulate_unknown_policy "^hetscale: --policy: unknown policy 'greedy'; allowed: even, proportional, adaptive, adaptive\\+\n$"
  simulate farm --platform data/platforms/seed000-hetero33.json --policy greedy)
cli_bad_input(simulate_zero_tasks "^hetscale: --tasks-per-generation: must be >= 1, got 0\n$"
  simulate farm --platform data/platforms/seed000-hetero33.json --tasks-per-generation 0)
cli_bad_input(simulate_negative_eval_time "^hetscale: --eval-time: must be a number > 0, got -1\n$"
  simulate farm --platform data/platforms/seed000-hetero33.json --eval-time -1)
cli_bad_input(simulate_negative_send_overhead "^hetscale: --send-overhead: must be a number >= 0, got -1e-06\n$"
  simulate farm --platform data/platforms/seed000-hetero33.json --send-overhead -1e-6)
cli_bad_input(simulate_missing_platform "^hetscale: no-such-platform.json: cannot be opened: No such file or directory\n$"
  simulate farm --platform no-such-platform.json)
cli_bad_input(simulate_platform_missing "^hetscale: tests/cli/bad_input/simulate-latency.json: network.latency_s: latency '5 parsecs' does not parse"
  simulate platform tests/cli/bad_input/simulate-latency.json)

# The event simulation (--engine events): the same farm without SimGrid; its
# own goldens (on 100 Mbit/s links it differs from SimGrid's by microseconds:
# messages that share a link, tests/sim/event_farm_test.cpp).
cli_golden(simulate_farm_seed000_adaptive_events simulate farm --platform data/platforms/seed000-hetero33.json
           --policy adaptive --tasks-per-generation 128 --generations 10 --eval-time 4 --engine events)
cli_golden(simulate_farm_replay_small_events simulate farm --platform tests/cli/simulate/platform-small.json
           --tasks-from tests/cli/simulate/task-log-small.jsonl --clients 3 --engine events)
cli_bad_input(simulate_unknown_engine "^hetscale: --engine: must be simgrid or events, got 'fast'\n$"
  simulate farm --platform data/platforms/seed000-hetero33.json --engine fast)
cli_bad_input(simulate_events_with_availability
  "^hetscale: tests/cli/simulate/platform-small.json: node slow: availability: the event simulation runs nodes at their full speed; a node of varying availability needs the engine simgrid\n$"
  simulate farm --platform tests/cli/simulate/platform-small.json --engine events)

# A run's time-independent trace replayed by SimGrid: 1e9 flops on a node of
# 0.5 Gflop/s take 2 s, the 1 MB send waits for its receive; deterministic.
cli_golden(simulate_replay_two_speeds simulate replay examples/trace-two-ranks
           --platform examples/platform-two-speeds.json)
cli_golden(simulate_replay_two_speeds_json simulate replay examples/trace-two-ranks
           --platform examples/platform-two-speeds.json --json)
# What if: the even split replayed 2:1 (assuming work proportional to share),
# on the platform and on two others side by side; two copies side by side.
cli_golden(simulate_replay_what_if simulate replay examples/trace-two-ranks
           --platform examples/platform-two-speeds.json --shares 2,1 --what-if speeds=1,1 speeds=0.5,0.5)
cli_golden(simulate_replay_repeat simulate replay examples/trace-two-ranks
           --platform examples/platform-two-speeds.json --repeat 2 --hosts fast,slow,fast,slow)
# The split the trace ran with given: a trace whose work shares are not that
# split (an even trace said to have run 3:1) is rescaled from the split, and
# the output says the ranks computed at other rates than their speeds.
cli_golden(simulate_replay_traced_split simulate replay examples/trace-two-ranks
           --platform examples/platform-two-speeds.json --shares 2,1 --traced-shares 3,1)
cli_bad_input(simulate_replay_traced_shares_alone
  "^hetscale: --traced-shares: is the split the trace ran with, for --shares: give the shares asked too\n$"
  simulate replay examples/trace-two-ranks --platform examples/platform-two-speeds.json --traced-shares 1,1)
cli_bad_input(simulate_replay_traced_shares_count
  "^hetscale: --traced-shares: gives 1 shares for a trace of 2 ranks: one per rank\n$"
  simulate replay examples/trace-two-ranks --platform examples/platform-two-speeds.json --shares 2,1 --traced-shares 1)
cli_bad_input(simulate_replay_shares_count
  "^hetscale: --shares: gives 3 shares for a trace of 2 ranks: one per rank\n$"
  simulate replay examples/trace-two-ranks --platform examples/platform-two-speeds.json --shares 1,2,3)
cli_bad_input(simulate_replay_what_if_item
  "^hetscale: --what-if: speed=1: is not speeds=V1,V2,... or platform=FILE\n$"
  simulate replay examples/trace-two-ranks --platform examples/platform-two-speeds.json --what-if speed=1)
cli_bad_input(trace_manifest_to_analyze
  "^hetscale: tests/sim/replay/missing-rank/manifest.json: schema: this is a trace's manifest \\(`hetscale measure --trace`\\) \\(hetscale.trace/1\\), not a run record: give its folder to `hetscale simulate replay`\n$"
  analyze tests/sim/replay/missing-rank/manifest.json)
cli_bad_input(simulate_replay_no_rank_0
  "^hetscale: tests/sim/replay/no-rank-0: has no rank-0.trace \\(it has rank-1.trace\\)\n$"
  simulate replay tests/sim/replay/no-rank-0 --platform examples/platform-two-speeds.json)
cli_bad_input(simulate_replay_cut_short
  "^hetscale: tests/sim/replay/cut-short/rank-1.trace: line 2: is cut short \\(no new line\\)\n$"
  simulate replay tests/sim/replay/cut-short --platform examples/platform-two-speeds.json)
cli_bad_input(simulate_replay_fewer_hosts
  "^hetscale: --platform: has 1 node for a trace of 2 ranks: give --hosts to place several ranks on a node\n$"
  simulate replay examples/trace-two-ranks --platform examples/platform-this-machine.json)
cli_bad_input(simulate_replay_missing_rank
  "^hetscale: tests/sim/replay/missing-rank/manifest.json: files\\[1\\]: names tests/sim/replay/missing-rank/rank-1.trace.gz, which is not there \\(the trace of rank 1 is missing\\)\n$"
  simulate replay tests/sim/replay/missing-rank --platform examples/platform-two-speeds.json)
cli_bad_input(simulate_replay_corrupt_gzip
  "^hetscale: tests/sim/replay/corrupt-gzip/rank-1.trace.gz: is cut short"
  simulate replay tests/sim/replay/corrupt-gzip --platform examples/platform-two-speeds.json)
cli_bad_input(simulate_replay_hosts_no_host
  "^hetscale: --hosts: item 2: names no host of the platform: 'nowhere'\n$"
  simulate replay examples/trace-two-ranks --platform examples/platform-two-speeds.json --hosts fast,nowhere)
cli_bad_input(simulate_replay_not_a_folder
  "^hetscale: examples/platform-two-speeds.json: is not a trace folder"
  simulate replay examples/platform-two-speeds.json --platform examples/platform-two-speeds.json)
