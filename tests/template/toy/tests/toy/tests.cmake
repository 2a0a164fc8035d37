# The toy capability's tests (the template capability, docs/architecture.md), included by tests/CMakeLists.txt
# like every tests/<capability>/tests.cmake.
add_executable(test_toy_mpi ${CMAKE_CURRENT_LIST_DIR}/test_toy_mpi.c)
target_include_directories(test_toy_mpi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/c)  # mpi_test_support.h
target_link_libraries(test_toy_mpi PRIVATE mpilat PkgConfig::CMOCKA stdc++ m)
mpilat_add_mpi_test(NAME toy_mpi_np2 NP 2 COMMAND $<TARGET_FILE:test_toy_mpi>)
mpilat_add_mpi_test(NAME toy_mpi_np3 NP 3 COMMAND $<TARGET_FILE:test_toy_mpi>)
if(MPILAT_FORTRAN)
  add_executable(test_fortran_toy ${CMAKE_CURRENT_LIST_DIR}/test_toy.F90)
  target_link_libraries(test_fortran_toy PRIVATE mpilat::fortran stdc++)
  set_target_properties(test_fortran_toy PROPERTIES LINKER_LANGUAGE Fortran
                        Fortran_MODULE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/mod_toy)
  mpilat_add_mpi_test(NAME fortran_toy_np2 NP 2 COMMAND $<TARGET_FILE:test_fortran_toy>)
endif()
mpilat_add_script_test(NAME driver_toy TIMEOUT 120 LABELS drivers
                       COMMAND ${CMAKE_CURRENT_LIST_DIR}/test_toy_driver.sh $<TARGET_FILE:mpilat-toy>
                               "${MPIEXEC_EXECUTABLE} ${MPILAT_MPIEXEC_EXTRA_FLAGS}")
