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

include(${CMAKE_CURRENT_LIST_DIR}/quic-cc-ngtcp2-patch.cmake) # QUICCC_NGTCP2_PATCHES

# The release an ngtcp2 source archive holds ("1.25.0"), from the project() line of its top
# CMakeLists.txt; a configure error naming the archive when it has none.
function(quic_cc_ngtcp2_archive_version archive out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar tf ${archive}
                  OUTPUT_VARIABLE members RESULT_VARIABLE rc ERROR_QUIET)
  string(REGEX MATCH "(^|\n)([^/\n]+/)CMakeLists.txt(\n|$)" top "${members}")
  set(version "")
  if(rc EQUAL 0 AND top)
    set(top ${CMAKE_MATCH_2}CMakeLists.txt)
    set(probe ${CMAKE_BINARY_DIR}/ngtcp2-version-probe)
    file(REMOVE_RECURSE ${probe})
    file(MAKE_DIRECTORY ${probe})
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xf ${archive} ${top}
                    WORKING_DIRECTORY ${probe} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0 AND EXISTS ${probe}/${top})
      file(STRINGS ${probe}/${top} line REGEX "^project\\(ngtcp2 VERSION [0-9]+\\.[0-9]+\\.[0-9]+")
      string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" version "${line}")
    endif()
    file(REMOVE_RECURSE ${probe})
  endif()
  if(version STREQUAL "")
    message(FATAL_ERROR "'${archive}' is not an ngtcp2 source archive (no top-level CMakeLists.txt "
                        "with project(ngtcp2 VERSION x.y.z))")
  endif()
  set(${out} ${version} PARENT_SCOPE)
endfunction()

# ngtcp2 built from <archive> as a static library alone (ENABLE_LIB_ONLY, no crypto backend: the
# transport models the handshake without TLS, BUILD_TESTING off: a `git archive` of a tag lacks
# the test framework) at build time, so `make test` builds it on a fresh machine; with <patch>
# (one of QUICCC_NGTCP2_PATCHES) that change is applied to the extracted source first
# (quic-cc-ngtcp2-patch.cmake). Sets <out> to the imported target. Position-independent: it is
# linked into a shared transport library. Never instrumented (the sanitizer flags are our
# targets' options, not passed here).
function(quic_cc_ngtcp2_from_archive tag archive patch out)
  include(ExternalProject)
  set(prefix ${CMAKE_BINARY_DIR}/ngtcp2-${tag})
  if(tag STREQUAL "default")
    set(prefix ${CMAKE_BINARY_DIR}/ngtcp2) # where the default build has always been
  endif()
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
  set(patch_step "")
  if(patch)
    set(patch_step PATCH_COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=<SOURCE_DIR> -DPATCH=${patch}
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/quic-cc-ngtcp2-patch.cmake)
  endif()
  set(project ngtcp2-build)
  if(NOT tag STREQUAL "default")
    set(project ngtcp2-build-${tag})
  endif()
  ExternalProject_Add(${project}
    PREFIX ${prefix}
    SOURCE_DIR ${src}
    BINARY_DIR ${bin}
    URL ${archive}
    ${patch_step}
    CMAKE_ARGS -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENABLE_LIB_ONLY=ON -DENABLE_OPENSSL=OFF
               -DENABLE_STATIC_LIB=ON -DENABLE_SHARED_LIB=OFF -DBUILD_TESTING=OFF
               -DCMAKE_POSITION_INDEPENDENT_CODE=ON ${launcher}
    ${extract_timestamp}
    INSTALL_COMMAND ""
    BUILD_BYPRODUCTS ${lib})
  # The include directories must exist when CMake generates; the build fills them.
  file(MAKE_DIRECTORY ${src}/lib/includes ${bin}/lib/includes)
  set(target quiccc_ngtcp2_archive_${tag})
  add_library(${target} STATIC IMPORTED)
  set_target_properties(${target} PROPERTIES
    IMPORTED_LOCATION ${lib}
    INTERFACE_INCLUDE_DIRECTORIES "${src}/lib/includes;${bin}/lib/includes"
    INTERFACE_COMPILE_DEFINITIONS NGTCP2_STATICLIB)
  add_dependencies(${target} ${project})
  set(${out} ${target} PARENT_SCOPE)
endfunction()

# The transport library <target> (file lib<output>.so) over the ngtcp2 library target <lib>;
# <variant> (a change of QUICCC_NGTCP2_PATCHES, or "") is appended to the version the transport
# reports ("1.24.0+cubic-bytes-delivered"), so that a run's CSV names what it ran.
function(quic_cc_ngtcp2_transport target output lib variant)
  add_library(${target} SHARED ${QUICCC_NGTCP2_SOURCES})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${QUICCC_INCLUDE_DIR}>)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter
                         ${QUICCC_SHARED_LIBRARY_FLAGS})
  target_compile_definitions(${target} PRIVATE QUICCC_NGTCP2_VARIANT="${variant}")
  # ngtcp2's headers are private: the public headers declare no ngtcp2 type.
  target_link_libraries(${target} PUBLIC quic-cc PRIVATE ${lib} nlohmann_json::nlohmann_json)
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output})
endfunction()

# NGTCP2_VARIANTS: more builds of the transport beside the default one, one per entry
# "<archive>" (that release) or "<archive>+<change>" (that release with one change of
# QUICCC_NGTCP2_PATCHES). Variant <name> ("1.25.0", "1.24.0+cubic-bytes-delivered") is the library
# libns3-quic-cc-ngtcp2-<name>.so and, after quic_cc_ngtcp2_variant_examples, every example
# again in examples/ngtcp2-<name>/ linked with it (one process links one libngtcp2); the default
# build's examples are in examples/ngtcp2-<default name>/ too, as links to examples/, so that a
# campaign finds every release the same way (scripts/quic-cc-campaign, parameter "ngtcp2").
function(quic_cc_ngtcp2_variants)
  set(names ${QUICCC_NGTCP2_NAME})
  set(tags "")
  foreach(entry ${NGTCP2_VARIANTS})
    set(archive ${entry})
    set(patch "")
    if(entry MATCHES "^(.*)\\+([A-Za-z0-9-]+)$")
      set(archive ${CMAKE_MATCH_1})
      set(patch ${CMAKE_MATCH_2})
      if(NOT patch IN_LIST QUICCC_NGTCP2_PATCHES)
        string(REPLACE ";" ", " known "${QUICCC_NGTCP2_PATCHES}")
        message(FATAL_ERROR "NGTCP2_VARIANTS entry '${entry}': unknown change '${patch}' (known: ${known})")
      endif()
    endif()
    if(NOT EXISTS "${archive}" OR IS_DIRECTORY "${archive}")
      message(FATAL_ERROR "NGTCP2_VARIANTS entry '${entry}': '${archive}' is not a file (an "
                          "ngtcp2-1.x.y.tar.xz, optionally followed by +<change>)")
    endif()
    quic_cc_ngtcp2_archive_version(${archive} version)
    set(name ${version})
    if(patch)
      set(name ${version}+${patch})
    endif()
    if(name IN_LIST names)
      message(FATAL_ERROR "NGTCP2_VARIANTS entry '${entry}': ngtcp2 ${name} is built already "
                          "(the default build is ${QUICCC_NGTCP2_NAME})")
    endif()
    list(APPEND names ${name})
    string(REPLACE "+" "_" tag ${name})
    quic_cc_ngtcp2_from_archive(${tag} ${archive} "${patch}" lib)
    quic_cc_ngtcp2_transport(quic-cc-ngtcp2-${tag} ns3-quic-cc-ngtcp2-${name} ${lib} "${patch}")
    list(APPEND tags ${tag})
    message(STATUS "quic-cc: ngtcp2 ${name} from ${archive} (examples/ngtcp2-${name}/)")
  endforeach()
  set(QUICCC_NGTCP2_VARIANT_NAMES ${names} PARENT_SCOPE)
  set(QUICCC_NGTCP2_VARIANT_TAGS ${tags} PARENT_SCOPE)
  if(NOT NGTCP2_VARIANTS)
    quic_cc_optional_off("ngtcp2 releases beside ${QUICCC_NGTCP2_NAME} (studies and campaigns across releases)"
                         "NGTCP2_VARIANTS is empty"
                         "make test NGTCP2_VARIANTS='/path/ngtcp2-1.25.0.tar.xz /path/ngtcp2-1.24.0.tar.xz+cubic-bytes-delivered'")
  endif()
endfunction()

# Every example of <examples> (target names) once more per variant, in examples/ngtcp2-<name>/,
# from the same objects (<example>-objects), linked with that variant's transport; links for the
# default build. Directories examples/ngtcp2-* of releases no longer configured are removed.
function(quic_cc_ngtcp2_variant_examples examples)
  set(dir ${CMAKE_BINARY_DIR}/examples)
  file(GLOB old LIST_DIRECTORIES true ${dir}/ngtcp2-*)
  foreach(d ${old})
    get_filename_component(n ${d} NAME)
    string(REGEX REPLACE "^ngtcp2-" "" n ${n})
    if(NOT n IN_LIST QUICCC_NGTCP2_VARIANT_NAMES)
      file(REMOVE_RECURSE ${d})
    endif()
  endforeach()
  file(MAKE_DIRECTORY ${dir}/ngtcp2-${QUICCC_NGTCP2_NAME})
  foreach(ex ${examples})
    file(CREATE_LINK ../${ex} ${dir}/ngtcp2-${QUICCC_NGTCP2_NAME}/${ex} SYMBOLIC)
    foreach(tag ${QUICCC_NGTCP2_VARIANT_TAGS})
      string(REPLACE "_" "+" name ${tag})
      add_executable(${ex}-ngtcp2-${tag} $<TARGET_OBJECTS:${ex}-objects>)
      target_link_libraries(${ex}-ngtcp2-${tag} PRIVATE quic-cc-study-static quic-cc-ngtcp2-${tag})
      set_target_properties(${ex}-ngtcp2-${tag} PROPERTIES OUTPUT_NAME ${ex}
                            RUNTIME_OUTPUT_DIRECTORY ${dir}/ngtcp2-${name})
    endforeach()
  endforeach()
endfunction()

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
set(NGTCP2_VARIANTS "" CACHE STRING
    "More ngtcp2 builds beside the default: a list of <archive> or <archive>+<change>")
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
  set(QUICCC_NGTCP2_NAME ${QUICCC_SYSTEM_NGTCP2_VERSION})
elseif(NGTCP2_ARCHIVE)
  quic_cc_ngtcp2_archive_version(${NGTCP2_ARCHIVE} QUICCC_NGTCP2_NAME)
  quic_cc_ngtcp2_from_archive(default ${NGTCP2_ARCHIVE} "" QUICCC_NGTCP2_LIB)
  message(STATUS "quic-cc: ngtcp2 transport with ngtcp2 ${QUICCC_NGTCP2_NAME} built from ${NGTCP2_ARCHIVE}")
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

quic_cc_ngtcp2_transport(quic-cc-ngtcp2 ns3-quic-cc-ngtcp2 "${QUICCC_NGTCP2_LIB}" "")
set_target_properties(quic-cc-ngtcp2 PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION 0)

target_link_libraries(quic-cc-study INTERFACE quic-cc-ngtcp2)
target_compile_definitions(quic-cc-study-static PUBLIC QUICCC_HAVE_NGTCP2=1)

# The releases beside the default one (NGTCP2_VARIANTS), each a transport library of its own.
quic_cc_ngtcp2_variants()

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

# The builds against other releases (NGTCP2_VARIANTS): each directory runs its release, links
# its own transport, and the patch step changes what it says.
if(QUICCC_NGTCP2_VARIANT_TAGS)
  add_test(NAME ngtcp2-releases
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/ngtcp2/test/test_ngtcp2_releases.py
            ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_BINARY_DIR}/ngtcp2-releases-test)
endif()
