/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "quic-cc-report.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

namespace ns3
{

double
QuicCcQuantile(std::vector<double> sample, double q)
{
    if (sample.empty())
    {
        return std::nan("");
    }
    std::sort(sample.begin(), sample.end());
    const size_t rank = static_cast<size_t>(std::ceil(q * sample.size()));
    return sample[std::clamp<size_t>(rank, 1, sample.size()) - 1];
}

double
QuicCcMedian(std::vector<double> sample)
{
    if (sample.empty())
    {
        return std::nan("");
    }
    std::sort(sample.begin(), sample.end());
    const size_t n = sample.size();
    return n % 2 ? sample[n / 2] : (sample[n / 2 - 1] + sample[n / 2]) / 2;
}

double
QuicCcMean(const std::vector<double>& sample)
{
    if (sample.empty())
    {
        return std::nan("");
    }
    return std::accumulate(sample.begin(), sample.end(), 0.0) / sample.size();
}

std::pair<double, double>
QuicCcWilsonInterval(uint32_t k, uint32_t n)
{
    if (n == 0)
    {
        return {0, 1};
    }
    const double z = boost::math::quantile(boost::math::normal(), 0.975);
    const double p = static_cast<double>(k) / n;
    const double denom = 1 + z * z / n;
    const double centre = (p + z * z / (2.0 * n)) / denom;
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denom;
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::optional<double>
QuicCcJainIndex(const std::vector<double>& x)
{
    double sum = 0;
    double sumSq = 0;
    for (double v : x)
    {
        sum += v;
        sumSq += v * v;
    }
    if (!(sumSq > 0))
    {
        return std::nullopt;
    }
    return sum * sum / (static_cast<double>(x.size()) * sumSq);
}

std::string
QuicCcFormat(double v, int precision)
{
    if (std::isnan(v))
    {
        return "-";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(precision) << v;
    return os.str();
}

std::string
QuicCcFormatWilson(uint32_t k, uint32_t n)
{
    const auto [lo, hi] = QuicCcWilsonInterval(k, n);
    return "[" + QuicCcFormat(100 * lo, 1) + ", " + QuicCcFormat(100 * hi, 1) + "]";
}

} // namespace ns3
