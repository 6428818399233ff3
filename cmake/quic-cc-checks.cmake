# quic-cc standalone build: checks of the other build modes, run by ctest (`make test`).
# Included from ../CMakeLists.txt (standalone mode only), after cmake/quic-cc-package.cmake.
#
#  - wscript-matches-cmake: wscript and examples/wscript (waf, ns-3 <= 3.35) list exactly the
#    sources, headers, test sources, examples, examples-side (study/) sources and ns-3 modules
#    this CMake build uses.
#  - install-consumer: `cmake --install` into a prefix inside the build directory, then build
#    and run test/consumer against it, with find_package(quic-cc) and with pkg-config.

find_package(Python3 REQUIRED COMPONENTS Interpreter)

# What this build lists, for scripts/check-wscript.py.
file(GLOB QUICCC_CHECK_EXAMPLES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/examples/*.cc)
function(quiccc_json_list out)
  set(items "")
  foreach(item ${ARGN})
    list(APPEND items "\"${item}\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()
quiccc_json_list(j_sources ${QUICCC_MODEL_SOURCES})
quiccc_json_list(j_headers ${QUICCC_HEADERS})
quiccc_json_list(j_study ${QUICCC_STUDY_SOURCES})
quiccc_json_list(j_tests ${QUICCC_TEST_SOURCES})
quiccc_json_list(j_examples ${QUICCC_CHECK_EXAMPLES})
quiccc_json_list(j_ns3 ${QUICCC_NS3_MODULE_NAMES})
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/quic-cc-file-lists.json CONTENT
"{\"sources\": ${j_sources},\n \"headers\": ${j_headers},\n \"study\": ${j_study},\n \"tests\": ${j_tests},\n \"examples\": ${j_examples},\n \"ns3_modules\": ${j_ns3}}\n")

add_test(NAME wscript-matches-cmake
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scripts/check-wscript.py
          --cmake-lists ${CMAKE_BINARY_DIR}/quic-cc-file-lists.json
          --source-dir ${CMAKE_CURRENT_SOURCE_DIR})

add_test(NAME install-consumer
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test/consumer/run-consumer-test.sh
          ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/test/consumer
          ${CMAKE_BINARY_DIR}/consumer-test ${CMAKE_COMMAND})
set_tests_properties(install-consumer PROPERTIES TIMEOUT 600)
