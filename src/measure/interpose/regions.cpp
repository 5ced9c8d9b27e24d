// The entry points of libhetscale_measure.so that are not generated from the
// list of MPI functions: MPI_Pcontrol (variadic in C, and in the Fortran
// bindings' four manglings), and the region functions hetscale/measure.h
// declares as weak references (docs/measure.md).
#include <mpi.h>

#include <string>

#include "accounting.hpp"

#define HETSCALE_EXPORT __attribute__((visibility("default")))

namespace {

// A region's name as the record keeps it: one line.
std::string region_name(const char* name) {
  std::string line = name ? name : "";
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  return line;
}

}  // namespace

extern "C" HETSCALE_EXPORT void hetscale_measure_region_begin(const char* name) {
  hetscale::interpose::region_begin(region_name(name).c_str());
}

extern "C" HETSCALE_EXPORT void hetscale_measure_region_end(const char* name) {
  hetscale::interpose::region_end(region_name(name).c_str());
}

// mpiP's convention: 0 stops measuring, any other level resumes it. Open MPI's
// MPI_Pcontrol does nothing; it is still called, as the standard asks.
extern "C" HETSCALE_EXPORT int MPI_Pcontrol(const int level, ...) {
  hetscale::interpose::measuring_control(level);
  return PMPI_Pcontrol(level);
}

// The Fortran MPI_PCONTROL(LEVEL) has no IERROR.
#define HETSCALE_FORTRAN_PCONTROL(symbol)                                                       \
  extern "C" HETSCALE_EXPORT void symbol(MPI_Fint* level) {                                     \
    static const auto real =                                                                    \
        reinterpret_cast<void (*)(MPI_Fint*)>(hetscale::interpose::next_symbol(#symbol));      \
    if (level) hetscale::interpose::measuring_control(static_cast<int>(*level));                \
    real(level);                                                                                \
  }
HETSCALE_FORTRAN_PCONTROL(mpi_pcontrol_)
HETSCALE_FORTRAN_PCONTROL(mpi_pcontrol__)
HETSCALE_FORTRAN_PCONTROL(mpi_pcontrol)
HETSCALE_FORTRAN_PCONTROL(MPI_PCONTROL)
