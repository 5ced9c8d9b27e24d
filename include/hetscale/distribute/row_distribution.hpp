#pragma once
// Which process owns which rows of a matrix (Chen et al. 2008 Section 4.1: rows
// handed out in proportion to the processes' marked speeds, one process per
// processor). Scheduling only: no transport, so the MPI kernels and a
// simulated run share it.
#include <cstddef>
#include <vector>

namespace hetscale::distribute {

struct RowDistribution {
  std::vector<std::size_t> owner;                 // process of each row
  std::vector<std::vector<std::size_t>> rows_of;  // rows of each process, ascending
  std::size_t rows_owned(std::size_t process) const { return rows_of.at(process).size(); }
};

// `speeds`: one per process, finite and >= 0, at least one > 0; a process of
// speed 0 owns no rows (a partition that leaves it none). std::invalid_argument
// otherwise.

// Row-based heterogeneous block distribution: process i owns one contiguous
// block of rows, in process order, of size round(rows C_i / C) (largest
// remainder, as the farm's proportional policy shares tasks). Used by matrix
// multiplication and the 2D convolution.
RowDistribution heterogeneous_block_rows(const std::vector<double>& speeds, std::size_t rows);

// Row-based heterogeneous cyclic distribution: rows are dealt in order, each
// to the process whose share after taking it, (rows held + 1) / C_i, is least
// (ties to the lower process). Every run of consecutive rows is then shared
// about in proportion to speed, so Gaussian elimination stays balanced as its
// active rows shrink.
RowDistribution heterogeneous_cyclic_rows(const std::vector<double>& speeds, std::size_t rows);

}  // namespace hetscale::distribute
