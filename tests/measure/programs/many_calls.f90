! The Fortran bindings of v collectives and MPI-IO, for `hetscale measure`:
! one integer to each peer in MPI_Alltoallv and MPI_Reduce_scatter (8 bytes
! a rank), one integer a rank written to a file. On 2 ranks each is called
! once a rank.
program many_calls_fortran
  use mpi
  implicit none
  integer :: ierr, rank, share
  integer :: counts(2), displacements(2), outgoing(2), incoming(2), file
  integer(kind=MPI_OFFSET_KIND) :: offset

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  counts = 1
  displacements = (/ 0, 1 /)
  outgoing = rank
  call MPI_Alltoallv(outgoing, counts, displacements, MPI_INTEGER, incoming, counts, displacements, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  call MPI_Reduce_scatter(outgoing, share, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  ! MPI-IO: the file name is a character argument, with a hidden length
  call MPI_File_open(MPI_COMM_WORLD, 'many_calls_fortran.io', &
                     MPI_MODE_CREATE + MPI_MODE_WRONLY + MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, file, ierr)
  offset = rank * 4
  call MPI_File_write_at(file, offset, rank, 1, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call MPI_File_close(file, ierr)
  print '(a,i0,a,i0)', 'many_calls: rank ', rank, ', share ', share
  call MPI_Finalize(ierr)
end program many_calls_fortran
