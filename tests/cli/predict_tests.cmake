# hetscale predict: Extra-P's test input gives Extra-P's model (--extra-p),
# simulated farm runs give their parts' models and the efficiencies at a
# larger scale, and bad input gets one line and exit code 2.
set(P tests/cli/predict)
set(EXTRA_P tests/empirical/data/extra-p)
cli_golden(predict_extra_p_one_parameter_1 predict ${EXTRA_P}/one_parameter_1.txt --at 100 --extra-p)
cli_golden(predict_extra_p_json_lines_json predict ${EXTRA_P}/json_test_input.jsonl --at 80 --extra-p --json)
cli_golden(predict_extra_p_one_parameter_6 predict ${EXTRA_P}/one_parameter_6.txt --at 32000)
cli_golden(predict_farm_over_p predict ${P}/farm-c2.json ${P}/farm-c3.json ${P}/farm-c4.json ${P}/farm-c6.json
  ${P}/farm-c8.json --at 32)
cli_golden(predict_farm_over_c_json predict ${P}/farm-c2.json ${P}/farm-c3.json ${P}/farm-c4.json ${P}/farm-c6.json
  ${P}/farm-c8.json --at 16.335226 --variable C --json)
cli_golden(predict_farm_interpolation predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/farm-c8.json --at 5)

# What is written for Extra-P reads back as the same measurements.
add_test(NAME cli.predict_extra_p_out_reads_back
  COMMAND ${CMAKE_COMMAND} -DHETSCALE=$<TARGET_FILE:hetscale_cli> -DWORKDIR=${PROJECT_SOURCE_DIR}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/predict-farm.jsonl -DP=${P}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_predict_extra_p_out.cmake)

cli_bad_input(predict_two_scales
  "^hetscale: ${P}/farm-c2.json \\+ ${P}/farm-c4.json: has 2 distinct scale\\(s\\) \\(p = 2, 4\\); a prediction needs runs at 3 or more\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json --at 16)
cli_bad_input(predict_mixed_programs
  "^hetscale: ${P}/not-a-farm.json: context: is a run of kernel ge at N = 100, ${P}/farm-c2.json is of the farm \\(policy adaptive\\): predict from runs of one program\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/not-a-farm.json --at 16)
cli_bad_input(predict_at_zero "^hetscale: --at: 0: a scale is a finite number > 0\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/farm-c8.json --at 0)
cli_bad_input(predict_at_negative "^hetscale: --at: -8: a scale is a finite number > 0\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/farm-c8.json --at -8)
cli_bad_input(predict_values_count "^hetscale: --values: 2 values for 3 runs: give one scale per run, in order\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/farm-c8.json --at 16 --values 1,2)
cli_bad_input(predict_value_zero "^hetscale: --values: item 2: must be > 0, got 0\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/farm-c8.json --at 16 --values 1,0,3)
cli_bad_input(predict_no_size "^hetscale: ${P}/farm-c2.json: context: says no problem size N \\(a kernel's\\); give each run's N as values\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/farm-c8.json --at 16 --variable N)
cli_bad_input(predict_unknown_variable "^hetscale: --variable: 'q': one of p \\(processes\\), C \\(sum of marked speeds\\), N \\(problem size\\)\n$"
  predict ${P}/farm-c2.json ${P}/farm-c4.json ${P}/farm-c8.json --at 16 --variable q)
cli_bad_input(predict_extra_p_bad_data "^hetscale: ${EXTRA_P}/experiment_neg.txt: line 1: POINTS before PARAMETER\n$"
  predict ${EXTRA_P}/experiment_neg.txt --at 16)
cli_bad_input(predict_mixed_kinds "^hetscale: ${EXTRA_P}/one_parameter_1.txt: is not the kind of input ${P}/farm-c2.json is: give run records, sweeps or one Extra-P file\n$"
  predict ${P}/farm-c2.json ${EXTRA_P}/one_parameter_1.txt --at 16)
cli_bad_input(predict_unknown_measure "^hetscale: --measure: 'mode': one of mean, median, minimum, maximum\n$"
  predict ${EXTRA_P}/one_parameter_1.txt --at 16 --measure mode)
cli_bad_input(predict_three_terms "^hetscale: --terms: '3': 1 or 2 terms beside the constant\n$"
  predict ${EXTRA_P}/one_parameter_1.txt --at 16 --terms 3)
# Two terms on request: the farm's parts with up to two, t_par their sum.
cli_golden(predict_farm_two_terms predict ${P}/farm-c2.json ${P}/farm-c3.json ${P}/farm-c4.json ${P}/farm-c6.json
  ${P}/farm-c8.json --at 16.335226 --variable C --terms 2)
