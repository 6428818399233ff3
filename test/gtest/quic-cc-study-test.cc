/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Unit tests of the examples-side support (study/): the batch runner and report formatting.
 */
#include "quic-cc-batch-runner.h"
#include "quic-cc-command-line.h"
#include "quic-cc-loss-phases.h"
#include "quic-cc-output-file.h"
#include "quic-cc-report.h"

#include "ns3/quic-cc-atomic-file.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace
{

using ns3::QuicCcRunBatch;

/// Set by tasks: must never change in the parent (tasks run in forked copies).
int g_touchedByTask = 0;

TEST(QuicCcBatchRunner, NoTasksForksNothing)
{
    bool called = false;
    EXPECT_TRUE(QuicCcRunBatch(0, 2, [&](size_t) {
                    called = true;
                    return std::string("x");
                }).empty());
    EXPECT_FALSE(called);
}

TEST(QuicCcBatchRunner, ResultsInTaskOrderWhateverTheWorkers)
{
    // 7 tasks over 1, 2, 3 and more workers than tasks: element i always comes from task i.
    for (uint32_t workers : {1u, 2u, 3u, 16u})
    {
        const std::vector<std::string> lines =
            QuicCcRunBatch(7, workers, [](size_t i) { return "task " + std::to_string(i * i); });
        ASSERT_EQ(lines.size(), 7u) << workers << " workers";
        for (size_t i = 0; i < lines.size(); ++i)
        {
            EXPECT_EQ(lines[i], "task " + std::to_string(i * i)) << workers << " workers";
        }
    }
}

TEST(QuicCcBatchRunner, TasksRunInSeparateProcesses)
{
    const pid_t parent = getpid();
    const std::vector<std::string> pids = QuicCcRunBatch(4, 2, [&](size_t i) {
        g_touchedByTask = 1; // only in the worker's copy
        return std::to_string(getpid()) + " " + std::to_string(getpid() == parent);
    });
    EXPECT_EQ(g_touchedByTask, 0);
    std::set<std::string> distinct;
    for (const std::string& line : pids)
    {
        EXPECT_EQ(line.substr(line.find(' ') + 1), "0") << "a task ran in the parent";
        distinct.insert(line.substr(0, line.find(' ')));
    }
    // Worker w runs tasks w, w + 2: two processes, each with two tasks.
    EXPECT_EQ(distinct.size(), 2u);
    EXPECT_EQ(pids[0].substr(0, pids[0].find(' ')), pids[2].substr(0, pids[2].find(' ')));
    EXPECT_EQ(pids[1].substr(0, pids[1].find(' ')), pids[3].substr(0, pids[3].find(' ')));
}

TEST(QuicCcBatchRunner, EmptyAndSpacedResultsArriveIntact)
{
    const std::vector<std::string> lines = QuicCcRunBatch(3, 2, [](size_t i) {
        return i == 1 ? std::string() : std::string(i + 1, ' ') + "a b\tc";
    });
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], " a b\tc");
    EXPECT_EQ(lines[1], "");
    EXPECT_EQ(lines[2], "   a b\tc");
}

TEST(QuicCcBatchRunner, LongResultsCrossSeveralPipeReads)
{
    // 100 kB per line: more than one read() and more than the pipe buffer.
    const std::vector<std::string> lines = QuicCcRunBatch(3, 3, [](size_t i) {
        return std::string(100000, static_cast<char>('a' + i));
    });
    ASSERT_EQ(lines.size(), 3u);
    for (size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(lines[i], std::string(100000, static_cast<char>('a' + i)));
    }
}

TEST(QuicCcBatchRunner, ProgressLinesAtEachTenthAndEveryInterval)
{
    // 20 tasks: a line at each tenth (every 2 runs; the others take 50 ms each); task 0 takes
    // 1.2 s, so the 0.3 s interval brings lines while nothing finishes.
    ns3::QuicCcBatchReport report;
    report.program = "prog";
    report.progress = ns3::QuicCcProgress::LINES;
    report.progressInterval = std::chrono::milliseconds(300);
    testing::internal::CaptureStderr();
    QuicCcRunBatch(
        20,
        1,
        [](size_t i) {
            usleep(i == 0 ? 1200000 : 50000);
            return std::string("ok");
        },
        report);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.find('\r'), std::string::npos);
    ASSERT_FALSE(err.empty());
    EXPECT_EQ(err.back(), '\n');
    std::istringstream in(err);
    std::vector<size_t> done;
    for (std::string line; std::getline(in, line);)
    {
        size_t n = 0;
        long s = 0;
        ASSERT_EQ(std::sscanf(line.c_str(), "prog: %zu/20 runs done, %ld s elapsed", &n, &s), 2)
            << line;
        done.push_back(n);
    }
    EXPECT_GE(std::count(done.begin(), done.end(), 0), 3) << err; // the interval, while waiting
    // Then one line per tenth reached (two results may arrive in one read: a tenth skipped).
    std::vector<size_t> tenths;
    for (size_t n : done)
    {
        if (n > 0)
        {
            tenths.push_back(n * 10 / 20);
        }
    }
    EXPECT_GE(tenths.size(), 5u) << err;
    EXPECT_TRUE(std::adjacent_find(tenths.begin(), tenths.end(), std::greater_equal<>()) ==
                tenths.end())
        << err;
    EXPECT_EQ(done.back(), 20u);
}

TEST(QuicCcBatchRunner, NoProgressPrintsNothing)
{
    testing::internal::CaptureStderr();
    QuicCcRunBatch(3, 2, [](size_t) { return std::string("ok"); });
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(QuicCcBatchRunnerDeathTest, FailingWorkerIsOneLineNamingTheRun)
{
    // Worker 1 dies before its second result, task 3: exit 1 and one line, nothing else.
    EXPECT_EXIT(QuicCcRunBatch(4,
                               2,
                               [](size_t i) {
                                   if (i == 3)
                                   {
                                       _exit(3);
                                   }
                                   return std::string("ok");
                               }),
                ::testing::ExitedWithCode(1),
                "^QuicCcRunBatch: run 4 of 4: the worker exited with status 3\n$");
}

TEST(QuicCcBatchRunnerDeathTest, KilledWorkerNamesTheSignal)
{
    ns3::QuicCcBatchReport report;
    report.program = "prog";
    report.describe = [](size_t i) { return "cubic, RngRun " + std::to_string(i + 7); };
    EXPECT_EXIT(QuicCcRunBatch(
                    2,
                    1,
                    [](size_t i) {
                        if (i == 1)
                        {
                            raise(SIGKILL);
                        }
                        return std::string("ok");
                    },
                    report),
                ::testing::ExitedWithCode(1),
                "^prog: run 2 of 2 \\(cubic, RngRun 8\\): the worker died of signal 9 "
                "\\(Killed\\)\n$");
}

TEST(QuicCcBatchRunnerDeathTest, ReportedFailuresAreOneLine)
{
    // An output the worker cannot write (QuicCcOutputFailed), an exception, a newline.
    EXPECT_EXIT(QuicCcRunBatch(3,
                               1,
                               [](size_t i) {
                                   if (i == 2)
                                   {
                                       ns3::QuicCcOutputFailed("cannot write q/x.sqlog: No space");
                                   }
                                   return std::string("ok");
                               }),
                ::testing::ExitedWithCode(1),
                "^QuicCcRunBatch: run 3 of 3: cannot write q/x.sqlog: No space\n$");
    EXPECT_EXIT(QuicCcRunBatch(2,
                               2,
                               [](size_t i) {
                                   if (i == 0)
                                   {
                                       throw std::runtime_error("bad\nthing");
                                   }
                                   return std::string("ok");
                               }),
                ::testing::ExitedWithCode(1),
                "^QuicCcRunBatch: run 1 of 2: bad thing\n$");
    EXPECT_EXIT(QuicCcRunBatch(2, 1, [](size_t i) { return std::string(i ? "a\nb" : "a"); }),
                ::testing::ExitedWithCode(1),
                "^QuicCcRunBatch: run 2 of 2: its result contains a newline\n$");
}

TEST(QuicCcBatchRunnerDeathTest, FailureStopsTheOtherWorkers)
{
    // Worker 1's task would take a minute; worker 0's failure ends the batch at once.
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EXIT(QuicCcRunBatch(2,
                               2,
                               [](size_t i) {
                                   if (i == 1)
                                   {
                                       sleep(60);
                                   }
                                   else
                                   {
                                       usleep(200000);
                                       ns3::QuicCcOutputFailed("cannot write x: reason");
                                   }
                                   return std::string("ok");
                               }),
                ::testing::ExitedWithCode(1),
                "^QuicCcRunBatch: run 1 of 2: cannot write x: reason\n$");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST(QuicCcBatchRunnerDeathTest, FailureKeepsTheFinishedRows)
{
    // The rows of runs 1 and 2 were written when run 3 failed: kept in <csv>.partial.
    const std::string csv = std::filesystem::temp_directory_path() /
                            ("quic-cc-batch-partial-" + std::to_string(getpid()) + ".csv");
    const auto run = [&]() {
        ns3::QuicCcOutputFile out("prog", csv, "run\n");
        ns3::QuicCcBatchReport report;
        report.program = "prog";
        QuicCcRunBatch(
            4,
            1,
            [](size_t i) {
                if (i == 2)
                {
                    ns3::QuicCcOutputFailed("cannot write q: full");
                }
                return std::to_string(i + 1);
            },
            report,
            [&](size_t, const std::string& line) { out.Write(line + "\n"); });
    };
    EXPECT_EXIT(run(),
                ::testing::ExitedWithCode(1),
                "^prog: run 3 of 4: cannot write q: full; the 2 row\\(s\\) written before it are "
                "in .*\\.csv\\.partial\n$");
    std::ifstream partial(csv + ".partial");
    std::stringstream text;
    text << partial.rdbuf();
    EXPECT_EQ(text.str(), "run\n1\n2\n");
    EXPECT_FALSE(std::filesystem::exists(csv));
    std::filesystem::remove(csv + ".partial");
}

TEST(QuicCcLossPhasesDeathTest, StartBeforeAssignStreamsIsFatal)
{
    ns3::QuicCcLossPhases loss(0.01, ns3::Seconds(1), ns3::Seconds(3));
    EXPECT_DEATH(loss.Start(), "loss phases: AssignStreams before Start");
}

TEST(QuicCcReport, NearestRankQuantile)
{
    const std::vector<double> v{5, 1, 4, 2, 3};
    EXPECT_EQ(ns3::QuicCcQuantile(v, 0.5), 3);
    EXPECT_EQ(ns3::QuicCcQuantile(v, 0.9), 5);  // rank ceil(4.5) = 5
    EXPECT_EQ(ns3::QuicCcQuantile(v, 0.2), 1);  // rank 1
    EXPECT_EQ(ns3::QuicCcQuantile(v, 0.21), 2); // rank ceil(1.05) = 2
    EXPECT_EQ(ns3::QuicCcQuantile(v, 1.0), 5);
    EXPECT_TRUE(std::isnan(ns3::QuicCcQuantile({}, 0.5)));
}

TEST(QuicCcReport, MedianAndMean)
{
    EXPECT_EQ(ns3::QuicCcMedian({3, 1, 2}), 2);
    EXPECT_EQ(ns3::QuicCcMedian({4, 1, 2, 3}), 2.5);
    EXPECT_EQ(ns3::QuicCcMean({1, 2, 6}), 3);
    EXPECT_TRUE(std::isnan(ns3::QuicCcMedian({})));
    EXPECT_TRUE(std::isnan(ns3::QuicCcMean({})));
}

TEST(QuicCcReport, WilsonInterval)
{
    // Reference values: Wilson (1927) score interval at z = 1.959964 (95 %).
    auto [lo, hi] = ns3::QuicCcWilsonInterval(5, 100);
    EXPECT_NEAR(lo, 0.02154, 1e-5);
    EXPECT_NEAR(hi, 0.11175, 1e-5);
    std::tie(lo, hi) = ns3::QuicCcWilsonInterval(0, 100);
    EXPECT_NEAR(lo, 0, 1e-12);
    EXPECT_NEAR(hi, 0.03699, 1e-5);
    std::tie(lo, hi) = ns3::QuicCcWilsonInterval(100, 100);
    EXPECT_NEAR(lo, 0.96301, 1e-5);
    EXPECT_NEAR(hi, 1, 1e-12);
    std::tie(lo, hi) = ns3::QuicCcWilsonInterval(0, 0);
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, 1);
}

TEST(QuicCcReport, Format)
{
    EXPECT_EQ(ns3::QuicCcFormat(1.005, 1), "1.0");
    EXPECT_EQ(ns3::QuicCcFormat(2.5), "2.50");
    EXPECT_EQ(ns3::QuicCcFormat(1234.5678, 0), "1235");
    EXPECT_EQ(ns3::QuicCcFormat(std::nan("")), "-");
}

/// A fresh scratch directory for one test.
std::filesystem::path
Scratch(const std::string& name)
{
    const auto dir = std::filesystem::temp_directory_path() /
                     ("quic-cc-study-test-" + name + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::string
ReadAll(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

TEST(QuicCcOutputFile, CommitReplacesTheFileAndLeavesNoTemporary)
{
    const auto dir = Scratch("atomic");
    const auto file = dir / "out.csv";
    {
        ns3::QuicCcOutputFile out("test", file.string(), "a,b\n");
        out.Write("1,2\n");
        // Streamed: the row is on disk before the commit, in a temporary file; out.csv is not
        // there yet.
        EXPECT_FALSE(std::filesystem::exists(file));
        EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
        out.Commit();
    }
    EXPECT_EQ(ReadAll(file), "a,b\n1,2\n");
    {
        ns3::QuicCcOutputFile out("test", file.string());
        out.Write("new\n");
        out.Commit();
    }
    EXPECT_EQ(ReadAll(file), "new\n");
    {
        // Not committed (an error elsewhere): the old file stays, the temporary file goes.
        ns3::QuicCcOutputFile out("test", file.string(), "x\n");
    }
    EXPECT_EQ(ReadAll(file), "new\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
    // Permissions as an ordinary new file: 0666 less the umask (not mkstemp's 0600).
    const mode_t mask = umask(0);
    umask(mask);
    struct stat st;
    ASSERT_EQ(stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);
    std::filesystem::remove_all(dir);
}

TEST(QuicCcOutputFile, PathChecksNameTheOptionAndThePath)
{
    const auto dir = Scratch("check");
    EXPECT_NO_THROW(ns3::QuicCcCheckOutputFile("csv", (dir / "x.csv").string()));
    EXPECT_FALSE(std::filesystem::exists(dir / "x.csv"));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0);
    try
    {
        ns3::QuicCcCheckOutputFile("csv", (dir / "missing" / "x.csv").string());
        ADD_FAILURE() << "no error for a missing directory";
    }
    catch (const ns3::QuicCcUsageError& e)
    {
        EXPECT_EQ(e.option, "csv");
        EXPECT_EQ(e.value, (dir / "missing" / "x.csv").string());
        EXPECT_EQ(e.reason, "directory " + (dir / "missing").string() + " does not exist");
    }
    EXPECT_THROW(ns3::QuicCcCheckOutputFile("csv", dir.string()), ns3::QuicCcUsageError);
    EXPECT_NO_THROW(ns3::QuicCcCheckOutputDirectory("qlog", (dir / "new").string()));
    EXPECT_FALSE(std::filesystem::exists(dir / "new"));
    EXPECT_THROW(ns3::QuicCcCheckOutputDirectory("qlog", (dir / "a" / "b").string()),
                 ns3::QuicCcUsageError);
    std::filesystem::remove_all(dir);
}

TEST(QuicCcCommandLineValues, LossTakesPercentOrFraction)
{
    EXPECT_DOUBLE_EQ(ns3::QuicCcParseLoss("loss", "30%"), 0.3);
    EXPECT_EQ(ns3::QuicCcParseLoss("loss", "30%"), 0.3); // same double as the fraction
    EXPECT_EQ(ns3::QuicCcParseLoss("loss", "0.3"), 0.3);
    EXPECT_EQ(ns3::QuicCcParseLoss("loss", "0"), 0);
    EXPECT_EQ(ns3::QuicCcParseLoss("loss", "1"), 1);
    EXPECT_EQ(ns3::QuicCcParseLoss("loss", "100%"), 1);
    EXPECT_THROW(ns3::QuicCcParseLoss("loss", "30"), ns3::QuicCcUsageError);
    EXPECT_THROW(ns3::QuicCcParseLoss("loss", "-0.1"), ns3::QuicCcUsageError);
    EXPECT_THROW(ns3::QuicCcParseLoss("loss", "101%"), ns3::QuicCcUsageError);
    EXPECT_THROW(ns3::QuicCcParseLoss("loss", "0.3 "), ns3::QuicCcUsageError);
}

TEST(QuicCcCommandLineValues, NumbersTimesRatesSizes)
{
    EXPECT_EQ(ns3::QuicCcParseUnsigned("runs", "100", 1, 1000), 100u);
    EXPECT_THROW(ns3::QuicCcParseUnsigned("runs", "-1", 1, 1000), ns3::QuicCcUsageError);
    EXPECT_THROW(ns3::QuicCcParseUnsigned("runs", "1e3", 1, 1000), ns3::QuicCcUsageError);
    EXPECT_THROW(ns3::QuicCcParseUnsigned("runs", "99999999999999999999", 1, 1000),
                 ns3::QuicCcUsageError);
    EXPECT_EQ(ns3::QuicCcParseTime("delay", "5ms"), ns3::MilliSeconds(5));
    EXPECT_EQ(ns3::QuicCcParseTime("delay", "0.5s"), ns3::MilliSeconds(500));
    EXPECT_THROW(ns3::QuicCcParseTime("delay", "5"), ns3::QuicCcUsageError);
    EXPECT_THROW(ns3::QuicCcParseTime("delay", "-5ms"), ns3::QuicCcUsageError);
    EXPECT_EQ(ns3::QuicCcParseRate("rate", "5Mbps").GetBitRate(), 5000000u);
    EXPECT_THROW(ns3::QuicCcParseRate("rate", "0bps"), ns3::QuicCcUsageError);
    EXPECT_EQ(ns3::QuicCcParseBytes("size", "10MB"), 10000000u);
    EXPECT_EQ(ns3::QuicCcParseBytes("size", "1234"), 1234u);
    EXPECT_THROW(ns3::QuicCcParseBytes("size", "10p"), ns3::QuicCcUsageError);
    EXPECT_THROW(ns3::QuicCcParseBytes("size", "0"), ns3::QuicCcUsageError);
}

} // namespace
