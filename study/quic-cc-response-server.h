/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef QUIC_CC_RESPONSE_SERVER_H
#define QUIC_CC_RESPONSE_SERVER_H

#include "quic-cc-server-application.h"

#include "ns3/callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// \ingroup quic-cc
/// Byte \p offset of response \p index: what QuicCcResponseServer sends and QuicCcRequestClient
/// checks (a pattern that differs between responses and along one).
uint8_t QuicCcResponseByte(uint32_t index, uint64_t offset);

/**
 * \ingroup quic-cc
 * The server of a request/response exchange: listens on \p local, accepts one connection and,
 * for every requestBytes it reads, writes one response of responseBytes in ONE Send (bytes by
 * QuicCcResponseByte); a response that does not fit the free send buffer waits for space
 * (QuicCcSocketWriter). The accepted socket (the data sender) is handed to \p onAccept.
 */
class QuicCcResponseServer : public QuicCcServerApplication
{
  public:
    static TypeId GetTypeId();

    void Setup(const std::string& socketFactory,
               const Address& local,
               uint64_t requestBytes,
               uint64_t responseBytes,
               Callback<void, Ptr<Socket>> onAccept);

  protected:
    void DoDispose() override;

  private:
    void OnAccepted(Ptr<Socket> socket) override;
    void OnRecv(Ptr<Socket> socket);

    uint64_t m_requestBytes{0};
    uint64_t m_responseBytes{0};
    Callback<void, Ptr<Socket>> m_onAccept;
    uint64_t m_requestOffset{0}; //!< bytes of the open request so far
    uint32_t m_responses{0};     //!< responses written
};

} // namespace ns3

#endif // QUIC_CC_RESPONSE_SERVER_H
