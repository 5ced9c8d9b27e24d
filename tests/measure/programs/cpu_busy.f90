! CPU work for the Fortran test programs of `hetscale measure`: a busy loop
! on the process's CPU clock.
module cpu_busy
  implicit none
contains

  subroutine compute(seconds)
    double precision, intent(in) :: seconds
    real :: start, now
    call cpu_time(start)
    do
      call cpu_time(now)
      if (dble(now - start) >= seconds) exit
    end do
  end subroutine compute

end module cpu_busy
