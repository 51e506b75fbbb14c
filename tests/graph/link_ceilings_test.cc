#include "graph/link_ceilings.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {
constexpr int kSdr = static_cast<int>(LinkSpeed::SDR), kDdr = static_cast<int>(LinkSpeed::DDR),
              kQdr = static_cast<int>(LinkSpeed::QDR), kFdr = static_cast<int>(LinkSpeed::FDR),
              kEdr = static_cast<int>(LinkSpeed::EDR);

FabricNode node(NodeKind kind, uint32_t vendor, uint32_t device) {
  FabricNode n;
  n.kind = kind;
  n.vendor_id = vendor;
  n.device_id = device;
  return n;
}
}  // namespace

TEST_CASE("judge: both ends known, the cable against the slower end's best") {
  // 3.topo's r-ufm96 HCA-1: a ConnectX-4 (EDR) on a SwitchX (FDR) at SDR is below FDR.
  Judged j = judge(kSdr, kEdr, kFdr, 0);
  CHECK(j.verdict == RateVerdict::Below);
  CHECK(j.target == kFdr);
  CHECK(j.both_known);
  // A DDR ConnectX on a QDR switch at DDR runs as fast as it can.
  CHECK(judge(kDdr, kDdr, kQdr, 0).verdict == RateVerdict::AtBest);
  // Faster than an end's best contradicts the evidence: no judgement from it.
  CHECK(judge(kEdr, kDdr, kQdr, 0).verdict == RateVerdict::Unknown);
  CHECK(judge(0, kDdr, kQdr, 0).verdict == RateVerdict::AtBest);  // the input says no rate
}

TEST_CASE("judge: one end unknown, never the fabric's fastest assumed") {
  // psmn X5: a DDR ConnectX on a Voltaire switch no table knows, at DDR: its own best.
  Judged at = judge(kDdr, kDdr, 0, 0);
  CHECK(at.verdict == RateVerdict::AtBest);
  CHECK_FALSE(at.both_known);
  // Below the known end's best, the unknown end may be why: judged by the peers instead.
  CHECK(judge(1, 4, 0, 0).verdict == RateVerdict::Unknown);
  CHECK(judge(kSdr, 0, 0, 0).verdict == RateVerdict::Unknown);
}

TEST_CASE("judge: the site's expectation, capped by what both ends support") {
  CHECK(judge(kDdr, kDdr, kQdr, kQdr).verdict == RateVerdict::AtBest);  // a DDR HCA when the site expects QDR
  CHECK(judge(kSdr, kDdr, kQdr, kQdr).verdict == RateVerdict::Below);
  CHECK(judge(kSdr, kDdr, kQdr, kQdr).target == kDdr);
  CHECK(judge(kQdr, 0, 0, kFdr).verdict == RateVerdict::Below);           // nothing known: the site stands
  CHECK(judge(kQdr, kFdr, kFdr, kQdr).verdict == RateVerdict::AtBest);    // run slower on purpose
}

TEST_CASE("end ceiling: PortInfo narrows the device table, never raises it") {
  LinkEnd end;
  const FabricNode cx3 = node(NodeKind::Ca, 0x2c9, 0x1003);
  EndCeiling table = end_ceiling(cx3, end);
  CHECK(table.speed == LinkSpeed::FDR);
  CHECK(table.width == 4);
  CHECK(table.label() == "ConnectX-3 0x1003");
  CHECK_FALSE(table.port_info);
  end.speed_supported = LinkSpeed::QDR;  // a QDR-only ConnectX-3 card
  end.width_supported = 12;              // ibsim answers 12x on every port
  EndCeiling narrowed = end_ceiling(cx3, end);
  CHECK(narrowed.speed == LinkSpeed::QDR);
  CHECK(narrowed.width == 4);
  CHECK(narrowed.port_info);
  // Without a known model, PortInfo alone decides.
  EndCeiling alone = end_ceiling(node(NodeKind::Switch, 0x8f1, 0x5a5a), end);
  CHECK(alone.speed == LinkSpeed::QDR);
  CHECK(alone.width == 12);
  EndCeiling none = end_ceiling(node(NodeKind::Switch, 0x8f1, 0x5a5a), LinkEnd{});
  CHECK(none.speed == LinkSpeed::Unknown);
  CHECK(none.width == 0);
  CHECK(none.label() == "vendor 0x0008f1 device 0x5a5a");
}

TEST_CASE("rate text") {
  CHECK(rate_text(4, LinkSpeed::FDR) == "4xFDR");
  CHECK(rate_text(4, LinkSpeed::Unknown) == "4x");
  CHECK(rate_text(0, LinkSpeed::DDR) == "DDR");
}
