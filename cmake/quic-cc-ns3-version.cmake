# quic-cc standalone build: find ns-3 (3.37 to 3.48) and adapt to the release found.
# Included from ../CMakeLists.txt (standalone mode only), right after project().
#
# Sets QUICCC_NS3_LIBS (the imported ns-3 module targets quic-cc links), QUICCC_NS3_MODULE_NAMES
# (the same without namespace), QUICCC_NS3_VERSION and the C++ standard of every target.
#
# What changed between the releases, each with the release that made the change:
#  - every ns-3 CMake package is ExactVersion: find_package(ns3 3.37) rejects a 3.48 prefix given
#    in CMAKE_PREFIX_PATH and silently falls back to Debian's 3.37. So no version is asked for;
#    the one found is checked here (CMAKE_PREFIX_PATH is searched before the system paths).
#  - ns-3.43 exports the module targets as ns3::core, ns3::network, ... (ns3::libcore up to 3.42).
#  - ns-3.41 raised the minimum C++ standard to C++20, ns-3.46 to C++23 (CHANGES.md); their
#    headers need it (and Debian 3.37's headers do not compile as C++23: singleton.h), so the
#    standard follows the ns-3 found. -DQUICCC_CXX_STANDARD=NN overrides it.

find_package(ns3 REQUIRED)
set(QUICCC_NS3_VERSION ${ns3_VERSION} CACHE INTERNAL "the ns-3 release quic-cc is built against")
if(QUICCC_NS3_VERSION VERSION_LESS 3.37)
  message(FATAL_ERROR "quic-cc needs ns-3 3.37 or later; found ns-3 ${QUICCC_NS3_VERSION} at ${ns3_DIR}")
endif()
if(QUICCC_NS3_VERSION VERSION_GREATER_EQUAL 3.49)
  message(WARNING "ns-3 ${QUICCC_NS3_VERSION} (${ns3_DIR}) is newer than the newest release quic-cc "
                  "is checked against (3.48): see README.md, Supported ns-3 versions")
endif()

if(NOT DEFINED QUICCC_CXX_STANDARD)
  if(QUICCC_NS3_VERSION VERSION_GREATER_EQUAL 3.46)
    set(QUICCC_CXX_STANDARD 23)
  elseif(QUICCC_NS3_VERSION VERSION_GREATER_EQUAL 3.41)
    set(QUICCC_CXX_STANDARD 20)
  else()
    set(QUICCC_CXX_STANDARD 17)
  endif()
endif()
set(CMAKE_CXX_STANDARD ${QUICCC_CXX_STANDARD})
set(CMAKE_CXX_STANDARD_REQUIRED ON)

set(QUICCC_NS3_MODULE_NAMES core network internet applications point-to-point traffic-control
                            flow-monitor)
if(TARGET ns3::core)
  set(QUICCC_NS3_TARGET_PREFIX ns3::) # ns-3 >= 3.43
else()
  set(QUICCC_NS3_TARGET_PREFIX ns3::lib)
endif()
set(QUICCC_NS3_LIBS)
foreach(m ${QUICCC_NS3_MODULE_NAMES} point-to-point-layout)
  if(NOT TARGET ${QUICCC_NS3_TARGET_PREFIX}${m})
    message(FATAL_ERROR "ns-3 ${QUICCC_NS3_VERSION} at ${ns3_DIR} has no module ${m} "
                        "(target ${QUICCC_NS3_TARGET_PREFIX}${m}); build ns-3 with it enabled")
  endif()
endforeach()
foreach(m ${QUICCC_NS3_MODULE_NAMES})
  list(APPEND QUICCC_NS3_LIBS ${QUICCC_NS3_TARGET_PREFIX}${m})
endforeach()
set(QUICCC_NS3_LAYOUT_LIB ${QUICCC_NS3_TARGET_PREFIX}point-to-point-layout)
message(STATUS "quic-cc: ns-3 ${QUICCC_NS3_VERSION} (${ns3_DIR}), C++${QUICCC_CXX_STANDARD}, "
               "targets ${QUICCC_NS3_TARGET_PREFIX}<module>")
