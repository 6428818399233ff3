# quic-cc standalone build: the optional parts that are off, said in one visible block.
#
#  quic_cc_optional_off(<part> <why> <command>) records that <part> is not built, why, and the one
#  command that turns it on. quic_cc_optional_report() (called once at the end of CMakeLists.txt)
#  prints the block at configure time and writes it to quic-cc-optional-parts.txt in the build
#  directory, which `make test` prints after the tests, so that a skipped part is never silent.

set_property(GLOBAL PROPERTY QUICCC_OPTIONAL_OFF "")

function(quic_cc_optional_off part why command)
  set_property(GLOBAL APPEND PROPERTY QUICCC_OPTIONAL_OFF
               "  - ${part}: off, ${why}.\n    Turn it on: ${command}\n")
endfunction()

function(quic_cc_optional_report)
  get_property(off GLOBAL PROPERTY QUICCC_OPTIONAL_OFF)
  set(file ${CMAKE_BINARY_DIR}/quic-cc-optional-parts.txt)
  if(off STREQUAL "")
    file(WRITE ${file} "quic-cc: every optional part is built.\n")
    return()
  endif()
  string(REPLACE ";" "" off "${off}")
  set(block "================ quic-cc: optional parts that are OFF ================\n${off}")
  string(APPEND block "  Their tests are not in this run.\n")
  string(APPEND block "======================================================================\n")
  file(WRITE ${file} "${block}")
  message(STATUS "\n${block}")
endfunction()
