/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transfer-bench-harness.h"

#include "quic-cc-batch-runner.h"

#include "ns3/abort.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

using ns3::QuicCcRunBatch;

namespace transferbench
{

namespace
{

std::string g_self; //!< path of this executable

/**
 * Fault in every page of every readable file mapping of this process (the ns-3 and quic-cc
 * libraries, the C++ runtime). A worker forked from the parent starts without the parent's file
 * pages in its resident set and would count each library page it touches as its own; with all
 * of them resident from the start in every worker (idle one included), the peak resident set
 * above the idle worker's is what the simulation itself allocated, as in a freshly started
 * process.
 */
void
TouchMappedFiles()
{
    std::ifstream maps("/proc/self/maps");
    std::string line;
    const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    while (std::getline(maps, line))
    {
        std::istringstream is(line);
        std::string range;
        std::string perms;
        std::string offset;
        std::string dev;
        std::string inode;
        std::string path;
        is >> range >> perms >> offset >> dev >> inode >> path;
        if (path.empty() || path[0] != '/' || perms[0] != 'r')
        {
            continue;
        }
        const uintptr_t begin = std::stoull(range.substr(0, range.find('-')), nullptr, 16);
        const uintptr_t end = std::stoull(range.substr(range.find('-') + 1), nullptr, 16);
        for (uintptr_t a = begin; a < end; a += page)
        {
            (void)*reinterpret_cast<const volatile char*>(a);
        }
    }
}

/// The outcome of \p spec as one line ("RESULT completed sim events wall wallRun received cpu
/// rss").
std::string
RunToLine(const Spec& spec)
{
    TouchMappedFiles();
    const Outcome out = RunSpec(spec);
    struct rusage ru;
    std::memset(&ru, 0, sizeof(ru));
    getrusage(RUSAGE_SELF, &ru);
    std::ostringstream os;
    os << std::setprecision(9) << "RESULT " << out.completed << " " << out.simSeconds << " "
       << out.events << " " << out.wallTotal << " " << out.wallRun << " " << out.received << " "
       << out.cpuTotal << " " << ru.ru_maxrss;
    return os.str();
}
} // namespace

void
SetSelfPath()
{
    char selfPath[4096];
    const ssize_t len = readlink("/proc/self/exe", selfPath, sizeof(selfPath) - 1);
    NS_ABORT_MSG_IF(len <= 0, "transfer-bench: cannot read /proc/self/exe");
    selfPath[len] = '\0';
    g_self = selfPath;
}

Outcome
Spawn(const Spec& spec)
{
    const std::string line =
        QuicCcRunBatch(1, 1, [&spec](size_t) { return RunToLine(spec); }).front();
    Outcome out;
    std::istringstream is(line.substr(line.find("RESULT ") + 7));
    int completed = 0;
    is >> completed >> out.simSeconds >> out.events >> out.wallTotal >> out.wallRun >>
        out.received >> out.cpuTotal >> out.maxRssKb;
    out.completed = completed != 0;
    return out;
}

/// --child: one measurement in this process (for perf, valgrind and by-hand runs).
int
ChildMain(const Spec& spec)
{
    std::cout << RunToLine(spec) << std::endl;
    return 0;
}

Profile
ProfileRun(const Spec& spec)
{
    char dir[] = "/tmp/transfer-bench-XXXXXX";
    NS_ABORT_MSG_IF(!mkdtemp(dir), "transfer-bench: mkdtemp failed: " << std::strerror(errno));
    const std::string out = std::string(dir) + "/callgrind.out";
    std::ostringstream cmd;
    cmd << "valgrind --tool=callgrind --callgrind-out-file=" << out << " " << g_self
        << " --child --proto=" << spec.proto << " --bytes=" << spec.bytes
        << " --conns=" << spec.conns << " --dumbbell=" << spec.dumbbell << " --loss=" << spec.loss
        << " --fullOnly=" << spec.fullOnly << " > /dev/null 2>&1";
    const int rc = std::system(cmd.str().c_str());
    NS_ABORT_MSG_IF(rc != 0,
                    "transfer-bench: '" << cmd.str() << "' failed (status " << rc
                                        << "); is valgrind installed (Debian package valgrind)?");
    const Profile p = TransportOwnShare(out, IsTcp(spec.proto));
    std::remove(out.c_str());
    rmdir(dir);
    return p;
}

} // namespace transferbench
