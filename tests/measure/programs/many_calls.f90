! The Fortran bindings of v collectives, for `hetscale measure`: one integer
! to each peer in MPI_Alltoallv and MPI_Reduce_scatter. On 2 ranks each is
! called once a rank, 8 bytes a rank.
program many_calls_fortran
  use mpi
  implicit none
  integer :: ierr, rank, share
  integer :: counts(2), displacements(2), outgoing(2), incoming(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  counts = 1
  displacements = (/ 0, 1 /)
  outgoing = rank
  call MPI_Alltoallv(outgoing, counts, displacements, MPI_INTEGER, incoming, counts, displacements, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  call MPI_Reduce_scatter(outgoing, share, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  print '(a,i0,a,i0)', 'many_calls: rank ', rank, ', share ', share
  call MPI_Finalize(ierr)
end program many_calls_fortran
