# Install rules: header, libraries (archives, or shared with BUILD_SHARED_LIBS), Fortran modules per compiler,
# CMake package, pkg-config files: the component "library" (cmake --install --component library: without the
# drivers).
include(CMakePackageConfigHelpers)

install(FILES include/mpilat.h include/mpilat_constants.h include/mpilat_types.h include/mpilat_sized.h ${PROJECT_BINARY_DIR}/include/mpilat_version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT library)
install(TARGETS mpilat EXPORT mpilatTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library)
install(EXPORT mpilatTargets NAMESPACE mpilat:: FILE mpilatTargets.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mpilat COMPONENT library)
if(MPILAT_FORTRAN)
  install(TARGETS mpilat_fortran EXPORT mpilatFortranTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library)
  install(EXPORT mpilatFortranTargets NAMESPACE mpilat:: FILE mpilatFortranTargets.cmake
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mpilat COMPONENT library)
  install(DIRECTORY ${MPILAT_MODULE_DIR}/ DESTINATION ${MPILAT_MODULE_INSTALL_DIR} COMPONENT library
          FILES_MATCHING PATTERN "*.mod")
endif()

configure_package_config_file(cmake/mpilatConfig.cmake.in ${PROJECT_BINARY_DIR}/mpilatConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mpilat)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mpilatConfigVersion.cmake COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mpilatConfig.cmake ${PROJECT_BINARY_DIR}/mpilatConfigVersion.cmake
              cmake/MpilatMpiFlavor.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/mpilat COMPONENT library)

# pkg-config: mpilat's own flags; users compile with their MPI's wrappers (mpicc, mpif90). The prefix is
# found from the .pc file's own place, so `cmake --install --prefix` anywhere gives working files.
file(RELATIVE_PATH MPILAT_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/mpilat.pc.in ${PROJECT_BINARY_DIR}/mpilat.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mpilat.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT library)
if(MPILAT_FORTRAN)
  configure_file(cmake/mpilat-fortran.pc.in ${PROJECT_BINARY_DIR}/mpilat-fortran.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/mpilat-fortran.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT library)
endif()
