/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// quic-cc-report-dump: study/quic-cc-report.h's statistics on values read from stdin, for
// scripts/test_campaign.py (ctest campaign-Statistics), which checks that quic-cc-campaign's
// Python statistics (statsmodels, numpy) agree with them. One query a line:
//
//   wilson K N             -> "LOWER UPPER"   QuicCcWilsonInterval(K, N)
//   quantile Q V1 V2 ...   -> "VALUE"         QuicCcQuantile({V1, V2, ...}, Q)
//
// Values are printed with 17 significant digits (a double round-trips); a bad line exits 2.

#include "quic-cc-report.h"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int
main()
{
    std::string line;
    while (std::getline(std::cin, line))
    {
        std::istringstream in(line);
        std::string what;
        in >> what;
        if (what == "wilson")
        {
            uint32_t k = 0;
            uint32_t n = 0;
            if (!(in >> k >> n))
            {
                std::cerr << "quic-cc-report-dump: bad line: " << line << "\n";
                return 2;
            }
            const auto [lo, hi] = ns3::QuicCcWilsonInterval(k, n);
            std::printf("%.17g %.17g\n", lo, hi);
        }
        else if (what == "quantile")
        {
            double q = 0;
            std::vector<double> sample;
            if (!(in >> q))
            {
                std::cerr << "quic-cc-report-dump: bad line: " << line << "\n";
                return 2;
            }
            for (double v = 0; in >> v;)
            {
                sample.push_back(v);
            }
            std::printf("%.17g\n", ns3::QuicCcQuantile(sample, q));
        }
        else
        {
            std::cerr << "quic-cc-report-dump: bad line: " << line << "\n";
            return 2;
        }
    }
    return 0;
}
