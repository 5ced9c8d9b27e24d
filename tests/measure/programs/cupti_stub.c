/* A stand-in for NVIDIA's libcupti.so, for testing hetscale's CUDA backend
 * on a machine without a GPU (as DLB's tests do): the activity API's five
 * functions the backend calls, and, when the backend flushes, one buffer of
 * activity records whose values are known, laid out as CUPTI lays its
 * records out (kernel, memcpy and API records: the fields' offsets of
 * cupti_activity.h). Per process, of the kinds enabled:
 *   device 0: 3 kernels of 10 ms; 2 copies host to device of 1,000,000
 *             bytes, 1 ms each; 1 copy device to host of 2,000,000 bytes,
 *             2 ms; 1 copy device to device of 500 bytes, 1 ms (not a
 *             transfer between host and device)
 *   device 1: 1 kernel of 20 ms
 *   runtime:  4 calls of 5 ms */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void (*request_buffer)(uint8_t** buffer, size_t* size, size_t* records);
typedef void (*buffer_done)(void* context, uint32_t stream, uint8_t* buffer, size_t size, size_t valid);

enum { kind_memcpy = 1, kind_kernel = 3, kind_runtime = 5, kind_concurrent_kernel = 10, kinds = 64 };
enum { record_size = 64, success = 0, max_limit_reached = 12 };

static request_buffer requested;
static buffer_done done;
static int enabled[kinds];

int cuptiActivityRegisterCallbacks(request_buffer request, buffer_done complete) {
  requested = request;
  done = complete;
  return success;
}

int cuptiActivityEnable(uint32_t kind) {
  if (kind < kinds) enabled[kind] = 1;
  return success;
}

static uint8_t* put32(uint8_t* record, size_t offset, uint32_t value) {
  memcpy(record + offset, &value, sizeof value);
  return record;
}
static uint8_t* put64(uint8_t* record, size_t offset, uint64_t value) {
  memcpy(record + offset, &value, sizeof value);
  return record;
}

static uint64_t clock_ns = 1000000000u; /* records' times: one after the other */

static size_t kernel(uint8_t* at, uint32_t device, uint64_t ns) {
  memset(at, 0, record_size);
  put32(at, 0, kind_concurrent_kernel);
  put64(at, 16, clock_ns);
  put64(at, 24, clock_ns += ns);
  put32(at, 40, device);
  return record_size;
}

static size_t copy(uint8_t* at, uint8_t copy_kind, uint64_t bytes, uint32_t device, uint64_t ns) {
  memset(at, 0, record_size);
  put32(at, 0, kind_memcpy);
  at[4] = copy_kind;
  put64(at, 8, bytes);
  put64(at, 16, clock_ns);
  put64(at, 24, clock_ns += ns);
  put32(at, 32, device);
  return record_size;
}

static size_t runtime(uint8_t* at, uint64_t ns) {
  memset(at, 0, record_size);
  put32(at, 0, kind_runtime);
  put64(at, 8, clock_ns);
  put64(at, 16, clock_ns += ns);
  return record_size;
}

int cuptiActivityFlushAll(uint32_t flag) {
  (void)flag;
  if (!requested || !done) return success;
  uint8_t* buffer = NULL;
  size_t size = 0, records = 0, valid = 0;
  requested(&buffer, &size, &records);
  if (!buffer || size < 16 * record_size) return success;
  const uint64_t ms = 1000000u;
  if (enabled[kind_concurrent_kernel] || enabled[kind_kernel]) {
    for (int k = 0; k < 3; ++k) valid += kernel(buffer + valid, 0, 10 * ms);
    valid += kernel(buffer + valid, 1, 20 * ms);
  }
  if (enabled[kind_memcpy]) {
    for (int k = 0; k < 2; ++k) valid += copy(buffer + valid, 1, 1000000u, 0, ms);
    valid += copy(buffer + valid, 2, 2000000u, 0, 2 * ms);
    valid += copy(buffer + valid, 8, 500u, 0, ms);
  }
  if (enabled[kind_runtime])
    for (int k = 0; k < 4; ++k) valid += runtime(buffer + valid, 5 * ms);
  done(NULL, 0, buffer, size, valid);
  requested = NULL; /* the records are given once */
  return success;
}

int cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid, void** record) {
  uint8_t* next = *record ? (uint8_t*)*record + record_size : buffer;
  if (next + record_size > buffer + valid) return max_limit_reached;
  *record = next;
  return success;
}
