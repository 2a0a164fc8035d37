# mpilat_add_mpi_test(NAME <name> NP <n> COMMAND <exe> [args...] [TIMEOUT <s>])
# One way to add an MPI test: mpiexec -n N (plus MPILAT_MPIEXEC_EXTRA_FLAGS, e.g. Open MPI's root and
# oversubscribe flags), PROCESSORS N, a TIMEOUT, and RUN_SERIAL because every MPI test times something.
function(mpilat_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;NP;TIMEOUT" "COMMAND" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  separate_arguments(_extra UNIX_COMMAND "${MPILAT_MPIEXEC_EXTRA_FLAGS}")
  add_test(NAME ${T_NAME}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_NP} ${_extra} ${MPIEXEC_PREFLAGS}
                   ${T_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${T_NAME} PROPERTIES PROCESSORS ${T_NP} TIMEOUT ${T_TIMEOUT} RUN_SERIAL TRUE
                       ENVIRONMENT "CMOCKA_MESSAGE_OUTPUT=stdout")
endfunction()
