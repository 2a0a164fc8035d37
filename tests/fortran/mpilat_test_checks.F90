!> The Fortran tests' one way to record a check: count the failure and say which rank saw it; at the end
!> the counts are summed over the ranks and every rank stops with `error stop 1` if any failed.
module mpilat_test_checks
  use mpi_f08, only: MPI_Allreduce, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_Comm_rank
  implicit none
  private
  public :: check, finish_checks
  integer :: failures = 0
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: rank
    if (ok) return
    failures = failures + 1
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    print '(a,i0,a)', 'FAILED on rank ', rank, ': '//what
  end subroutine check

  !> Collective: prints the total on rank 0 and returns it (call MPI_Finalize after).
  integer function finish_checks(program_name) result(total)
    character(len=*), intent(in) :: program_name
    integer :: rank
    call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    if (rank == 0) print '(a,i0,a)', program_name//': ', total, ' failures'
  end function finish_checks
end module mpilat_test_checks
