/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Standalone runner for the quic-cc ns-3 TestSuites (the same suites test.py runs in-tree).
 * Usage: quic-cc-test-runner --suite=quic-cc-reno [--verbose] | --list
 */
#include "ns3/test.h"

int
main(int argc, char** argv)
{
    return ns3::TestRunner::Run(argc, argv);
}
