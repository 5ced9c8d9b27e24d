#pragma once
// Local computation of the 2D convolution of Chen et al. 2008 Section 4.1.3: two
// N x N complex images, 2D FFT of both (N-point 1D FFTs along the rows, then
// along the columns), pointwise product, inverse 2D FFT. The 1D transforms go
// through FFTW; the MPI driver transposes between the row and column passes.
// Images are row-major; rows are contiguous.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hetscale::programs::kernels {

using Complex = std::complex<double>;

// An N x N image of complex values in [-1, 1) + i [-1, 1), from `seed`.
std::vector<Complex> generate_image(std::size_t n, std::uint64_t seed);

enum class FftDirection { forward, inverse };

// In place, `rows` contiguous rows of length n each: unnormalised DFT of every
// row (FFTW). Returns the flop count by the usual 5 n lg n per transform.
double transform_rows(std::span<Complex> rows, std::size_t n, FftDirection direction);

// product[i] *= factor[i]; returns the flop count (6 per complex product).
double multiply_pointwise(std::span<Complex> product, std::span<const Complex> factor);

// Multiplies every value by `scale`; returns the flop count (2 per value).
double scale_values(std::span<Complex> values, double scale);

// The circular 2D convolution of two N x N images by the same steps on one
// process (FFTW 2D transforms): the reference the MPI run is checked against.
std::vector<Complex> convolve_serial(std::span<const Complex> first, std::span<const Complex> second, std::size_t n);

// The circular 2D convolution by its definition, O(N^4): for checking
// convolve_serial on small images.
std::vector<Complex> convolve_directly(std::span<const Complex> first, std::span<const Complex> second, std::size_t n);

// max |a - b| / max |b|.
double relative_difference(std::span<const Complex> a, std::span<const Complex> b);

}  // namespace hetscale::programs::kernels
