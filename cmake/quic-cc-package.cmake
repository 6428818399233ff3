# quic-cc standalone build: `cmake --install` layout and the files other projects use to find it.
# Included from ../CMakeLists.txt after the quic-cc target exists (standalone mode only).
#
#   <prefix>/include/ns3/*.h                         public headers, used as "ns3/<name>.h"
#   <prefix>/<libdir>/libns3-quic-cc.so*             the library
#   <prefix>/<libdir>/cmake/quic-cc/                 find_package(quic-cc) -> quic-cc::quic-cc
#   <prefix>/<libdir>/pkgconfig/quic-cc.pc           pkg-config --cflags --libs quic-cc
#   <prefix>/bin/quic-cc-campaign                    campaign tool (SLURM, GNU parallel, local)
#   <prefix>/bin/quic-cc-<example>                   the example programs (the tool runs them)
#   <prefix>/share/quic-cc/campaigns/*.toml          campaign specs (the death-spiral phase diagram)
#
# Both package files are relocatable: they locate the prefix from their own path, so
# `cmake --install <build> --prefix <dir>` works for any <dir>.
#
# Finding the library at run time without LD_LIBRARY_PATH, for any prefix: quic-cc.pc's Libs
# carry -Wl,-rpath,<libdir> (harmless for a system libdir); a CMake consumer gets the library
# directory in its build-tree rpath from CMake itself (CMAKE_SKIP_BUILD_RPATH is off by default;
# for the consumer's own installed binaries, CMAKE_INSTALL_RPATH_USE_LINK_PATH=ON keeps it).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(QUICCC_CMAKE_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/quic-cc)

set_target_properties(quic-cc PROPERTIES EXPORT_NAME quic-cc)
add_library(quic-cc::quic-cc ALIAS quic-cc)

install(TARGETS quic-cc
  EXPORT quic-cc-targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${QUICCC_HEADERS} ${QUICCC_INCLUDE_DIR}/ns3/quic-cc-module.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
# The ngtcp2 transport (cmake/quic-cc-ngtcp2.cmake), when built: the installed examples link it.
if(TARGET quic-cc-ngtcp2)
  install(TARGETS quic-cc-ngtcp2 LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${QUICCC_NGTCP2_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
endif()
install(EXPORT quic-cc-targets
  NAMESPACE quic-cc::
  FILE quic-cc-targets.cmake
  DESTINATION ${QUICCC_CMAKE_INSTALL_DIR})

# The installed package asks for the ns-3 release it was built against (ns-3's own CMake package
# is ExactVersion: a library built against 3.48 is not for 3.37's headers).
set(QUICCC_NS3_FOUND_VERSION ${QUICCC_NS3_VERSION})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/quic-cc-config.cmake.in
  ${CMAKE_BINARY_DIR}/quic-cc-config.cmake
  INSTALL_DESTINATION ${QUICCC_CMAKE_INSTALL_DIR})
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/quic-cc-config-version.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/quic-cc-config.cmake
              ${CMAKE_BINARY_DIR}/quic-cc-config-version.cmake
  DESTINATION ${QUICCC_CMAKE_INSTALL_DIR})

# pkg-config: ns-3's own .pc files are named ns3-<module> (Debian ships them in libns3-dev;
# `./ns3 install` of 3.48 writes the same names).
set(QUICCC_PC_REQUIRES "")
foreach(m ${QUICCC_NS3_MODULE_NAMES})
  string(APPEND QUICCC_PC_REQUIRES " ns3-${m}")
endforeach()
string(STRIP "${QUICCC_PC_REQUIRES}" QUICCC_PC_REQUIRES)
set(QUICCC_PC_CFLAGS "")
foreach(d ${QUICCC_DEFINES})
  string(APPEND QUICCC_PC_CFLAGS " -D${d}")
endforeach()
set(QUICCC_PC_LIBS "")
# Debian's ns-3 3.37 .pc files carry a CMake list in their Cflags ("-I/usr;"), which would reach
# every user of quic-cc.pc through Requires. Where ns-3's flags have such a token, quic-cc.pc
# names ns-3's flags itself, without it, instead of requiring ns-3's .pc files.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  set(saved_pc_path "$ENV{PKG_CONFIG_PATH}")
  set(ENV{PKG_CONFIG_PATH} "${ns3_DIR}/../../pkgconfig:${saved_pc_path}")
  pkg_check_modules(QUICCC_NS3_PC QUIET ${QUICCC_PC_REQUIRES})
  set(ENV{PKG_CONFIG_PATH} "${saved_pc_path}")
  if(QUICCC_NS3_PC_FOUND AND "${QUICCC_NS3_PC_CFLAGS}" MATCHES ";;")
    foreach(flag ${QUICCC_NS3_PC_CFLAGS})
      if(NOT flag STREQUAL "" AND NOT flag MATCHES "^-I/usr/?$")
        string(APPEND QUICCC_PC_CFLAGS " ${flag}")
      endif()
    endforeach()
    set(libs ${QUICCC_NS3_PC_LDFLAGS})
    list(REMOVE_DUPLICATES libs) # shared libraries: the first mention suffices
    foreach(flag ${libs})
      string(APPEND QUICCC_PC_LIBS " ${flag}")
    endforeach()
    set(QUICCC_PC_REQUIRES "")
  endif()
endif()
# ${pcfiledir} is <prefix>/<libdir>/pkgconfig: walk back up to <prefix>.
file(RELATIVE_PATH QUICCC_PC_TO_PREFIX
  /quic-cc-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /quic-cc-prefix)
string(REGEX REPLACE "/$" "" QUICCC_PC_TO_PREFIX "${QUICCC_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/quic-cc.pc.in ${CMAKE_BINARY_DIR}/quic-cc.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/quic-cc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The campaign tool (Python 3 + Debian numpy, statsmodels, matplotlib), its specs and the example
# programs it runs, next to it (it looks in its own directory); they find the library through
# an rpath relative to their own place, so any prefix works.
install(PROGRAMS ${CMAKE_CURRENT_LIST_DIR}/../scripts/quic-cc-campaign DESTINATION ${CMAKE_INSTALL_BINDIR})
file(RELATIVE_PATH QUICCC_BIN_TO_LIB /quic-cc-prefix/${CMAKE_INSTALL_BINDIR} /quic-cc-prefix/${CMAKE_INSTALL_LIBDIR})
foreach(ex ${QUICCC_EXAMPLES})
  get_filename_component(name ${ex} NAME_WE)
  # (and the directories of the ns-3 libraries when ns-3 is not in a system directory)
  set_target_properties(${name} PROPERTIES INSTALL_RPATH "$ORIGIN/${QUICCC_BIN_TO_LIB}"
                                           INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/../examples/campaigns/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/quic-cc/campaigns FILES_MATCHING PATTERN "*.toml")
