! A Fortran MPI program (use mpi) that turns measuring off and on with
! MPI_Pcontrol, for `hetscale measure`: every rank computes 0.2 s of CPU
! time measured, then 0.3 s with measuring off, then meets the others in
! MPI_Allreduce. The record must leave the 0.3 s out.
program pcontrol_fortran
  use mpi
  use cpu_busy
  implicit none
  integer :: ierr, rank
  double precision :: mine, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call compute(0.2d0)
  call MPI_Pcontrol(0)
  call compute(0.3d0)
  call MPI_Pcontrol(1)
  mine = dble(rank)
  call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  print '(a,i0,a,f4.1)', 'pcontrol_fortran: rank ', rank, ', sum ', total
  call MPI_Finalize(ierr)
end program pcontrol_fortran
