# mpilat_add_script_test(NAME <name> TIMEOUT <s> [PROCESSORS <n>] [QUIET | LOAD_TOLERANT] [LABELS <label>...]
#                        COMMAND <cmd>...)
# A test that launches processes (MPI jobs, the drivers' scripts, daemons, nodes): it runs alone (RUN_SERIAL:
# each of them times something or fills the 2 cores) through tests/tools/run_test.py, which stops it with
# SIGTERM 30 s before ctest's TIMEOUT (ctest's SIGKILL runs no trap: a Slurm job or a namespace would
# outlive it), and kills and reports what is left of its process group when it ends. Exit 77 is Skipped (a
# tool missing, or QUIET on a busy machine: the verdict needs a quiet machine, and run_test.py --quiet says
# "machine busy: not judged" when other work took the CPUs, except under CI=true; label `quiet`).
# LOAD_TOLERANT: a test that times nothing and whose every wait allows minutes (a build) may run beside another
# such test or a one-process test (one processor, not RUN_SERIAL). Not Slurm's: beside a compile, slurmctld
# missed the --signal=USR1@50 warning of 2 jobs in 12 (they ran into their time limit).
function(mpilat_add_script_test)
  cmake_parse_arguments(T "QUIET;LOAD_TOLERANT" "NAME;TIMEOUT;PROCESSORS" "COMMAND;LABELS" ${ARGN})
  if(NOT T_PROCESSORS)
    set(T_PROCESSORS 2)
  endif()
  set(_serial TRUE)
  if(T_LOAD_TOLERANT)
    set(_serial FALSE)
    set(T_PROCESSORS 1)
  endif()
  math(EXPR _deadline "${T_TIMEOUT} - 30")
  set(_runner ${PROJECT_SOURCE_DIR}/tests/tools/run_test.py --deadline ${_deadline})
  set(_labels ${T_LABELS})
  if(T_QUIET)
    list(APPEND _runner --quiet)
    list(APPEND _labels quiet)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${_runner} ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} RUN_SERIAL ${_serial} PROCESSORS ${T_PROCESSORS}
                       SKIP_RETURN_CODE 77 LABELS "${_labels}")
endfunction()

# mpilat_add_mpi_test(NAME <name> NP <n> [QUIET] [TIMEOUT <s>, default 300] COMMAND <exe> [args...])
# One way to add an MPI test: mpiexec -n N (plus MPILAT_MPIEXEC_EXTRA_FLAGS, e.g. Open MPI's root and
# oversubscribe flags) as a script test of N processors, labelled `mpi` (docs/testing.md).
function(mpilat_add_mpi_test)
  cmake_parse_arguments(T "QUIET" "NAME;NP;TIMEOUT" "COMMAND" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set(_quiet "")
  if(T_QUIET)
    set(_quiet QUIET)
  endif()
  separate_arguments(_extra UNIX_COMMAND "${MPILAT_MPIEXEC_EXTRA_FLAGS}")
  mpilat_add_script_test(NAME ${T_NAME} TIMEOUT ${T_TIMEOUT} PROCESSORS ${T_NP} ${_quiet} LABELS mpi
                         COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_NP} ${_extra} ${MPIEXEC_PREFLAGS}
                                 ${T_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "CMOCKA_MESSAGE_OUTPUT=stdout")
endfunction()

# mpilat_label_tests(<label> <test>...): appends the label to each test that this configuration has (the
# Fortran, valgrind, Python, Slurm and cluster tests exist only where their tools do).
function(mpilat_label_tests label)
  foreach(t ${ARGN})
    if(TEST ${t})
      set_property(TEST ${t} APPEND PROPERTY LABELS ${label})
    endif()
  endforeach()
endfunction()
