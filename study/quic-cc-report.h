/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_REPORT_H
#define QUIC_CC_REPORT_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * Nearest-rank quantile of a sample: the smallest value with at least a fraction \p q of the
 * sample at or below it (q in (0, 1]; NaN for an empty sample).
 */
double QuicCcQuantile(std::vector<double> sample, double q);

/// Median of a sample, the mean of the two middle values for an even count; NaN if empty.
double QuicCcMedian(std::vector<double> sample);

/// Arithmetic mean; NaN if empty.
double QuicCcMean(const std::vector<double>& sample);

/**
 * Wilson score interval (95 %) for a binomial proportion: \p k successes in \p n trials
 * (E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
 * JASA 22, 1927). Returns {0, 1} for n = 0.
 */
std::pair<double, double> QuicCcWilsonInterval(uint32_t k, uint32_t n);

/// Jain's fairness index (sum x)^2 / (n sum x^2) (R. Jain, D. Chiu, W. Hawe, DEC-TR-301, 1984);
/// undefined (nullopt) for an empty or all-zero vector (0 / 0: no share to compare).
std::optional<double> QuicCcJainIndex(const std::vector<double>& x);

/// \p v in fixed notation with \p precision decimals; "-" for NaN.
std::string QuicCcFormat(double v, int precision = 2);

/// The Wilson interval of \p k in \p n (QuicCcWilsonInterval) in percent, one decimal:
/// "[lo, hi]".
std::string QuicCcFormatWilson(uint32_t k, uint32_t n);

/**
 * The rows of each configuration of a batch, in their order: element c holds the rows whose
 * `config` member (the configuration's index) is c, for c < \p configs.
 */
template <typename Row>
std::vector<std::vector<const Row*>>
QuicCcRowsByConfig(const std::vector<Row>& rows, size_t configs)
{
    std::vector<std::vector<const Row*>> byConfig(configs);
    for (const Row& row : rows)
    {
        byConfig.at(row.config).push_back(&row);
    }
    return byConfig;
}

} // namespace ns3

#endif // QUIC_CC_REPORT_H
