/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Standalone runner for the quic-cc ns-3 TestSuites (the same suites test.py runs in-tree).
 * Usage: quic-cc-test-runner --test-name=quic-cc-transport [--verbose] | --list
 */
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
