! A Fortran MPI program (use mpi) with known answers, for `hetscale measure`:
! in each of 5 steps rank r computes (r + 1) x 0.1 s of CPU time (a busy
! loop on the process's CPU clock), then all ranks meet in MPI_Allreduce (a collective). Rank 0 of
! 2 waits 0.1 s a step for rank 1; POP load balance = 0.15 / 0.2 = 0.75.
program known_wait_fortran
  use mpi
  use cpu_busy
  implicit none
  integer :: ierr, rank, ranks, step
  double precision :: mine, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  do step = 1, 5
    call compute((rank + 1) * 0.1d0)
    mine = dble(rank)
    call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  print '(a,i0,a,i0,a,f4.1)', 'known_wait_fortran: rank ', rank, ' of ', ranks, ', sum ', total
  call MPI_Finalize(ierr)
end program known_wait_fortran
