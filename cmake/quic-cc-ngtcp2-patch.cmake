# Configure-time variants of the ngtcp2 library: one named change applied to an extracted ngtcp2
# release before it is built (the patch step of its ExternalProject in quic-cc-ngtcp2.cmake).
#
#   cmake -DSOURCE_DIR=<extracted ngtcp2 tree> -DPATCH=<name> -P quic-cc-ngtcp2-patch.cmake
#
# Each change replaces one statement, found exactly once, and fails the build otherwise (a
# release whose code moved is refused, never built half-changed); run again on a tree it has
# already changed, it does nothing. The library's version string is not touched: the transport
# names the variant itself ("1.24.0+cubic-bytes-delivered", QUICCC_NGTCP2_VARIANT).
#
# Changes:
#  cubic-bytes-delivered  ngtcp2 commit 42d626f8 ("Fix CUBIC CWND increment function",
#      2026-08-18, in no release yet): in ngtcp2_cc_cubic_cc_on_ack_recv (lib/ngtcp2_cc.c), CUBIC
#      region, the increment toward the target counts the bytes the ACK delivered instead of one
#      maximum UDP payload per ACK frame, so that cwnd grows by (target - cwnd) / cwnd per byte
#      acknowledged, as RFC 9438 Section 4.2 says, whatever the receiver's ACK ratio.

set(QUICCC_NGTCP2_PATCHES cubic-bytes-delivered)

if(NOT CMAKE_SCRIPT_MODE_FILE)
  return() # included for the list of changes only
endif()
cmake_minimum_required(VERSION 3.16)

if(NOT PATCH IN_LIST QUICCC_NGTCP2_PATCHES)
  string(REPLACE ";" ", " known "${QUICCC_NGTCP2_PATCHES}")
  message(FATAL_ERROR "unknown ngtcp2 change '${PATCH}' (known: ${known})")
endif()

if(PATCH STREQUAL "cubic-bytes-delivered")
  set(file lib/ngtcp2_cc.c)
  set(before "bytes_acked = (target - cstat->cwnd) * cstat->max_tx_udp_payload_size;")
  set(after "bytes_acked = (target - cstat->cwnd) * ack->bytes_delivered;")
endif()

set(path ${SOURCE_DIR}/${file})
if(NOT EXISTS ${path})
  message(FATAL_ERROR "ngtcp2 change ${PATCH}: ${path} does not exist (not an ngtcp2 source tree?)")
endif()
file(READ ${path} text)
string(REPLACE "${before}" "" without_before "${text}")
string(REPLACE "${after}" "" without_after "${text}")
string(LENGTH "${text}" n)
string(LENGTH "${without_before}" n_before)
string(LENGTH "${without_after}" n_after)
string(LENGTH "${before}" l_before)
string(LENGTH "${after}" l_after)
math(EXPR count_before "(${n} - ${n_before}) / ${l_before}")
math(EXPR count_after "(${n} - ${n_after}) / ${l_after}")
if(count_before EQUAL 0 AND count_after EQUAL 1)
  message(STATUS "ngtcp2 change ${PATCH}: already in ${file}")
  return()
endif()
if(NOT count_before EQUAL 1 OR NOT count_after EQUAL 0)
  message(FATAL_ERROR "ngtcp2 change ${PATCH}: ${file} has the statement '${before}' "
                      "${count_before} time(s) (and the changed one ${count_after} time(s)); the "
                      "change applies to a release that has it exactly once (ngtcp2 1.x before "
                      "commit 42d626f8)")
endif()
string(REPLACE "${before}" "${after}" text "${text}")
file(WRITE ${path}.quic-cc-tmp "${text}")
file(RENAME ${path}.quic-cc-tmp ${path})
message(STATUS "ngtcp2 change ${PATCH}: ${file} changed (ngtcp2 commit 42d626f8)")
