# The fuzz targets and the folders that seed each (examples/ and data/ hold
# every format's shipped examples; the CLI tests hold bad inputs; each
# target's regressions/ holds the inputs its findings were fixed with).
set(HETSCALE_FUZZERS platform run_record sweep comm_profile timings program optimize_record options
  scaling_measurements)
set(fuzz_root ${PROJECT_SOURCE_DIR})
set(HETSCALE_FUZZ_SEEDS_platform ${fuzz_root}/examples ${fuzz_root}/data/platforms ${fuzz_root}/tests/cli/simulate)
set(HETSCALE_FUZZ_SEEDS_run_record ${fuzz_root}/examples)
set(HETSCALE_FUZZ_SEEDS_sweep ${fuzz_root}/tests/cli/scale ${fuzz_root}/data/papers)
set(HETSCALE_FUZZ_SEEDS_comm_profile ${fuzz_root}/data/machines ${fuzz_root}/data/papers)
set(HETSCALE_FUZZ_SEEDS_timings ${fuzz_root}/examples ${fuzz_root}/tests/cli/scale)
set(HETSCALE_FUZZ_SEEDS_program ${fuzz_root}/examples/programs)
set(HETSCALE_FUZZ_SEEDS_optimize_record ${fuzz_root}/tests/cli/golden)
set(HETSCALE_FUZZ_SEEDS_scaling_measurements ${fuzz_root}/tests/empirical/data/extra-p)
set(HETSCALE_FUZZ_SEEDS_options ${fuzz_root}/tests/fuzz/seeds/options ${fuzz_root}/examples)
foreach(name ${HETSCALE_FUZZERS})
  list(APPEND HETSCALE_FUZZ_SEEDS_${name} ${fuzz_root}/tests/cli/bad_input ${fuzz_root}/tests/fuzz/regressions/${name})
endforeach()
