# quic_cc_add_suite_tests(RUNNER <target> SOURCES <file>... [REGISTERED_TEST <name>])
#
# One ctest entry ns3-suite-<name> per ns-3 TestSuite that <target> (a test runner built from
# test/test-runner-main.cc) runs, QUICK and EXTENSIVE cases (ns-3's meaning: seconds vs. minutes;
# test.py users filter with --fullness). The suites are found, not listed: every
# TestSuite("name", ...) constructor call in SOURCES (scripts/check-in-tree.sh finds them the
# same way); an edit of a source re-runs the configuration. The runner silently runs nothing for
# an unknown name, so REGISTERED_TEST names an entry that checks that every suite found is
# registered in the runner.
function(quic_cc_add_suite_tests)
  cmake_parse_arguments(ARG "" "RUNNER;REGISTERED_TEST" "SOURCES" ${ARGN})
  set(suites)
  foreach(source ${ARG_SOURCES})
    file(STRINGS ${source} lines REGEX "TestSuite\\(\"[^\"]+\"")
    foreach(line ${lines})
      string(REGEX REPLACE ".*TestSuite\\(\"([^\"]+)\".*" "\\1" suite "${line}")
      list(APPEND suites ${suite})
    endforeach()
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${ARG_SOURCES})
  if(NOT suites)
    message(FATAL_ERROR "no TestSuite(\"name\", ...) found in the sources of ${ARG_RUNNER}")
  endif()
  foreach(suite ${suites})
    add_test(NAME ns3-suite-${suite}
      COMMAND ${ARG_RUNNER} --test-name=${suite} --fullness=EXTENSIVE --verbose)
  endforeach()
  if(ARG_REGISTERED_TEST)
    string(REPLACE ";" " " list "${suites}")
    add_test(NAME ${ARG_REGISTERED_TEST}
      COMMAND sh -c "list=$($<TARGET_FILE:${ARG_RUNNER}> --list); for s in ${list}; do echo \"$list\" | grep -qx \"$s\" || { echo \"suite $s not registered\"; exit 1; }; done")
  endif()
endfunction()
