/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_REQUEST_CLIENT_H
#define QUIC_CC_REQUEST_CLIENT_H

#include "quic-cc-client-application.h"

#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup quic-cc
 * The client of a request/response exchange over one connection (HTTP/3 keep-alive): once the
 * connection is established it writes a request of requestBytes, reads the whole response of
 * responseBytes (checking every byte against QuicCcResponseByte), waits a think time drawn from
 * \p think, and repeats, \p requests times. The response time of a request runs from its write to
 * its last response byte (a request that does not fit the free send buffer waits for space,
 * QuicCcSocketWriter). The server is QuicCcResponseServer.
 */
class QuicCcRequestClient : public QuicCcClientApplication
{
  public:
    static TypeId GetTypeId();

    /// \p think gives the think time in seconds (e.g. ConstantRandomVariable or
    /// ExponentialRandomVariable; its stream is the caller's to assign)
    void Setup(const std::string& socketFactory,
               const Address& peer,
               uint64_t requestBytes,
               uint64_t responseBytes,
               Ptr<RandomVariableStream> think,
               uint32_t requests);

    /// \return the response time of each completed request, s
    const std::vector<double>& GetResponseTimes() const;
    /// \return the time each request was written, s
    const std::vector<double>& GetRequestTimes() const;
    /// \return response bytes that differed from what the server sent (0 = byte-exact)
    uint64_t GetCorruptBytes() const;
    /// \return response bytes received in total
    uint64_t GetResponseBytesReceived() const;

  protected:
    void DoDispose() override;

  private:
    void OnEstablished() override;
    void SendRequest();
    void OnRecv(Ptr<Socket> socket);

    uint64_t m_requestBytes{0};
    uint64_t m_responseBytes{0};
    Ptr<RandomVariableStream> m_think;
    uint32_t m_requests{0};
    double m_requestTime{0};      //!< write time of the open request, s
    uint64_t m_responseOffset{0}; //!< bytes of the open response so far
    uint64_t m_totalReceived{0};
    uint64_t m_corrupt{0};
    std::vector<double> m_responseTimes;
    std::vector<double> m_requestTimes;
};

} // namespace ns3

#endif // QUIC_CC_REQUEST_CLIENT_H
