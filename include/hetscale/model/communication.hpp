#pragma once
// Measured communication and computation costs of a machine, in the forms of
// Chen et al. 2008, Section 4.5 (all in seconds):
//   T_bcast(p)   = a + b p        broadcast among p processes
//   T_send(N)    = a + b N        send of N doubles (T_recv likewise)
//   T_barrier(p) = c p            barrier among p processes
//   T_c          = W t_c / p      computation of work W on p equal processes
// With a reference marked speed C_ref (the marked speed of the process t_c
// was measured on), a heterogeneous configuration of marked speed C computes
// W in T_c = W t_c C_ref / C: its processes count C / C_ref reference processes.
#include <optional>

namespace hetscale::model {

struct CommunicationCosts {
  double broadcast_intercept = 0.0, broadcast_per_process = 0.0;
  double send_intercept = 0.0, send_per_element = 0.0;
  double receive_intercept = 0.0, receive_per_element = 0.0;
  double barrier_per_process = 0.0;
  double unit_computation = 0.0;                 // t_c, seconds per unit of work
  std::optional<double> reference_marked_speed;  // C_ref, Mflop/s
};

}  // namespace hetscale::model
