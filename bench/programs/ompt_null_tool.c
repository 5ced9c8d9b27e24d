/* An OpenMP tool (OMPT) that stays attached and asks for no callback: with
 * it, LLVM's runtime runs its tool-enabled paths and calls nothing. What it
 * costs a program is what any tool costs before its callbacks, the floor
 * beside which bench/measure_overhead shows what hetscale's tool costs. */
#include <omp-tools.h>

static int initialize(ompt_function_lookup_t lookup, int initial_device, ompt_data_t* tool_data) {
  (void)lookup;
  (void)initial_device;
  (void)tool_data;
  return 1; /* the tool stays */
}

static void finalize(ompt_data_t* tool_data) { (void)tool_data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned omp_version, const char* runtime_version) {
  (void)omp_version;
  (void)runtime_version;
  static ompt_start_tool_result_t tool = {&initialize, &finalize, {0}};
  return &tool;
}
