! CPU work for the Fortran test programs of `hetscale measure`: a busy loop
! on the calling thread's CPU clock (clock_gettime with CLOCK_THREAD_CPUTIME_ID
! through ISO_C_BINDING). Fortran's cpu_time reads the process's clock, which
! also counts the MPI library's threads; the thread's clock is the time the
! program's own computation took.
module cpu_busy
  use, intrinsic :: iso_c_binding, only: c_int, c_long
  implicit none
  private
  public :: compute

  type, bind(c) :: timespec
    integer(c_long) :: tv_sec, tv_nsec
  end type timespec

  ! Linux's CLOCK_THREAD_CPUTIME_ID (<time.h>).
  integer(c_int), parameter :: clock_thread_cputime_id = 3

  interface
    integer(c_int) function clock_gettime(clock, now) bind(c, name='clock_gettime')
      import :: c_int, timespec
      integer(c_int), value :: clock
      type(timespec), intent(out) :: now
    end function clock_gettime
  end interface

contains

  double precision function thread_cpu_seconds()
    type(timespec) :: now
    if (clock_gettime(clock_thread_cputime_id, now) /= 0) error stop 'clock_gettime failed'
    thread_cpu_seconds = dble(now%tv_sec) + 1d-9 * dble(now%tv_nsec)
  end function thread_cpu_seconds

  ! Computes for `seconds` of this thread's CPU time.
  subroutine compute(seconds)
    double precision, intent(in) :: seconds
    double precision :: finish
    finish = thread_cpu_seconds() + seconds
    do while (thread_cpu_seconds() < finish)
    end do
  end subroutine compute

end module cpu_busy
