// CUPTI's activity records counted (cupti_activity.hpp). The records are
// read by the offsets of the fields used, which CUPTI has kept since CUDA 9
// in every version of its kernel, copy and API records (cupti_activity.h:
// CUpti_ActivityKernel4 .. 9, CUpti_ActivityMemcpy3 .. 6, CUpti_ActivityAPI):
//   kernel:  kind u32 @0, start u64 @16, end u64 @24, deviceId u32 @40
//   memcpy:  kind u32 @0, copyKind u8 @4, bytes u64 @8, start u64 @16, end u64 @24, deviceId u32 @32
//   runtime: kind u32 @0, start u64 @8, end u64 @16
// (times in ns). Only these enter hetscale; nothing here needs CUDA's headers.
#include "cupti_activity.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "device_activity.hpp"
#include "offload_devices.hpp"

namespace hetscale::offload {
namespace {

// CUPTI's activity kinds and copy kinds used here (cupti_activity.h).
enum : std::uint32_t { kind_memcpy = 1, kind_kernel = 3, kind_runtime = 5, kind_concurrent_kernel = 10 };
enum : std::uint8_t { copy_host_to_device = 1, copy_device_to_host = 2 };

using Result = int;  // CUptiResult: 0 is CUPTI_SUCCESS
using RequestBuffer = void (*)(std::uint8_t** buffer, std::size_t* size, std::size_t* records);
using BufferDone = void (*)(void* context, std::uint32_t stream, std::uint8_t* buffer, std::size_t size,
                            std::size_t valid);

struct Cupti {
  Result (*register_callbacks)(RequestBuffer, BufferDone) = nullptr;
  Result (*enable)(std::uint32_t kind) = nullptr;
  Result (*flush_all)(std::uint32_t flag) = nullptr;
  Result (*next_record)(std::uint8_t* buffer, std::size_t valid, void** record) = nullptr;
} cupti;

constexpr std::size_t buffer_size = 1 << 20, buffer_alignment = 8;

template <class T>
T field(const std::uint8_t* record, std::size_t offset) {
  T value;
  std::memcpy(&value, record + offset, sizeof value);
  return value;
}

double seconds_between(const std::uint8_t* record, std::size_t start, std::size_t end) {
  const auto from = field<std::uint64_t>(record, start), to = field<std::uint64_t>(record, end);
  return to > from ? static_cast<double>(to - from) * 1e-9 : 0.0;
}

void request_buffer(std::uint8_t** buffer, std::size_t* size, std::size_t* records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(buffer_alignment, buffer_size));
  *size = *buffer ? buffer_size : 0;
  *records = 0;  // as many as fit
}

// Each record of a completed buffer, told as the offload plugins tell theirs.
void buffer_done(void*, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  void* record = nullptr;
  while (valid > 0 && cupti.next_record(buffer, valid, &record) == 0) {
    const auto* bytes = static_cast<const std::uint8_t*>(record);
    switch (field<std::uint32_t>(bytes, 0)) {
      case kind_kernel:
      case kind_concurrent_kernel:
        interpose::device_activity_seen(static_cast<int>(field<std::uint32_t>(bytes, 40)), Activity::kernel,
                                        seconds_between(bytes, 16, 24), 0);
        break;
      case kind_memcpy: {
        const auto copy = field<std::uint8_t>(bytes, 4);
        if (copy != copy_host_to_device && copy != copy_device_to_host) break;  // on a device, or host to host
        interpose::device_activity_seen(static_cast<int>(field<std::uint32_t>(bytes, 32)),
                                        copy == copy_host_to_device ? Activity::to_device : Activity::from_device,
                                        seconds_between(bytes, 16, 24),
                                        static_cast<std::int64_t>(field<std::uint64_t>(bytes, 8)));
        break;
      }
      case kind_runtime:
        interpose::device_runtime_seen(seconds_between(bytes, 8, 16));
        break;
      default:
        break;
    }
  }
  std::free(buffer);
}

// A CUDA library, or CUPTI, among the objects the process has loaded.
bool cuda_loaded() {
  return dl_iterate_phdr(
             [](dl_phdr_info* info, std::size_t, void*) {
               const std::string_view name = info->dlpi_name ? info->dlpi_name : "";
               const auto file = name.substr(name.rfind('/') == std::string_view::npos ? 0 : name.rfind('/') + 1);
               return static_cast<int>(file.starts_with("libcudart") || file.starts_with("libcuda.so") ||
                                       file.starts_with("libcupti"));
             },
             nullptr) != 0;
}

bool started = false;

}  // namespace

bool start_cuda_activity() {
  if (started || !cuda_loaded()) return false;
  void* library = dlopen("libcupti.so", RTLD_NOW | RTLD_GLOBAL);
  if (!library) return false;
  const auto find = [library](auto& function, const char* name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(library, name));
    return function != nullptr;
  };
  if (!find(cupti.register_callbacks, "cuptiActivityRegisterCallbacks") || !find(cupti.enable, "cuptiActivityEnable") ||
      !find(cupti.flush_all, "cuptiActivityFlushAll") || !find(cupti.next_record, "cuptiActivityGetNextRecord"))
    return false;
  if (cupti.register_callbacks(request_buffer, buffer_done) != 0) return false;
  for (const std::uint32_t kind : {kind_concurrent_kernel, kind_memcpy, kind_runtime}) cupti.enable(kind);
  started = true;
  return true;
}

void flush_cuda_activity() {
  if (started) cupti.flush_all(1);  // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED: incomplete buffers too
}

}  // namespace hetscale::offload
