# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
#
# quic-cc for waf-based ns-3 (<= 3.35): copy this directory to ns-3.xx/contrib/quic-cc (or
# src/quic-cc) and run ./waf configure --enable-examples --enable-tests && ./waf build.
# ns-3 >= 3.36 uses CMakeLists.txt instead.
#
# The file lists below must match CMakeLists.txt (sources, headers), test/*.cc without
# test-runner-main.cc (the standalone runner) and examples/*.cc; the ctest
# "wscript-matches-cmake" (scripts/check-wscript.py) fails when they drift apart.

# ns-3 modules quic-cc links (CMakeLists.txt: QUICCC_NS3_LIBS and the in-tree build_lib call).
QUICCC_DEPENDENCIES = [
    'core',
    'network',
    'internet',
    'applications',
    'point-to-point',
    'traffic-control',
    'flow-monitor',
]

# Examples-side support: every study/*.cc (CMakeLists.txt globs the same files into the static
# library quic-cc-study). waf compiles them into the test library and into each example
# (examples/wscript), so a new study file is added by creating it, in no list.
def study_sources(bld):
    return bld.path.ant_glob('study/*.cc')


def configure(conf):
    # The qlog writer uses nlohmann-json (header-only; Debian/Ubuntu: nlohmann-json3-dev).
    have_json = conf.check_nonfatal(header_name='nlohmann/json.hpp',
                                    define_name='HAVE_NLOHMANN_JSON')
    conf.env['ENABLE_QUICCC'] = bool(have_json)
    conf.report_optional_feature('quic-cc', 'quic-cc (QUIC congestion control)',
                                 conf.env['ENABLE_QUICCC'],
                                 'nlohmann/json.hpp not found (nlohmann-json >= 3)')
    if not conf.env['ENABLE_QUICCC']:
        conf.env['MODULES_NOT_BUILT'].append('quic-cc')


def build(bld):
    if 'quic-cc' in bld.env['MODULES_NOT_BUILT']:
        return

    module = bld.create_ns3_module('quic-cc', QUICCC_DEPENDENCIES)
    module.source = [
        'model/quic-cc-attribute-copy.cc',
        'model/quic-cc-flow-control.cc',
        'model/quic-rtt-stats.cc',
        'model/quic-congestion-controller.cc',
        'model/quic-hystart-plus-plus.cc',
        'model/quic-cc-pacer.cc',
        'model/quic-prr.cc',
        'model/quic-reno.cc',
        'model/quic-cubic.cc',
        'model/quic-cc-ecn.cc',
        'model/quic-loss-detection.cc',
        'model/quic-cc-frames.cc',
        'model/quic-cc-range-set.cc',
        'model/quic-cc-recv-stream.cc',
        'model/quic-cc-send-stream.cc',
        'model/quic-cc-received-packet-manager.cc',
        'model/quic-cc-packet-builder.cc',
        'model/quic-cc-dispatcher.cc',
        'model/quic-cc-path-mtu.cc',
        'model/quic-cc-socket-base.cc',
        'model/quic-cc-connection.cc',
        'model/quic-cc-socket.cc',
        'model/quic-cc-socket-attributes.cc',
        'model/quic-cc-atomic-file.cc',
        'model/quic-cc-qlog.cc',
        'model/quic-cc-socket-factory-base.cc',
        'model/quic-cc-socket-factory.cc',
        'helper/quic-cc-helper.cc',
        'helper/quic-cc-ngtcp2-profile.cc',
    ]

    module_test = bld.create_ns3_module_test_library('quic-cc')
    module_test.source = [
        'test/quic-cc-chaos-test-suite.cc',
        'test/quic-cc-death-spiral-test-suite.cc',
        'test/quic-cc-dumbbell-test-suite.cc',
        'test/quic-cc-hystart-lab-test-suite.cc',
        'test/quic-cc-idle-test-suite.cc',
        'test/quic-cc-many-sockets-test-suite.cc',
        'test/quic-cc-observability-test-suite.cc',
        'test/quic-cc-path-mtu-test-suite.cc',
        'test/quic-cc-response-function-test-suite.cc',
        'test/quic-cc-socket-contract-test-suite.cc',
        'test/quic-cc-test-topology.cc',
        'test/quic-cc-transport-test-suite.cc',
    ] + study_sources(bld)
    module_test.includes = ['study']

    headers = bld(features='ns3header')
    headers.module = 'quic-cc'
    headers.source = [
        'model/quic-cc-compat.h',
        'model/quic-cc-config-accessor.h',
        'model/quic-cc-attribute-copy.h',
        'model/quic-cc-flow-control.h',
        'model/quic-rtt-stats.h',
        'model/quic-congestion-controller.h',
        'model/quic-hystart-plus-plus.h',
        'model/quic-cc-pacer.h',
        'model/quic-prr.h',
        'model/quic-reno.h',
        'model/quic-cubic.h',
        'model/quic-cc-ack-range.h',
        'model/quic-cc-sent-frames.h',
        'model/quic-cc-ecn.h',
        'model/quic-loss-detection.h',
        'model/quic-cc-frames.h',
        'model/quic-cc-range-set.h',
        'model/quic-cc-recv-stream.h',
        'model/quic-cc-send-stream.h',
        'model/quic-cc-received-packet-manager.h',
        'model/quic-cc-packet-builder.h',
        'model/quic-cc-dispatcher.h',
        'model/quic-cc-path-mtu.h',
        'model/quic-cc-connection.h',
        'model/quic-cc-socket-base.h',
        'model/quic-cc-socket.h',
        'model/quic-cc-atomic-file.h',
        'model/quic-cc-qlog.h',
        'model/quic-cc-socket-factory-base.h',
        'model/quic-cc-socket-factory.h',
        'helper/quic-cc-helper.h',
        'helper/quic-cc-ngtcp2-profile.h',
    ]

    if bld.env['ENABLE_EXAMPLES']:
        bld.recurse('examples')
