/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "callgrind-profile.h"

#include "ns3/abort.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace transferbench
{

Profile
TransportOwnShare(const std::string& path, bool tcp)
{
    std::ifstream in(path);
    NS_ABORT_MSG_UNLESS(in, "transfer-bench: cannot read callgrind output " << path);
    std::map<std::string, std::string> objects;
    std::map<std::string, std::string> functions;
    std::map<std::string, std::string> files;
    // "(id) name" defines id, "(id)" refers to it.
    auto name = [](std::map<std::string, std::string>& table, const std::string& v) {
        if (v.empty() || v[0] != '(')
        {
            return v;
        }
        const size_t close = v.find(')');
        const std::string id = v.substr(0, close + 1);
        if (close + 1 < v.size())
        {
            table[id] = v.substr(close + 2);
        }
        return table[id];
    };
    auto inLibrary = [tcp](const std::string& ob, const std::string& fn) {
        return tcp ? fn.rfind("ns3::Tcp", 0) == 0 : ob.find("libns3-quic-cc") != std::string::npos;
    };
    // Installed or in-tree, ns-3's headers are included as "ns3/...".
    auto isNs3Header = [](const std::string& file) {
        return file.find("/ns3/") != std::string::npos;
    };
    auto isRuntime = [](const std::string& ob) {
        return ob.find("libc.so") != std::string::npos ||
               ob.find("libstdc++") != std::string::npos ||
               ob.find("libm.so") != std::string::npos || ob.find("ld-linux") != std::string::npos;
    };
    Profile prof;
    std::string ob;
    std::string fl;
    std::string fn;
    bool fnNs3Header = false; // fn is defined in an ns-3 header
    std::string cob;
    bool callCost = false;  // the next cost line is a call's inclusive cost
    bool countCall = false; // ... and it counts as own code
    auto add = [&prof, &fnNs3Header](uint64_t ir) {
        prof.ownWithNs3Headers += ir;
        prof.own += fnNs3Header ? 0 : ir;
    };
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty())
        {
            continue;
        }
        const char c = line[0];
        if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*')
        {
            std::istringstream is(line);
            std::string position;
            uint64_t ir = 0;
            is >> position >> ir;
            if (callCost)
            {
                add(countCall ? ir : 0);
                callCost = false;
                cob.clear();
            }
            else if (inLibrary(ob, fn))
            {
                add(ir);
            }
            continue;
        }
        const size_t eq = line.find('=');
        const std::string key = line.substr(0, eq == std::string::npos ? 0 : eq);
        const std::string value = eq == std::string::npos ? "" : line.substr(eq + 1);
        if (key == "ob")
        {
            ob = name(objects, value);
        }
        else if (key == "fl")
        {
            fl = name(files, value);
        }
        else if (key == "fi" || key == "fe" || key == "cfi" || key == "cfl")
        {
            name(files, value); // may define an id that a later fl= refers to
        }
        else if (key == "fn")
        {
            fn = name(functions, value);
            fnNs3Header = !tcp && isNs3Header(fl);
        }
        else if (key == "cob")
        {
            cob = name(objects, value);
        }
        else if (key == "cfn")
        {
            name(functions, value);
        }
        else if (key == "calls")
        {
            callCost = true;
            countCall = inLibrary(ob, fn) && isRuntime(cob.empty() ? ob : cob);
        }
        else if (line.rfind("summary:", 0) == 0 || line.rfind("totals:", 0) == 0)
        {
            std::istringstream is(line.substr(line.find(':') + 1));
            uint64_t total = 0;
            is >> total;
            prof.total = std::max(prof.total, total);
        }
    }
    return prof;
}

} // namespace transferbench
