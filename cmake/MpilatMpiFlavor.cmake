# mpilat_mpi_flavor(<out> <version string>): mpich, openmpi or unknown, from MPI_Get_library_version's
# text as FindMPI reports it. The installed package records the flavour it was built with, so a consumer
# configured against another MPI fails at configure time, not at link or run time.
function(mpilat_mpi_flavor out version_string)
  if(version_string MATCHES "Open MPI")
    set(${out} openmpi PARENT_SCOPE)
  elseif(version_string MATCHES "MPICH")
    set(${out} mpich PARENT_SCOPE)
  else()
    set(${out} unknown PARENT_SCOPE)
  endif()
endfunction()
