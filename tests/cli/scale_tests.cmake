# hetscale scale psi | predict | fit (Chen et al. 2008, Sections 4.4-4.5) on the
# paper's own tables shipped in data/papers/seed001/: golden outputs, and one
# test per kind of bad input. Included after cli_tests.cmake (its functions).
set(SEED001 data/papers/seed001)

# psi: Tables 6, 9 and 11 from Tables 5, 8 and 10.
cli_golden(scale_psi_ge scale psi --kernel ge --configs ${SEED001}/table5.csv)
cli_golden(scale_psi_mm scale psi --kernel mm --configs ${SEED001}/table8.csv)
cli_golden(scale_psi_conv scale psi --kernel conv --configs ${SEED001}/table10.csv)
cli_golden(scale_psi_ge_json scale psi --kernel ge --configs ${SEED001}/table5.csv --json)

# predict: Table 12 (N' within 5 %) from the Section 4.5 parameters, base C2.
cli_golden(scale_predict_ge scale predict --profile data/papers/seed001-section45.json
           --configs ${SEED001}/table5.csv --kernel ge)
cli_golden(scale_predict_ge_json scale predict --profile data/papers/seed001-section45.json
           --configs ${SEED001}/table5.csv --kernel ge --json)
cli_golden(scale_predict_ge_base_c8 scale predict --profile data/papers/seed001-section45.json
           --configs ${SEED001}/table5.csv --kernel ge --base C8)

# fit: the trend lines of Tables 3 and 4 and the N for E_s = 0.3 (the paper read 310 and 480).
cli_golden(scale_fit_table3 scale fit --sweep ${SEED001}/table3.csv --kernel ge
           --marked-speed 20.88,20.88,20.29 --configuration C2)
cli_golden(scale_fit_table4 scale fit --sweep ${SEED001}/table4.csv --kernel ge
           --marked-speed 20.88,20.88,20.29,20.29,20.29 --configuration C4)
cli_golden(scale_fit_table3_degree3_json scale fit --sweep ${SEED001}/table3.csv --kernel ge --marked-speed 62.05
           --configuration C2 --degree 3 --json)

# A verifying run judged against its target: within 10 %, and missed.
cli_golden(scale_fit_verified scale fit --sweep tests/cli/scale/sweep-ge-c2-verified.json --target 0.3)
cli_golden(scale_fit_missed scale fit --sweep tests/cli/scale/sweep-ge-c2-missed.json --target 0.3)
# A sweep whose target was refined by runs (scale sweep --refine) keeps its
# verifying runs, and its verified N is the nearest's, 215, not the trend line's 239.
cli_golden(scale_fit_refined_json scale fit --sweep tests/cli/scale/sweep-ge-t3-refined.json --target 0.35 --json)

# A program of the user's: named as the user named it, W(N) given as
# an expression or taken from the W column, no "check passed" where no check
# ran. With GE's W(N) and overhead written out, the numbers are the kernel's
# own (scale_fit_table3, scale_psi_ge, scale_predict_ge): N = 288 and 457,
# N' = 505, 895, 1674, 3233. The sweeps in tests/cli/scale/my-solver-c*.json
# were written by the first two commands with --out.
set(GE_WORKLOAD "2/3*N^3 - 1/2*N^2 - 19/6*N + 3")
set(GE_OVERHEAD "bcast(p) + 2*(p-1)*(send(N)+recv(N)) + N*(2*bcast(p)+barrier(p))")
cli_golden(scale_fit_program scale fit --sweep ${SEED001}/table3.csv --program my-solver --workload ${GE_WORKLOAD}
           --marked-speed 20.88,20.88,20.29 --configuration C2 --json)
cli_golden(scale_fit_program_c4 scale fit --sweep ${SEED001}/table4.csv --program my-solver --workload ${GE_WORKLOAD}
           --marked-speed 20.88,20.88,20.29,20.29,20.29 --configuration C4)
cli_golden(scale_fit_program_measured_w scale fit --sweep ${SEED001}/table3.csv --program my-solver --marked-speed 62.05)
cli_golden(scale_psi_program scale psi tests/cli/scale/my-solver-c2.json tests/cli/scale/my-solver-c4.json)
cli_golden(scale_psi_program_configs scale psi --configs ${SEED001}/table5.csv --program my-solver
           --workload ${GE_WORKLOAD})
cli_golden(scale_predict_program_configs scale predict --profile data/papers/seed001-section45.json
           --configs ${SEED001}/table5.csv --program my-solver --workload ${GE_WORKLOAD} --overhead ${GE_OVERHEAD})
cli_golden(scale_predict_program_sweeps_json scale predict --profile data/papers/seed001-section45.json
           tests/cli/scale/my-solver-c2.json tests/cli/scale/my-solver-c4.json --overhead ${GE_OVERHEAD} --json)
cli_bad_input(scale_fit_program_no_w_column
  "^hetscale: tests/cli/scale/table3-without-w.csv: line 2: header is 'N,T_ms': my-solver has no workload W\\(N\\) given, so W must come from a column W \\(allowed: N, W, T_ms, T_s, speed, E_s\\)\n$"
  scale fit --sweep tests/cli/scale/table3-without-w.csv --program my-solver --marked-speed 62.05)
cli_bad_input(scale_psi_program_bad_workload
  "^hetscale: --workload: \"2.M\" is not an expression in N: at 3: unknown name 'M'; allowed: N\n$"
  scale psi --configs ${SEED001}/table5.csv --program my-solver --workload 2*M)
cli_bad_input(scale_predict_program_without_overhead
  "^hetscale: --overhead: is required to predict my-solver: T_o as an expression in N and p"
  scale predict --profile data/papers/seed001-section45.json tests/cli/scale/my-solver-c2.json
  tests/cli/scale/my-solver-c4.json)
cli_bad_input(scale_predict_kernel_with_overhead
  "^hetscale: --overhead: is for a program of yours; ge has its own overhead model\n$"
  scale predict --profile data/papers/seed001-section45.json --configs ${SEED001}/table5.csv --kernel ge
  --overhead p)

# fit serial with a negative fitted serial time: what it means and the two ways on.
cli_bad_input(fit_serial_negative_a
  "^hetscale: tests/cli/scale/timings-superlinear.csv: procs = 1 rows: the fitted serial time a = -0.5 s is negative: .* take the serial time through-origin .* or measured .*\n$"
  fit serial --timings tests/cli/scale/timings-superlinear.csv)
cli_golden(fit_serial_through_origin fit serial --timings tests/cli/scale/timings-superlinear.csv
           --serial-time through-origin)
cli_golden(fit_serial_measured_json fit serial --timings tests/cli/scale/timings-superlinear.csv
           --serial-time measured --json)


# Bad input.
set(BAD tests/cli/bad_input)
cli_bad_input(scale_configs_without_marked_speed
  "^hetscale: ${BAD}/scale-configs-no-marked-speed.csv: line 1: header is 'name,N': the column marked_speed is missing \\(each configuration's marked speed C in Mflop/s, Chen et al. 2008 Definition 1\\); expected 'name,marked_speed,N' or 'name,marked_speed,N,processes'\n$"
  scale psi --kernel ge --configs ${BAD}/scale-configs-no-marked-speed.csv)
cli_bad_input(scale_configs_marked_speed_not_a_number
  "^hetscale: ${BAD}/scale-configs-marked-speed-text.csv: line 3: marked_speed must be a number > 0 \\(Mflop/s\\), got 'fast'\n$"
  scale psi --kernel ge --configs ${BAD}/scale-configs-marked-speed-text.csv)
cli_bad_input(scale_fit_target_above_one "^hetscale: --target: must be in \\(0, 1\\], got 1.5\n$"
  scale fit --sweep ${SEED001}/table3.csv --kernel ge --marked-speed 62.05 --target 1.5)
cli_bad_input(scale_fit_target_zero "^hetscale: --target: must be in \\(0, 1\\], got 0\n$"
  scale fit --sweep ${SEED001}/table3.csv --kernel ge --marked-speed 62.05 --target 0)
cli_bad_input(scale_fit_too_few_points
  "^hetscale: ${BAD}/scale-sweep-three-points.csv: points: the speed-efficiency trend needs at least 4 sizes for a degree-2 trend line, got 3\n$"
  scale fit --sweep ${BAD}/scale-sweep-three-points.csv --kernel ge --marked-speed 62.05)
cli_bad_input(scale_fit_degree_too_high_for_table3
  "^hetscale: ${SEED001}/table3.csv: points: the speed-efficiency trend needs at least 6 sizes for a degree-4 trend line, got 5\n$"
  scale fit --sweep ${SEED001}/table3.csv --kernel ge --marked-speed 62.05 --degree 4)
cli_bad_input(scale_fit_marked_speed_not_a_number "^hetscale: --marked-speed: item 1: 'fast' is not a"
  scale fit --sweep ${SEED001}/table3.csv --kernel ge --marked-speed fast)
cli_bad_input(scale_fit_csv_without_marked_speed "^hetscale: --marked-speed: is required for the CSV sweep"
  scale fit --sweep ${SEED001}/table3.csv --kernel ge)
cli_bad_input(scale_fit_wrong_kernel_for_w
  "^hetscale: ${SEED001}/table3.csv: line 6: W = 661353 is not W\\(N\\) = 2000000 of kernel mm at N = 100"
  scale fit --sweep ${SEED001}/table3.csv --kernel mm --marked-speed 62.05)
cli_bad_input(scale_psi_unknown_kernel
  "^hetscale: --kernel: unknown kernel 'fft'; kernels with a workload W\\(N\\): ge, mm, conv\n$"
  scale psi --kernel fft --configs ${SEED001}/table5.csv)
cli_bad_input(scale_psi_configs_without_kernel
  "^hetscale: --kernel: give one of --kernel \\(ge, mm or conv\\) and --program NAME --workload EXPR with --configs\n$"
  scale psi --configs ${SEED001}/table5.csv)
cli_bad_input(scale_psi_sweep_without_target
  "^hetscale: ${BAD}/scale-sweep-no-target.json: target.N: missing: the sweep has no target N"
  scale psi ${BAD}/scale-sweep-no-target.json ${BAD}/scale-sweep-no-target.json)
cli_bad_input(scale_sweep_marked_speed_not_the_sum
  "^hetscale: ${BAD}/scale-sweep-marked-speed-sum.json: marked_speed: is 60 but the marked_speeds sum to 62.05 \\(Mflop/s\\); C must be their sum\n$"
  scale fit --sweep ${BAD}/scale-sweep-marked-speed-sum.json)
cli_bad_input(scale_predict_kernel_without_model
  "^hetscale: --kernel: prediction needs an overhead model T_o; hetscale has one for ge \\(Chen et al. 2008 Section 4.5\\) and mm, not for conv\n$"
  scale predict --profile data/papers/seed001-section45.json --configs ${SEED001}/table10.csv --kernel conv)
cli_bad_input(scale_predict_unknown_base
  "^hetscale: --base: no configuration named 'C64'; the configurations are C2, C4, C8, C16, C32\n$"
  scale predict --profile data/papers/seed001-section45.json --configs ${SEED001}/table5.csv --kernel ge --base C64)
cli_bad_input(scale_predict_configs_without_processes
  "^hetscale: ${BAD}/scale-configs-no-processes.csv: C2: prediction needs the process count p of every configuration \\(the column processes\\)\n$"
  scale predict --profile data/papers/seed001-section45.json --configs ${BAD}/scale-configs-no-processes.csv --kernel ge)

# ge's steps measured on each configuration (bench steps) give T_o, the base
# sweep r of T_c: measured sweeps and step costs of one run of
# bench/isospeed_experiment (tests/cli/scale/emulated, 2026-11-26: C2, C4 and
# C8 of emulated nodes on a 2-core machine).
set(emulated tests/cli/scale/emulated)
cli_golden(scale_predict_step_costs scale predict ${emulated}/sweep-ge-C2.json ${emulated}/sweep-ge-C4.json
           ${emulated}/sweep-ge-C8.json
           --step-costs ${emulated}/steps-C2.json,${emulated}/steps-C4.json,${emulated}/steps-C8.json)
# mm's products measured on each configuration (bench steps --kernel mm
# --fastest-of 3): T_o and T_c at N from them, r on the base. One run of
# bench/isospeed_experiment (2026-11-26).
cli_golden(scale_predict_step_costs_mm scale predict ${emulated}/sweep-mm-C2.json ${emulated}/sweep-mm-C4.json
           ${emulated}/sweep-mm-C8.json
           --step-costs ${emulated}/steps-mm-C2.json,${emulated}/steps-mm-C4.json,${emulated}/steps-mm-C8.json)
cli_golden(scale_predict_step_costs_mm_json scale predict ${emulated}/sweep-mm-C2.json ${emulated}/sweep-mm-C4.json
           ${emulated}/sweep-mm-C8.json
           --step-costs ${emulated}/steps-mm-C2.json,${emulated}/steps-mm-C4.json,${emulated}/steps-mm-C8.json --json)
cli_bad_input(scale_predict_step_costs_other_kernel
  "^hetscale: tests/cli/scale/emulated/steps-C4.json: kernel: is ge but the sweeps are mm's: measure the steps with bench steps --kernel mm\n$"
  scale predict ${emulated}/sweep-mm-C2.json ${emulated}/sweep-mm-C4.json
  --step-costs ${emulated}/steps-mm-C2.json,${emulated}/steps-C4.json)
cli_bad_input(scale_predict_step_costs_one_order
  "^hetscale: tests/cli/bad_input/steps-mm-one-order.json: costs: has 1 measured size; mm's step needs two or more to follow N\n$"
  scale predict ${emulated}/sweep-mm-C2.json ${emulated}/sweep-mm-C4.json
  --step-costs ${emulated}/steps-mm-C2.json,tests/cli/bad_input/steps-mm-one-order.json)
cli_bad_input(step_costs_unknown_kernel
  "^hetscale: tests/cli/bad_input/steps-unknown-kernel.json: kernel: must be ge or mm, got 'lu'\n$"
  scale predict ${emulated}/sweep-ge-C2.json ${emulated}/sweep-ge-C4.json
  --step-costs ${emulated}/steps-C2.json,tests/cli/bad_input/steps-unknown-kernel.json)
# A base whose verified run missed its target (one run of the experiment:
# C2's N = 126 at E_s 1.816 for 1) gives nothing to predict from, by either path.
cli_bad_input(scale_predict_missed_base_step_costs
  "^hetscale: tests/cli/bad_input/sweep-mm-missed-base.json: target.verified: E_s 1.816 at N = 126 missed the target 1 by more than 10 %: the base's N does not hold its target, so there is nothing to predict from \\(sweep it again\\)\n$"
  scale predict tests/cli/bad_input/sweep-mm-missed-base.json ${emulated}/sweep-mm-C4.json
  --step-costs ${emulated}/steps-mm-C2.json,${emulated}/steps-mm-C4.json)
cli_bad_input(scale_predict_missed_base_profile
  "^hetscale: tests/cli/bad_input/sweep-mm-missed-base.json: target.verified: E_s 1.816 at N = 126 missed the target 1 by more than 10 %"
  scale predict --profile data/papers/seed001-section45.json tests/cli/bad_input/sweep-mm-missed-base.json
  ${emulated}/sweep-mm-C4.json)
cli_bad_input(scale_predict_step_costs_and_profile
  "^hetscale: --profile: and --step-costs are two ways to T_o; give one\n$"
  scale predict ${emulated}/sweep-ge-C2.json ${emulated}/sweep-ge-C4.json --profile data/papers/seed001-section45.json
  --step-costs ${emulated}/steps-C2.json,${emulated}/steps-C4.json)
cli_bad_input(scale_predict_step_costs_count
  "^hetscale: --step-costs: gives 1 files for 2 sweeps: give one per sweep, in the same order\n$"
  scale predict ${emulated}/sweep-ge-C2.json ${emulated}/sweep-ge-C4.json --step-costs ${emulated}/steps-C2.json)
cli_bad_input(scale_predict_step_costs_ranks
  "^hetscale: tests/cli/scale/emulated/steps-C8.json: ranks: is 8 but tests/cli/scale/emulated/sweep-ge-C4.json ran on 4 processes: measure the steps on the same configuration\n$"
  scale predict ${emulated}/sweep-ge-C2.json ${emulated}/sweep-ge-C4.json
  --step-costs ${emulated}/steps-C2.json,${emulated}/steps-C8.json)
cli_bad_input(scale_predict_no_profile
  "^hetscale: --profile: is required: the communication costs of T_o \\(bench comm\\), or the kernel's steps --step-costs\n$"
  scale predict ${emulated}/sweep-ge-C2.json ${emulated}/sweep-ge-C4.json)
cli_bad_input(step_costs_lengths_decrease
  "^hetscale: tests/cli/bad_input/steps-lengths-decrease.json: costs\\[1\\].length: lengths must increase, got 50 after 100\n$"
  scale predict ${emulated}/sweep-ge-C2.json ${emulated}/sweep-ge-C4.json
  --step-costs ${emulated}/steps-C2.json,tests/cli/bad_input/steps-lengths-decrease.json)

# Options that do not go together (commands.list's refuse lines), said before
# anything is read: the first refused option given, a value given in the words.
cli_bad_input(scale_psi_configs_and_sweeps
  "^hetscale: --configs: give a configurations file or sweep files, not both\n$"
  scale psi --kernel ge --configs ${SEED001}/table5.csv tests/cli/scale/sweep-ge-c2-verified.json)
cli_bad_input(scale_psi_kernel_and_workload
  "^hetscale: --workload: goes with --program; kernel ge has its own W\\(N\\)\n$"
  scale psi --kernel ge --workload 2*N^3 --configs ${SEED001}/table5.csv)
cli_bad_input(scale_predict_program_with_sweeps
  "^hetscale: --program: applies to --configs only; sweeps carry their program and workload\n$"
  scale predict --program mine tests/cli/scale/sweep-ge-c2-verified.json tests/cli/scale/sweep-ge-t3-refined.json)
