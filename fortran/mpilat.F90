!> Module mpilat: Fortran 2008 bindings of the mpilat C ABI (include/mpilat.h).
!>
!> Two layers, as in Caliper: private `bind(C)` interfaces named `*_c`, and public wrappers with the C
!> names that take Fortran types (`character(len=*)`, `logical`, an optional `ierr`). Communicators are
!> accepted as `type(MPI_Comm)` (mpi_f08) and, through the same generic name, as an `integer` handle
!> (`use mpi`); both reach C through MPI_Comm_f2c in comm_f2c.c.
!>
!> Errors: every wrapper has `integer, optional, intent(out) :: ierr`. Without `ierr` a failure prints
!> lat_last_error_message() on the error unit and stops the program with `error stop`; a measurement
!> stopped by lat_request_stop (LAT_ERR_INTERRUPTED) is not a failure and does not stop it.
!> The module is called mpilat, never lat: science codes use `lat` for latitude.
!>
!> The module is assembled from one module per part (fortran/mpilat_*.F90), each private but for its public
!> names, which this module re-exports: the constants, the bind(C) types generated from spec/
!> (mpilat_types), the result handles and their accessors and the options' defaults generated from spec/
!> (mpilat_handle_types, mpilat_handles, mpilat_defaults), the helpers (mpilat_base), and the wrappers of each capability.
module mpilat
  use mpilat_constants
  use mpilat_types
  use mpilat_handle_types
  use mpilat_handles
  use mpilat_defaults
  use mpilat_base, only: lat_measure_fn, &
                         lat_strerror, lat_last_error_message, lat_get_api_version, lat_get_version, &
                         lat_request_stop, lat_clear_stop, lat_timer_available, lat_timer_name, &
                         lat_timer_from_name, lat_string, lat_histogram_get, &
                         lat_stats_compute, lat_npp_rule
  use mpilat_latency
  use mpilat_sweep
  use mpilat_pairs
  use mpilat_collective
  implicit none
  public
end module mpilat
