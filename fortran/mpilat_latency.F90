!> Module mpilat_latency: what of the timer calibration, the ping-pong statistics, the npp study, the
!> comparisons and the file checks a rule cannot wrap (the rest: mpilat_latency_wrappers.inc, generated).
!> Part of module mpilat (fortran/mpilat.F90 re-exports it); the conventions are written there.
#include "mpilat_constants.h"
module mpilat_latency
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_char, c_ptr, c_null_ptr, &
                                         c_null_char, c_loc, c_associated, c_f_pointer, c_size_t, &
                                         c_funptr, c_funloc
  use, intrinsic :: iso_fortran_env, only: error_unit
  use mpi_f08, only: MPI_Comm
  use mpilat_constants
  use mpilat_types
  use mpilat_c
  use mpilat_support
  use mpilat_handle_types
  use mpilat_base
  use mpilat_handles
  use mpilat_defaults
  implicit none
  private
  public :: lat_write_report_files, lat_write_npp_study_files, lat_compare_distributions, lat_read_input
  public :: lat_npp_study

  ! The generated wrappers' names, and the generic names over type(MPI_Comm) and an integer handle.
#include "mpilat_latency_generics.inc"

contains

#include "mpilat_latency_f08.inc"
#include "mpilat_latency_wrappers.inc"

  ! ---- what a rule cannot wrap: an array allocated here, checks across arguments, strings packed for C ----

  !> Collective over comm: the npp study (values: npp, or res_npp when by_res_npp), a row per value.
  subroutine npp_study_int(comm, opts, values, by_res_npp, result, rows, timer, ierr)
    integer, intent(in) :: comm
    type(lat_pingpong_options), intent(in) :: opts
    integer(c_int64_t), intent(in) :: values(:)
    logical, intent(in) :: by_res_npp
    type(lat_pingpong_result), intent(out) :: result
    type(lat_npp_study_row), allocatable, intent(out) :: rows(:)
    type(lat_timer_result), optional, intent(in), target :: timer
    integer, optional, intent(out) :: ierr
    integer(c_int64_t), allocatable, target :: copy(:)
    type(lat_npp_study_row), allocatable, target :: room(:)
    type(c_ptr) :: timer_p, values_p
    integer(c_int64_t) :: n
    timer_p = c_null_ptr
    if (present(timer)) timer_p = c_loc(timer)
    call int64_arg(values, copy, values_p, n)
    allocate (room(max(n, 1_c_int64_t)))  ! never empty for C (an empty list is refused there, with its count)
    call handle(lat_npp_study_c(int(comm, c_int), opts, timer_p, int(n, c_int), values_p, &
                                merge(1_c_int, 0_c_int, by_res_npp), result, c_loc(room)), 'lat_npp_study', ierr)
    rows = room(1:n)
  end subroutine npp_study_int

  !> Writes latency.npp.txt, .csv, .json and (render) .png and .svg into outdir.
  subroutine lat_write_npp_study_files(outdir, command_line, pp, rows, render, ierr)
    character(len=*), intent(in) :: outdir, command_line
    type(lat_pingpong_result), intent(in) :: pp
    type(lat_npp_study_row), intent(in) :: rows(:)
    logical, intent(in) :: render
    integer, optional, intent(out) :: ierr
    type(lat_npp_study_row), allocatable, target :: copy(:)
    allocate (copy(max(size(rows), 1)))  ! never empty for C: no rows is refused there, with its count
    copy(1:size(rows)) = rows
    call handle(lat_write_npp_study_files_c(trim(outdir)//c_null_char, trim(command_line)//c_null_char, pp, &
                                            size(rows, kind=c_int), c_loc(copy), merge(1_c_int, 0_c_int, render)), &
                'lat_write_npp_study_files', ierr)
  end subroutine lat_write_npp_study_files

  !> Compares the q-quantile (0.5: the median) of two sample sets, or frequency tables with counts: the
  !> ratio B/A with a distribution-free interval over the trials and the verdict (include/mpilat.h).
  subroutine lat_compare_distributions(a_values, b_values, q, result, a_counts, b_counts, opts, ierr)
    real(c_double), intent(in) :: a_values(:), b_values(:)
    real(c_double), intent(in) :: q
    type(lat_compare_result), intent(out) :: result
    integer(c_int64_t), optional, intent(in) :: a_counts(:), b_counts(:)
    type(lat_compare_options), optional, intent(in) :: opts
    integer, optional, intent(out) :: ierr
    type(lat_compare_options) :: o
    real(c_double), allocatable, target :: av(:), bv(:)
    integer(c_int64_t), allocatable, target :: ac(:), bc(:)
    type(c_ptr) :: avp, bvp, acp, bcp
    integer(c_int64_t) :: na, nb, nac, nbc
    call lat_compare_defaults(o)
    if (present(opts)) o = opts
    call double_arg(a_values, av, avp, na)
    call double_arg(b_values, bv, bvp, nb)
    call int64_arg(a_counts, ac, acp, nac)
    call int64_arg(b_counts, bc, bcp, nbc)
    if ((present(a_counts) .and. nac /= na) .or. (present(b_counts) .and. nbc /= nb)) then
      call handle(LAT_ERR_ARG, 'lat_compare_distributions: a_counts and b_counts must have the sizes of their values', ierr)
      return
    end if
    call handle(lat_compare_distributions_c(na, avp, acp, nb, bvp, bcp, q, o, result), 'lat_compare_distributions', ierr)
  end subroutine lat_compare_distributions

  !> The bytes of path, read once by the readers' rule (lat_read_input: a regular file, checked again on what
  !> was opened, bounded by the bytes read), into bytes, allocated here (empty on an error).
  subroutine lat_read_input(path, bytes, ierr)
    character(len=*), intent(in) :: path
    character(len=:), allocatable, intent(out) :: bytes
    integer, optional, intent(out) :: ierr
    type(c_ptr) :: input
    integer(c_int64_t) :: nbytes
    integer(c_int) :: rc, rc_free
    input = c_null_ptr
    nbytes = 0
    rc = lat_read_input_c(trim(path)//c_null_char, input)
    if (rc == LAT_SUCCESS) rc = lat_input_size_c(input, nbytes)
    if (rc /= LAT_SUCCESS) nbytes = 0
    allocate (character(len=nbytes) :: bytes)
    if (rc == LAT_SUCCESS .and. nbytes > 0) rc = lat_input_get_c(input, nbytes, bytes)
    if (rc /= LAT_SUCCESS) bytes = ''
    if (c_associated(input)) rc_free = lat_input_free_c(input)
    call handle(rc, 'lat_read_input', ierr)
  end subroutine lat_read_input

  !> Writes text files into outdir, whole or not at all: names(i) (a plain file name) holding contents(i),
  !> each without its trailing blanks; with render, every name ending in ".gp" (a gnuplot script) is also
  !> drawn as .png and .svg. names and contents must be of one length (else LAT_ERR_ARG). Not collective.
  subroutine lat_write_report_files(outdir, names, contents, render, ierr)
    character(len=*), intent(in) :: outdir, names(:), contents(:)
    logical, intent(in) :: render
    integer, optional, intent(out) :: ierr
    character(kind=c_char), allocatable, target :: name_chars(:), content_chars(:)
    type(c_ptr), allocatable, target :: name_ptrs(:), content_ptrs(:)
    integer(c_int) :: nfiles
    nfiles = int(size(names), c_int)
    if (size(contents) /= size(names)) nfiles = -1  ! C refuses it: "nfiles must be >= 1, got -1"
    call pack_strings(names, name_chars, name_ptrs)
    call pack_strings(contents, content_chars, content_ptrs)
    call handle(lat_write_report_files_c(trim(outdir)//c_null_char, nfiles, c_loc(name_ptrs), c_loc(content_ptrs), &
                                         merge(1_c_int, 0_c_int, render)), 'lat_write_report_files', ierr)
  end subroutine lat_write_report_files

  !> The strings, trimmed and NUL-terminated one after another in chars, and the address of each in ptrs.
  subroutine pack_strings(strings, chars, ptrs)
    character(len=*), intent(in) :: strings(:)
    character(kind=c_char), allocatable, target, intent(out) :: chars(:)
    type(c_ptr), allocatable, intent(out) :: ptrs(:)
    integer :: i, j, at
    allocate (chars(sum(len_trim(strings)) + size(strings) + 1), ptrs(max(1, size(strings))))
    at = 1
    do i = 1, size(strings)
      ptrs(i) = c_loc(chars(at))
      do j = 1, len_trim(strings(i))
        chars(at) = strings(i)(j:j)
        at = at + 1
      end do
      chars(at) = c_null_char
      at = at + 1
    end do
  end subroutine pack_strings

end module mpilat_latency
