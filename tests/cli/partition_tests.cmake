# Functional performance models: a split of N units by speed
# functions beside the constant-speed split, a model's points and speeds,
# and bad models and requests.
cli_golden(partition_small partition --model tests/cli/partition/model-small.json --units 1500)
cli_golden(partition_small_numerical_json partition --model tests/cli/partition/model-small.json --units 1500
           --algorithm numerical --json)
cli_golden(partition_small_extrapolate partition --model tests/cli/partition/model-small.json --units 5000
           --extrapolate)
# A rank's cores and its device as two nodes: the split, and either kind alone.
cli_golden(partition_device partition --model tests/cli/partition/model-device.json --units 4000 --algorithm numerical)
cli_golden(model_fpm_small model fpm tests/cli/partition/model-small.json --sizes 100:900:200)
cli_golden(model_fpm_small_json model fpm tests/cli/partition/model-small.json --sizes 300,450 --json)
# A kernel run's analysis names how its rows were shared.
cli_golden(analyze_kernel_fpm analyze tests/cli/report/kernel-ge-600-fpm.json)

cli_bad_input(fpm_no_points
  "^hetscale: tests/cli/bad_input/fpm-no-points.json: nodes\\[0\\].points: must not be empty"
  partition --model tests/cli/bad_input/fpm-no-points.json --units 10)
cli_bad_input(fpm_sizes_decrease
  "^hetscale: tests/cli/bad_input/fpm-sizes-decrease.json: nodes\\[0\\].points\\[1\\].size: sizes must increase, got 100 after 200\n$"
  partition --model tests/cli/bad_input/fpm-sizes-decrease.json --units 10)
cli_bad_input(fpm_zero_speed
  "^hetscale: tests/cli/bad_input/fpm-zero-speed.json: nodes\\[0\\].points\\[0\\].speed: must be > 0, got 0\n$"
  model fpm tests/cli/bad_input/fpm-zero-speed.json)
cli_bad_input(fpm_more_units_than_covered
  "^hetscale: --units: 251 units are more than the models cover \\(250: each node up to its last measured size\\); extrapolating past them would assume the last speeds hold \\(--extrapolate to take them so\\)\n$"
  partition --model tests/cli/bad_input/fpm-covers-250.json --units 251)
cli_bad_input(partition_unknown_algorithm
  "^hetscale: --algorithm: unknown algorithm 'greedy'; allowed: geometric, numerical, constant, exhaustive\n$"
  partition --model tests/cli/partition/model-small.json --units 10 --algorithm greedy)
cli_bad_input(partition_zero_units "^hetscale: --units: must be a whole number >= 1, got 0\n$"
  partition --model tests/cli/partition/model-small.json --units 0)
cli_bad_input(partition_exhaustive_too_large
  "^hetscale: --units: an exhaustive search of 5000 units on 3 nodes tries 1.25e\\+07 splits; at most 1e\\+07 are allowed\n$"
  partition --model tests/cli/partition/model-small.json --units 5000 --algorithm exhaustive --extrapolate)

# The models shipped in data/fpm (measured): geometric and numerical agree.
add_test(NAME cli.shipped_fpm_models
  COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/check_shipped_models.py $<TARGET_FILE:hetscale_cli> ${PROJECT_SOURCE_DIR}/data)
# analyze --model: a speed model of cores and devices for a run that offloaded nothing.
cli_bad_input(analyze_model_without_offload
  "^hetscale: examples/run-measured.json: context.offload: this run offloaded no work to a device: --model"
  analyze examples/run-measured.json --model tests/cli/partition/model-device.json)
