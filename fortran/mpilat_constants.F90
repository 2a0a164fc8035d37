!> Module mpilat_constants: the constants of include/mpilat_constants.h as Fortran parameters (module mpilat
!> re-exports them).
#include "mpilat_constants.h"
module mpilat_constants
  use, intrinsic :: iso_c_binding, only: c_double
  implicit none
  private

  ! ---- constants: written once, in include/mpilat_constants.h, which C's mpilat.h reads too -------------
  ! Each list there becomes integer parameters of the same names and values; a single value is taken by its
  ! macro (the lower-case Fortran name is the same name to Fortran, and the preprocessor leaves it alone).
#define LAT_F_PARAMETER(name, value) integer, parameter, public :: name = value;
  LAT_ERROR_CODES(LAT_F_PARAMETER)
  LAT_TIMER_KINDS(LAT_F_PARAMETER)
  LAT_PARTIAL_CAUSES(LAT_F_PARAMETER)
  LAT_RUN_ENDS(LAT_F_PARAMETER)
  LAT_FIT_VERDICTS(LAT_F_PARAMETER)
  LAT_RUN_PHASES(LAT_F_PARAMETER)
  LAT_SWEEP_PATTERNS(LAT_F_PARAMETER)
  LAT_SWEEP_GOPS(LAT_F_PARAMETER)
  LAT_SWEEP_ENDS(LAT_F_PARAMETER)
  LAT_SWEEP_FILES_FLAGS(LAT_F_PARAMETER)
  LAT_QUEUE_MODES(LAT_F_PARAMETER)
  LAT_PAIR_SCHEDULES(LAT_F_PARAMETER)
  LAT_WAIT_MODES(LAT_F_PARAMETER)
  LAT_PAIR_STATS(LAT_F_PARAMETER)
  LAT_RATE_MODELS(LAT_F_PARAMETER)
  LAT_FIT_BOUNDS(LAT_F_PARAMETER)
  LAT_NODECOMM_SIDES(LAT_F_PARAMETER)
  LAT_RUN_WARNINGS(LAT_F_PARAMETER)
  LAT_CHANGE_QUANTITIES(LAT_F_PARAMETER)
  LAT_PAIR_FILES_FLAGS(LAT_F_PARAMETER)
  LAT_COLL_OPS(LAT_F_PARAMETER)
  LAT_COLL_MODES(LAT_F_PARAMETER)
  LAT_PLACE_SHARES(LAT_F_PARAMETER)
  LAT_COMPARE_METHODS(LAT_F_PARAMETER)
  LAT_COMPARE_VERDICTS(LAT_F_PARAMETER)
  integer, parameter, public :: lat_all_ranks = LAT_ALL_RANKS, lat_last_rank = LAT_LAST_RANK
  integer, parameter, public :: lat_nbins = LAT_NBINS, lat_hostname_len = LAT_HOSTNAME_LEN
  integer, parameter, public :: lat_npp_max = LAT_NPP_MAX, lat_pair_nstats = LAT_PAIR_NSTATS
  integer, parameter, public :: lat_nmodels = LAT_NMODELS, lat_max_regimes = LAT_MAX_REGIMES, lat_max_levels = LAT_MAX_LEVELS
  integer, parameter, public :: lat_max_changes = LAT_MAX_CHANGES
  integer, parameter, public :: lat_npercentiles = LAT_NPERCENTILES, lat_cpuset_len = LAT_CPUSET_LEN
  integer, parameter, public :: lat_study_max = LAT_STUDY_MAX, lat_precision_min_chunks = LAT_PRECISION_MIN_CHUNKS
  integer, parameter, public :: lat_unreachable_rounds = LAT_UNREACHABLE_ROUNDS
  integer, parameter, public :: lat_precision_batches = LAT_PRECISION_BATCHES
  integer, parameter, public :: lat_cachesize_llc_factor = LAT_CACHESIZE_LLC_FACTOR
  integer, parameter, public :: lat_coll_all_ops = LAT_COLL_ALL_OPS, lat_coll_all_modes = LAT_COLL_ALL_MODES
  integer, parameter, public :: lat_coll_max_sizes = LAT_COLL_MAX_SIZES
  integer, parameter, public :: lat_max_input_bytes = LAT_MAX_INPUT_BYTES, lat_max_input_line = LAT_MAX_INPUT_LINE
  ! An empty comment joins the macro's 0.2 to the kind suffix (gfortran's traditional preprocessor).
  real(c_double), parameter, public :: lat_bin_width_us = LAT_BIN_WIDTH_US/**/_c_double
  real(c_double), parameter, public :: lat_queue_fit_r2_min = LAT_QUEUE_FIT_R2_MIN/**/_c_double
  real(c_double), parameter, public :: lat_verdict_runs_z = LAT_VERDICT_RUNS_Z/**/_c_double
  real(c_double), parameter, public :: lat_verdict_bic_gain = LAT_VERDICT_BIC_GAIN/**/_c_double
  real(c_double), parameter, public :: lat_precision_limit_s = LAT_PRECISION_LIMIT_S/**/_c_double
  real(c_double), parameter, public :: lat_disturbed_share = LAT_DISTURBED_SHARE/**/_c_double
  real(c_double), parameter, public :: lat_overlap_window_ratio = LAT_OVERLAP_WINDOW_RATIO/**/_c_double
  real(c_double), parameter, public :: lat_queue_control_spreads = LAT_QUEUE_CONTROL_SPREADS/**/_c_double
  real(c_double), parameter, public :: lat_queue_control_share = LAT_QUEUE_CONTROL_SHARE/**/_c_double
  real(c_double), parameter, public :: lat_disturbed_min_wait_s = LAT_DISTURBED_MIN_WAIT_S/**/_c_double
  !> The API version these bindings were written for; compare with lat_get_api_version().
  integer, parameter, public :: lat_api_version = LAT_API_VERSION

end module mpilat_constants
