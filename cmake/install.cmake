# `cmake --install`: the command and its helpers, the static libraries and
# their headers, a CMake package (find_package(hetscale)) and a pkg-config
# file; examples/ and data/ for `hetscale demo` (README.md, Installing).
include(CMakePackageConfigHelpers)
set(HETSCALE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/hetscale)
# What the command runs but nobody links: libhetscale_measure.so (preloaded
# by `hetscale measure`) and hetscale-smpi (run by smpirun). Kept out of lib/,
# where -lhetscale_measure would find the preload library before the archive.
set(HETSCALE_INSTALL_HELPERDIR ${CMAKE_INSTALL_LIBDIR}/hetscale)
set(HETSCALE_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/hetscale)

# An installed hetscale finds its helpers and data relative to its executable,
# wherever the prefix is (apps/hetscale/cli.cpp).
file(RELATIVE_PATH helpers_from_bin ${CMAKE_INSTALL_FULL_BINDIR}
     ${CMAKE_INSTALL_PREFIX}/${HETSCALE_INSTALL_HELPERDIR})
file(RELATIVE_PATH data_from_bin ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_PREFIX}/${HETSCALE_INSTALL_DATADIR})
foreach(target hetscale_cli hetscale_smpi)
  target_compile_definitions(${target} PRIVATE HETSCALE_INSTALLED_HELPERS="${helpers_from_bin}"
                             HETSCALE_INSTALLED_DATA="${data_from_bin}")
endforeach()

install(TARGETS hetscale_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Executable: smpirun runs hetscale-smpi as a program.
install(TARGETS hetscale_measure_preload hetscale_smpi LIBRARY DESTINATION ${HETSCALE_INSTALL_HELPERDIR}
  PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
if(TARGET hetscale_measure_mpich)
  install(TARGETS hetscale_measure_mpich LIBRARY DESTINATION ${HETSCALE_INSTALL_HELPERDIR})
endif()
# The offloaded device kernels `bench fpm --device` loads, beside them.
if(HETSCALE_DEVICE_KERNELS)
  install(PROGRAMS ${HETSCALE_DEVICE_KERNELS} DESTINATION ${HETSCALE_INSTALL_HELPERDIR})
endif()
# The offload host plugin's wrapper, in its own folder beside them (measure_launch.cpp).
if(TARGET hetscale_offload_host_plugin)
  install(TARGETS hetscale_offload_host_plugin LIBRARY DESTINATION ${HETSCALE_INSTALL_HELPERDIR}/offload)
endif()
install(DIRECTORY data examples DESTINATION ${HETSCALE_INSTALL_DATADIR})

# The library: hetscale::hetscale (all but the MPI transport), hetscale::mpi,
# and one target per folder (hetscale::model, hetscale::io, ...).
set_target_properties(hetscale PROPERTIES EXPORT_NAME hetscale)
install(TARGETS ${HETSCALE_LIBRARIES} hetscale_run hetscale_mpi hetscale EXPORT hetscaleTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/hetscale DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT hetscaleTargets NAMESPACE hetscale:: DESTINATION ${HETSCALE_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/hetscaleConfig.cmake.in ${PROJECT_BINARY_DIR}/hetscaleConfig.cmake
  INSTALL_DESTINATION ${HETSCALE_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hetscaleConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hetscaleConfig.cmake ${PROJECT_BINARY_DIR}/hetscaleConfigVersion.cmake
  DESTINATION ${HETSCALE_INSTALL_CMAKEDIR})

# hetscale.pc: the libraries of hetscale::hetscale, each before those it
# links (top-level CMakeLists.txt), with paths relative to the file itself.
set(HETSCALE_PC_LIBS "")
foreach(folder report papers analysis optimizer sim measure programs ga distribute platform record io empirical model)
  string(APPEND HETSCALE_PC_LIBS " -lhetscale_${folder}")
endforeach()
set(pc_folder ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH HETSCALE_PC_PREFIX ${pc_folder} ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH HETSCALE_PC_INCLUDEDIR ${pc_folder} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
file(RELATIVE_PATH HETSCALE_PC_LIBDIR ${pc_folder} ${CMAKE_INSTALL_FULL_LIBDIR})
foreach(path HETSCALE_PC_PREFIX HETSCALE_PC_INCLUDEDIR HETSCALE_PC_LIBDIR)
  string(REGEX REPLACE "/$" "" ${path} "${${path}}")
endforeach()
# A sanitized build's libraries need the sanitizers' run time where they are linked.
set(HETSCALE_PC_LIBS_PRIVATE "-pthread")
if(HETSCALE_SANITIZE)
  string(APPEND HETSCALE_PC_LIBS_PRIVATE " -fsanitize=${HETSCALE_SANITIZE}")
endif()
configure_file(cmake/hetscale.pc.in ${PROJECT_BINARY_DIR}/hetscale.pc @ONLY)
# hetscale-mpi.pc: hetscale::mpi (hetscale_mpi, hetscale_run) on top of hetscale.pc and the system's MPI.
configure_file(cmake/hetscale-mpi.pc.in ${PROJECT_BINARY_DIR}/hetscale-mpi.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hetscale.pc ${PROJECT_BINARY_DIR}/hetscale-mpi.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
