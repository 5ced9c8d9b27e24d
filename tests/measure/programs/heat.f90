! A Fortran MPI program of ordinary shape, for `hetscale measure --trace` and
! its replay (bench/replay_accuracy.py): the 1-D heat equation by explicit
! steps, the cells split evenly, each step a halo exchange with both
! neighbours (MPI_Sendrecv) and every 10 steps the largest change found by
! MPI_Allreduce.
!   heat [STEPS [CELLS]]   (default 200 steps of 400000 cells)
program heat
  use mpi
  implicit none
  integer :: ierr, rank, ranks, left, right, step, steps, cells, mine, i
  double precision, allocatable :: u(:), v(:)
  double precision :: change, largest
  character(len=32) :: argument

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  steps = 200
  cells = 400000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, argument)
    read (argument, *) steps
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, argument)
    read (argument, *) cells
  end if
  mine = cells / ranks
  allocate (u(0:mine + 1), v(0:mine + 1))
  do i = 0, mine + 1
    u(i) = dble(mod(rank * mine + i, 97))
  end do
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= ranks) right = MPI_PROC_NULL
  largest = 0.0d0
  do step = 1, steps
    call MPI_Sendrecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 1, u(mine + 1), 1, MPI_DOUBLE_PRECISION, right, 1, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(mine), 1, MPI_DOUBLE_PRECISION, right, 2, u(0), 1, MPI_DOUBLE_PRECISION, left, 2, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    change = 0.0d0
    do i = 1, mine
      v(i) = u(i) + 0.25d0 * (u(i - 1) - 2.0d0 * u(i) + u(i + 1))
      change = max(change, abs(v(i) - u(i)))
    end do
    u(1:mine) = v(1:mine)
    if (mod(step, 10) == 0) then
      call MPI_Allreduce(change, largest, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    end if
  end do
  if (rank == 0) print '(a,i0,a,i0,a,es10.3)', 'heat: ', steps, ' steps on ', ranks, ' ranks, last change ', largest
  call MPI_Finalize(ierr)
end program heat
