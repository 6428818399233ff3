# quic-cc standalone build: the ngtcp2 transport, a real QUIC stack's own congestion
# controllers (ngtcp2 Reno, CUBIC, BBR) behind ns-3 sockets, beside the models.
# Included from ../CMakeLists.txt (standalone mode only), after the quic-cc-study library; the
# in-tree build (ns-3 contrib/) does not build this part.
#
#  QUICCC_NGTCP2  AUTO (default): on when a library is found; ON: required; OFF: not built.
#  Library, in this order: a system libngtcp2 >= 1.0 that pkg-config finds, else the release
#  archive NGTCP2_ARCHIVE (an ngtcp2-1.x.y.tar.xz, e.g. Debian's ngtcp2_1.24.0.orig.tar.xz),
#  else the pinned release downloaded at configure time from NGTCP2_URL and checked against
#  NGTCP2_SHA256 (QUICCC_NGTCP2_DOWNLOAD=OFF skips it; NGTCP2_DOWNLOAD_TIMEOUT seconds, so an
#  offline machine is not held up). The archive is built here as a static library alone
#  (ENABLE_LIB_ONLY, no crypto backend: the transport models the handshake without TLS) at build
#  time, so `make test` builds it on a fresh machine. When none works the part is off, and
#  quic_cc_optional_off() says why and the one command that turns it on.
#
# Targets: quic-cc-ngtcp2 (shared library, headers as "ns3/quic-cc-ngtcp2-*.h"),
# quic-cc-ngtcp2-test-runner and its ctest entries. quic-cc-study links quic-cc-ngtcp2 and gets
# QUICCC_HAVE_NGTCP2=1, so the scenarios can offer --transport=ngtcp2.

set(QUICCC_NGTCP2 AUTO CACHE STRING "Build the ngtcp2 transport: AUTO, ON or OFF")
set_property(CACHE QUICCC_NGTCP2 PROPERTY STRINGS AUTO ON OFF)
set(NGTCP2_ARCHIVE "" CACHE FILEPATH
    "ngtcp2 release archive built when no system libngtcp2 >= 1.0 is found")
option(QUICCC_NGTCP2_DOWNLOAD "Download the pinned ngtcp2 release when no library or archive is found" ON)
# The pinned release: the upstream tarball of ngtcp2 v1.24.0 (the one Debian's ngtcp2 1.24.0-1
# source package ships as ngtcp2_1.24.0.orig.tar.xz).
set(NGTCP2_URL "https://github.com/ngtcp2/ngtcp2/releases/download/v1.24.0/ngtcp2-1.24.0.tar.xz"
    CACHE STRING "Where the pinned ngtcp2 release is downloaded from")
set(NGTCP2_SHA256 "7fa5ec2be0f0cbed8bc4ec89c0787dfa9d8ce678f1ed9477c52f30eb1a591207"
    CACHE STRING "SHA-256 of the archive at NGTCP2_URL")
set(NGTCP2_DOWNLOAD_TIMEOUT 20 CACHE STRING "Seconds the ngtcp2 download may take")
set(ngtcp2_on_command "make test NGTCP2_ARCHIVE=/path/to/ngtcp2-1.24.0.tar.xz (from ${NGTCP2_URL})")
if(NOT QUICCC_NGTCP2 MATCHES "^(AUTO|ON|OFF)$")
  message(FATAL_ERROR "QUICCC_NGTCP2 must be AUTO, ON or OFF, got '${QUICCC_NGTCP2}'")
endif()
if(QUICCC_FUZZ)
  return()
endif()
if(QUICCC_NGTCP2 STREQUAL "OFF")
  quic_cc_optional_off("ngtcp2 transport" "QUICCC_NGTCP2=OFF was given"
                       "cmake -S . -B build -DQUICCC_NGTCP2=AUTO")
  return()
endif()

set(QUICCC_NGTCP2_LIB "")
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(QUICCC_SYSTEM_NGTCP2 QUIET IMPORTED_TARGET libngtcp2>=1.0)
endif()
if(QUICCC_SYSTEM_NGTCP2_FOUND)
  set(QUICCC_NGTCP2_LIB PkgConfig::QUICCC_SYSTEM_NGTCP2)
  message(STATUS "quic-cc: ngtcp2 transport with the system libngtcp2 ${QUICCC_SYSTEM_NGTCP2_VERSION}")
else()
  set(ngtcp2_why "")
  if(NGTCP2_ARCHIVE AND (NOT EXISTS "${NGTCP2_ARCHIVE}" OR IS_DIRECTORY "${NGTCP2_ARCHIVE}"))
    message(FATAL_ERROR "NGTCP2_ARCHIVE '${NGTCP2_ARCHIVE}' is not a file (an ngtcp2-1.x.y.tar.xz)")
  endif()
  if(NOT NGTCP2_ARCHIVE AND QUICCC_NGTCP2_DOWNLOAD)
    set(downloaded ${CMAKE_BINARY_DIR}/ngtcp2-download/ngtcp2.tar.xz)
    if(EXISTS ${downloaded})
      file(SHA256 ${downloaded} have)
    endif()
    if(NOT EXISTS ${downloaded} OR NOT have STREQUAL NGTCP2_SHA256)
      message(STATUS "quic-cc: downloading ${NGTCP2_URL} (at most ${NGTCP2_DOWNLOAD_TIMEOUT} s)")
      file(DOWNLOAD ${NGTCP2_URL} ${downloaded}.part TIMEOUT ${NGTCP2_DOWNLOAD_TIMEOUT}
           INACTIVITY_TIMEOUT 10 STATUS status)
      list(GET status 0 code)
      if(code EQUAL 0)
        file(SHA256 ${downloaded}.part have)
        if(have STREQUAL NGTCP2_SHA256)
          file(RENAME ${downloaded}.part ${downloaded})
        else()
          set(ngtcp2_why ", and the download's SHA-256 ${have} is not NGTCP2_SHA256")
        endif()
      else()
        list(GET status 1 reason)
        set(ngtcp2_why ", and the download of ${NGTCP2_URL} failed (${reason})")
      endif()
      file(REMOVE ${downloaded}.part)
    endif()
    if(EXISTS ${downloaded})
      set(NGTCP2_ARCHIVE ${downloaded})
    endif()
  elseif(NOT NGTCP2_ARCHIVE)
    set(ngtcp2_why ", and QUICCC_NGTCP2_DOWNLOAD=OFF")
  endif()
endif()
if(QUICCC_SYSTEM_NGTCP2_FOUND)
elseif(NGTCP2_ARCHIVE)
  include(ExternalProject)
  set(prefix ${CMAKE_BINARY_DIR}/ngtcp2)
  set(src ${prefix}/src/ngtcp2-build)
  set(bin ${prefix}/src/ngtcp2-build-build)
  set(lib ${bin}/lib/${CMAKE_STATIC_LIBRARY_PREFIX}ngtcp2${CMAKE_STATIC_LIBRARY_SUFFIX})
  set(launcher "")
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    set(launcher -DCMAKE_C_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  set(extract_timestamp "")
  if(NOT CMAKE_VERSION VERSION_LESS 3.24)
    set(extract_timestamp DOWNLOAD_EXTRACT_TIMESTAMP TRUE)
  endif()
  # Position-independent: it is linked into the shared quic-cc-ngtcp2. Never instrumented (the
  # sanitizer flags are our targets' options, not passed here).
  ExternalProject_Add(ngtcp2-build
    PREFIX ${prefix}
    URL ${NGTCP2_ARCHIVE}
    CMAKE_ARGS -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENABLE_LIB_ONLY=ON -DENABLE_OPENSSL=OFF
               -DENABLE_STATIC_LIB=ON -DENABLE_SHARED_LIB=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
               ${launcher}
    ${extract_timestamp}
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS ${lib})
  # The include directories must exist when CMake generates; the build fills them.
  file(MAKE_DIRECTORY ${src}/lib/includes ${bin}/lib/includes)
  add_library(quiccc_ngtcp2_archive STATIC IMPORTED)
  set_target_properties(quiccc_ngtcp2_archive PROPERTIES
    IMPORTED_LOCATION ${lib}
    INTERFACE_INCLUDE_DIRECTORIES "${src}/lib/includes;${bin}/lib/includes"
    INTERFACE_COMPILE_DEFINITIONS NGTCP2_STATICLIB)
  add_dependencies(quiccc_ngtcp2_archive ngtcp2-build)
  set(QUICCC_NGTCP2_LIB quiccc_ngtcp2_archive)
  message(STATUS "quic-cc: ngtcp2 transport with ngtcp2 built from ${NGTCP2_ARCHIVE}")
else()
  set(ngtcp2_why "no system libngtcp2 >= 1.0 (Debian bookworm has 0.12.1), no NGTCP2_ARCHIVE${ngtcp2_why}")
  if(QUICCC_NGTCP2 STREQUAL "ON")
    message(FATAL_ERROR "QUICCC_NGTCP2=ON but ${ngtcp2_why}: ${ngtcp2_on_command}")
  endif()
  quic_cc_optional_off("ngtcp2 transport" "${ngtcp2_why}" "${ngtcp2_on_command}")
  return()
endif()

set(QUICCC_NGTCP2_SOURCES
    ngtcp2/model/quic-cc-ngtcp2-handshake.cc
    ngtcp2/model/quic-cc-ngtcp2-congestion-events.cc
    ngtcp2/model/quic-cc-ngtcp2-qlog-packets.cc
    ngtcp2/model/quic-cc-ngtcp2-qlog-map.cc
    ngtcp2/model/quic-cc-ngtcp2-connection.cc
    ngtcp2/model/quic-cc-ngtcp2-socket.cc
    ngtcp2/model/quic-cc-ngtcp2-socket-factory.cc)
set(QUICCC_NGTCP2_HEADERS
    ngtcp2/model/quic-cc-ngtcp2-handshake.h
    ngtcp2/model/quic-cc-ngtcp2-congestion-events.h
    ngtcp2/model/quic-cc-ngtcp2-qlog-packets.h
    ngtcp2/model/quic-cc-ngtcp2-qlog-map.h
    ngtcp2/model/quic-cc-ngtcp2-connection.h
    ngtcp2/model/quic-cc-ngtcp2-socket.h
    ngtcp2/model/quic-cc-ngtcp2-socket-factory.h)
foreach(h ${QUICCC_NGTCP2_HEADERS})
  get_filename_component(name ${h} NAME)
  configure_file(${h} ${QUICCC_INCLUDE_DIR}/ns3/${name} COPYONLY)
endforeach()

add_library(quic-cc-ngtcp2 SHARED ${QUICCC_NGTCP2_SOURCES})
target_include_directories(quic-cc-ngtcp2 PUBLIC $<BUILD_INTERFACE:${QUICCC_INCLUDE_DIR}>)
target_compile_options(quic-cc-ngtcp2 PRIVATE -Wall -Wextra -Wno-unused-parameter
                       ${QUICCC_SHARED_LIBRARY_FLAGS})
# ngtcp2's headers are private: the public headers declare no ngtcp2 type.
target_link_libraries(quic-cc-ngtcp2 PUBLIC quic-cc PRIVATE ${QUICCC_NGTCP2_LIB}
                      nlohmann_json::nlohmann_json)
set_target_properties(quic-cc-ngtcp2 PROPERTIES OUTPUT_NAME ns3-quic-cc-ngtcp2
                      VERSION ${PROJECT_VERSION} SOVERSION 0)

target_link_libraries(quic-cc-study PUBLIC quic-cc-ngtcp2)
target_compile_definitions(quic-cc-study PUBLIC QUICCC_HAVE_NGTCP2=1)

# Its TestSuites, in their own runner (test/ holds the suites every build mode runs).
file(GLOB QUICCC_NGTCP2_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/ngtcp2/test/*.cc)
add_executable(quic-cc-ngtcp2-test-runner test/test-runner-main.cc test/quic-cc-test-topology.cc
               ${QUICCC_NGTCP2_TEST_SOURCES})
target_include_directories(quic-cc-ngtcp2-test-runner PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/test)
target_link_libraries(quic-cc-ngtcp2-test-runner PRIVATE quic-cc-study nlohmann_json::nlohmann_json)
quic_cc_add_suite_tests(RUNNER quic-cc-ngtcp2-test-runner SOURCES ${QUICCC_NGTCP2_TEST_SOURCES}
                        REGISTERED_TEST ns3-ngtcp2-suites-registered)

# The death-spiral example's --transport=ngtcp2 rows: options, rows, version, determinism, qlog.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME ngtcp2-death-spiral
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ngtcp2/test/test_ngtcp2_death_spiral.py
          $<TARGET_FILE:quic-cc-death-spiral> ${CMAKE_BINARY_DIR}/ngtcp2-death-spiral-test)

# The HyStart++ lab's and the idle study's ngtcp2 rows: options, real values, determinism.
add_test(NAME ngtcp2-scenarios
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ngtcp2/test/test_ngtcp2_scenarios.py
          $<TARGET_FILE:quic-cc-hystart-lab> $<TARGET_FILE:quic-cc-idle>
          ${CMAKE_BINARY_DIR}/ngtcp2-scenarios-test)
