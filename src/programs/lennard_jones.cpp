// The Lennard-Jones cluster: energy, gradient and local relaxation (GSL's
// vector_bfgs2), in reduced units (pair well depth epsilon = 1, pair distance
// parameter sigma = 1):
//
//   V = 4 sum_{i<j} (r_ij^-12 - r_ij^-6),  minimum -1 at r = 2^(1/6).
//
// Reference values (Cambridge Cluster Database, Wales and Doye, J. Phys.
// Chem. A 101 (1997) 5111): LJ7 = -16.505384, LJ13 = -44.326801.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <fmt/core.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_vector.h>

#include "hetscale/programs/objectives.hpp"

namespace hetscale::programs {
namespace {

// GSL's relaxation settings.
constexpr double initial_step = 0.01;         // first trial step of the line search
constexpr double line_tolerance = 0.1;        // GSL manual: "tol = 0.1 is suitable for most purposes"
constexpr double gradient_tolerance = 1e-6;   // stop once |grad V| < this
constexpr std::size_t max_iterations = 2000;  // cap on BFGS iterations

// Before relaxing, pairs closer than this are pushed apart to exactly this
// distance. At r = 0.5 a pair costs 4 (2^12 - 2^6) ~ 1.6e4, large but far
// from overflow, and its gradient ~ 4e5 is one the line search handles; two
// coincident atoms (r = 0, V = +inf) or nearly coincident ones (r < ~1e-26,
// r^-12 overflows) would otherwise give BFGS an infinite or NaN energy.
constexpr double min_separation = 0.5;
constexpr std::size_t max_separation_sweeps = 100;

void turn_off_gsl_error_handler() {
  // GSL's default handler calls abort(); a failed relaxation must come back
  // as a status code instead. The handler is process-wide, so set it once.
  static std::once_flag once;
  std::call_once(once, [] { gsl_set_error_handler_off(); });
}

void require_coordinates(std::span<const double> coordinates, std::string_view caller) {
  if (coordinates.size() % 3 != 0)
    throw std::invalid_argument(fmt::format(
        "{}: coordinates must hold x, y, z per atom (a multiple of 3 values), got {}", caller, coordinates.size()));
  for (std::size_t k = 0; k < coordinates.size(); ++k)
    if (!std::isfinite(coordinates[k]))
      throw std::invalid_argument(
          fmt::format("{}: coordinates must be finite, got {} at index {}", caller, coordinates[k], k));
}

// V, and when `gradient` is not null, dV/dx into gradient[0 .. size). With
// two coincident atoms V = +inf (their pair adds nothing to the gradient).
double energy_impl(const double* x, std::size_t size, double* gradient) {
  const std::size_t atoms = size / 3;
  if (gradient != nullptr) std::fill(gradient, gradient + size, 0.0);
  double energy = 0.0;
  bool coincident = false;
  for (std::size_t i = 0; i < atoms; ++i) {
    const double xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
    for (std::size_t j = i + 1; j < atoms; ++j) {
      const double dx = xi - x[3 * j], dy = yi - x[3 * j + 1], dz = zi - x[3 * j + 2];
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 == 0.0) {
        coincident = true;
        continue;
      }
      const double inv2 = 1.0 / r2;
      const double inv6 = inv2 * inv2 * inv2;
      const double inv12 = inv6 * inv6;
      energy += inv12 - inv6;
      if (gradient != nullptr) {
        // d/dx_i 4 (r^-12 - r^-6) = -24 (2 r^-14 - r^-8) (x_i - x_j)
        const double factor = -24.0 * inv2 * (2.0 * inv12 - inv6);
        gradient[3 * i] += factor * dx, gradient[3 * j] -= factor * dx;
        gradient[3 * i + 1] += factor * dy, gradient[3 * j + 1] -= factor * dy;
        gradient[3 * i + 2] += factor * dz, gradient[3 * j + 2] -= factor * dz;
      }
    }
  }
  if (coincident) return std::numeric_limits<double>::infinity();
  return 4.0 * energy;
}

// A deterministic unit vector for the pair (i, j): the direction in which two
// coincident atoms are separated (points spread over the sphere by the golden
// angle, so different pairs go different ways).
std::array<double, 3> pair_direction(std::size_t i, std::size_t j) {
  const double k = static_cast<double>(i * 7919 + j * 104729 + 1);
  const double golden_angle = 2.399963229728653;  // pi (3 - sqrt 5)
  const double z = 1.0 - 2.0 * std::fmod(k * 0.6180339887498949, 1.0);
  const double rho = std::sqrt(std::max(0.0, 1.0 - z * z));
  const double phi = golden_angle * k;
  return {rho * std::cos(phi), rho * std::sin(phi), z};
}

double min_distance(const std::vector<double>& x) {
  const std::size_t atoms = x.size() / 3;
  double min_r2 = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < atoms; ++i)
    for (std::size_t j = i + 1; j < atoms; ++j) {
      const double dx = x[3 * i] - x[3 * j], dy = x[3 * i + 1] - x[3 * j + 1], dz = x[3 * i + 2] - x[3 * j + 2];
      min_r2 = std::min(min_r2, dx * dx + dy * dy + dz * dz);
    }
  return std::sqrt(min_r2);
}

// Pushes every pair closer than min_separation apart, symmetrically along
// their axis (or pair_direction when they coincide), until none is left or
// the sweeps run out. Deterministic: the same input gives the same output.
void separate_close_atoms(std::vector<double>& x) {
  const std::size_t atoms = x.size() / 3;
  for (std::size_t sweep = 0; sweep < max_separation_sweeps; ++sweep) {
    bool moved = false;
    for (std::size_t i = 0; i < atoms; ++i)
      for (std::size_t j = i + 1; j < atoms; ++j) {
        std::array<double, 3> d{x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]};
        const double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (r >= min_separation) continue;
        if (r < 1e-12) {
          d = pair_direction(i, j);
        } else {
          for (double& c : d) c /= r;
        }
        const double half_shift = 0.5 * (min_separation - std::min(r, min_separation));
        for (int c = 0; c < 3; ++c) x[3 * i + c] += half_shift * d[c], x[3 * j + c] -= half_shift * d[c];
        moved = true;
      }
    if (!moved) return;
  }
}

// The last resort when the input stays degenerate after separation (never
// seen in practice): the atoms on a simple cubic lattice at the pair-minimum
// spacing, a finite-energy start.
std::vector<double> cubic_lattice(std::size_t atoms) {
  const double spacing = std::pow(2.0, 1.0 / 6.0);
  std::size_t side = 1;
  while (side * side * side < atoms) ++side;
  std::vector<double> x;
  x.reserve(3 * atoms);
  for (std::size_t k = 0; k < atoms; ++k) {
    x.push_back(spacing * static_cast<double>(k % side));
    x.push_back(spacing * static_cast<double>((k / side) % side));
    x.push_back(spacing * static_cast<double>(k / (side * side)));
  }
  return x;
}

// GSL callbacks. multimin allocates its vectors itself (stride 1), but copy
// through a scratch buffer whenever the stride is not 1, to be safe.
struct Workspace {
  std::vector<double> x;
  std::vector<double> gradient;
};

const double* contiguous(const gsl_vector* v, Workspace& work) {
  if (v->stride == 1) return v->data;
  work.x.resize(v->size);
  for (std::size_t k = 0; k < v->size; ++k) work.x[k] = gsl_vector_get(v, k);
  return work.x.data();
}

void store_gradient(gsl_vector* g, const std::vector<double>& gradient) {
  for (std::size_t k = 0; k < gradient.size(); ++k) gsl_vector_set(g, k, gradient[k]);
}

double gsl_energy(const gsl_vector* x, void* params) {
  auto& work = *static_cast<Workspace*>(params);
  return energy_impl(contiguous(x, work), x->size, nullptr);
}

void gsl_gradient(const gsl_vector* x, void* params, gsl_vector* g) {
  auto& work = *static_cast<Workspace*>(params);
  work.gradient.resize(x->size);
  energy_impl(contiguous(x, work), x->size, work.gradient.data());
  store_gradient(g, work.gradient);
}

void gsl_energy_and_gradient(const gsl_vector* x, void* params, double* f, gsl_vector* g) {
  auto& work = *static_cast<Workspace*>(params);
  work.gradient.resize(x->size);
  *f = energy_impl(contiguous(x, work), x->size, work.gradient.data());
  store_gradient(g, work.gradient);
}

struct MinimizerDeleter {
  void operator()(gsl_multimin_fdfminimizer* s) const { gsl_multimin_fdfminimizer_free(s); }
};
struct VectorDeleter {
  void operator()(gsl_vector* v) const { gsl_vector_free(v); }
};

}  // namespace

double lennard_jones_energy(std::span<const double> coordinates) {
  require_coordinates(coordinates, "lennard_jones_energy");
  return energy_impl(coordinates.data(), coordinates.size(), nullptr);
}

double lennard_jones_energy_and_gradient(std::span<const double> coordinates, std::span<double> gradient) {
  require_coordinates(coordinates, "lennard_jones_energy_and_gradient");
  if (gradient.size() != coordinates.size())
    throw std::invalid_argument(
        fmt::format("lennard_jones_energy_and_gradient: gradient must have as many values as coordinates ({}), got {}",
                    coordinates.size(), gradient.size()));
  return energy_impl(coordinates.data(), coordinates.size(), gradient.data());
}

Relaxation relax_lennard_jones(std::vector<double> coordinates) {
  require_coordinates(coordinates, "relax_lennard_jones");
  turn_off_gsl_error_handler();
  const std::size_t size = coordinates.size();

  Relaxation result;
  if (size < 6) {  // zero or one atom: nothing to relax, V = 0
    result.coordinates = std::move(coordinates);
    result.converged = true;
    return result;
  }

  separate_close_atoms(coordinates);
  double start_energy = energy_impl(coordinates.data(), size, nullptr);
  if (!std::isfinite(start_energy) || min_distance(coordinates) < 1e-3 * min_separation) {
    coordinates = cubic_lattice(size / 3);
    start_energy = energy_impl(coordinates.data(), size, nullptr);
  }

  Workspace work;
  gsl_multimin_function_fdf function;
  function.n = size;
  function.f = &gsl_energy;
  function.df = &gsl_gradient;
  function.fdf = &gsl_energy_and_gradient;
  function.params = &work;

  std::unique_ptr<gsl_vector, VectorDeleter> start(gsl_vector_alloc(size));
  std::unique_ptr<gsl_multimin_fdfminimizer, MinimizerDeleter> minimizer(
      gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, size));
  if (!start || !minimizer) throw std::bad_alloc();
  for (std::size_t k = 0; k < size; ++k) gsl_vector_set(start.get(), k, coordinates[k]);

  // The best point so far: the start, then every iterate that lowers V. BFGS
  // only accepts descent steps, but keep the guard so that a failed line
  // search (GSL_ENOPROG, a non-finite trial) can never make things worse.
  double best_energy = start_energy;
  std::vector<double> best = coordinates;
  auto keep_if_better = [&](const gsl_multimin_fdfminimizer* s) {
    if (!std::isfinite(s->f) || s->f > best_energy) return false;
    best_energy = s->f;
    for (std::size_t k = 0; k < size; ++k) best[k] = gsl_vector_get(s->x, k);
    return true;
  };

  if (gsl_multimin_fdfminimizer_set(minimizer.get(), &function, start.get(), initial_step, line_tolerance) ==
      GSL_SUCCESS) {
    auto at_minimum = [&] {
      return keep_if_better(minimizer.get()) &&
             gsl_multimin_test_gradient(minimizer->gradient, gradient_tolerance) == GSL_SUCCESS;
    };
    result.converged = at_minimum();
    while (!result.converged && result.iterations < max_iterations) {
      const int status = gsl_multimin_fdfminimizer_iterate(minimizer.get());
      ++result.iterations;
      // GSL_ENOPROG: the line search found no lower energy along the search
      // direction. With |grad V| ~ 1e-6 the decrease left, ~ |grad V|^2 /
      // (2 curvature), is as small as the round-off in V itself (~1e-14 for
      // LJ13), so this is how most relaxations of larger clusters end, at a
      // gradient of a few 1e-6 and an energy accurate to ~1e-12: stop there
      // and keep the best point (converged stays false).
      if (status != GSL_SUCCESS) break;
      result.converged = at_minimum();
    }
  }

  result.energy = best_energy;
  result.coordinates = std::move(best);
  return result;
}

double lennard_jones_box_half_width(std::size_t atoms) {
  // At the pair spacing r0 = 2^(1/6) a close-packed cluster holds sqrt(2) /
  // r0^3 = 1 atom per unit volume, so `atoms` atoms fill a cube of side
  // atoms^(1/3). The GA's cube is a little larger than that (factor loose_factor),
  // so random starts are compact but not crowded: in a much larger box the
  // atoms relax to loose, high-energy minima; in a smaller one nearly every
  // pair starts inside the repulsive wall. Measured over 2000 random starts,
  // the share relaxing to the LJ13 icosahedron is 17% at loose_factor = 0.8, 12% at
  // 1.0, 10% at 1.2, 6% at 1.5 and 5% at 2.0 (LJ7: 30% to 23%); 1.2 keeps the
  // initial population varied while the GA still finds LJ13 within a few
  // generations.
  constexpr double loose_factor = 1.2;
  return 0.5 * loose_factor * std::cbrt(static_cast<double>(atoms));
}

}  // namespace hetscale::programs
