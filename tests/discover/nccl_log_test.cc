// NCCL_DEBUG=INFO logs: what an admin reads off them — per host the network NCCL chose, the HCAs
// it bound, GPUDirect RDMA per HCA and GPU, each channel's transport, the version and CUDA
// driver, the NCCL_* settings it read, which rank sat on which GPU. The fixtures
// (tests/data/nccl/*.log, README.md there) are built from the format strings of NVIDIA/nccl's
// source; the short texts below are too, each form as the tag named beside it prints it.
#include "discover/nccl_log.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "base/input_error.h"
#include "base/lines.h"
#include "tests/read_data.h"

using namespace slurmtopo;

namespace {

const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/nccl/";

std::string read(const std::string& name) { return slurmtopo::testing::read_data(kData + name); }

NcclLog parse_fixture(const std::string& name) { return parse_nccl_log(read(name), name); }

const NcclProcess* find(const NcclLog& log, const std::string& host, long pid) {
  for (const auto& p : log.processes)
    if (p.host == host && p.pid == pid) return &p;
  return nullptr;
}

// The process that holds `rank` (its Init COMPLETE line).
const NcclProcess* holder(const NcclLog& log, int rank) {
  for (const auto& p : log.processes)
    for (const auto& r : p.ranks)
      if (r.rank == rank) return &p;
  return nullptr;
}

size_t count_channels(const NcclProcess& p, const std::string& transport, bool gdr) {
  return static_cast<size_t>(std::count_if(p.channels.begin(), p.channels.end(), [&](const NcclChannel& c) {
    return c.transport == transport && c.gdr == gdr;
  }));
}

// The lines of `text` that are NCCL's: an INFO or WARN line, or the bare version line.
int nccl_form_lines(const std::string& text) {
  LineReader lines(text);
  std::string_view line;
  int n = 0;
  while (lines.next(line))
    if (line.find(" NCCL INFO ") != std::string_view::npos || line.find(" NCCL WARN ") != std::string_view::npos ||
        line.find("NCCL version 2.") != std::string_view::npos)
      ++n;
  return n;
}

std::string error_of(const std::string& text) {
  try {
    parse_nccl_log(text, "job.log");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// One INFO line of process gpu-017:41235 on CUDA device 0.
std::string info(const std::string& msg) { return "gpu-017:41235:41324 [0] NCCL INFO " + msg + "\n"; }

NcclProcess only_process(const std::string& text) {
  const NcclLog log = parse_nccl_log(text, "job.log");
  REQUIRE(log.processes.size() == 1);
  return log.processes[0];
}

}  // namespace

TEST_CASE("NCCL log of a 2-node H100 job over IB: each process bound all 8 HCAs with GPUDirect RDMA") {
  const std::string text = read("nccl-2.21.5-2x8-h100-ib.log");
  const NcclLog log = parse_nccl_log(text, "ib.log");
  CHECK(log.source == "ib.log");
  CHECK_FALSE(log.truncated);
  CHECK(log.nccl_lines == nccl_form_lines(text));  // nccl-tests' own lines are skipped
  REQUIRE(log.processes.size() == 16);
  for (const NcclProcess& p : log.processes) {
    CAPTURE(p.host);
    CAPTURE(p.pid);
    CHECK((p.host == "gpu-017" || p.host == "gpu-018"));
    CHECK(p.network == "IB");
    CHECK(p.cuda_driver == 12040);
    CHECK(p.bootstrap == "ib0");
    CHECK_FALSE(p.no_verbs);
    CHECK_FALSE(p.no_ib_device);
    CHECK(p.socket_devices.empty());
    CHECK(p.warnings.empty());
    REQUIRE(p.net_devices.size() == 8);
    for (int d = 0; d < 8; ++d) {
      CHECK(p.net_devices[d].index == d);
      CHECK(p.net_devices[d].device == "mlx5_" + std::to_string(d));
      CHECK(p.net_devices[d].port == 1);
      CHECK(p.net_devices[d].link_layer == "IB");
    }
    // 8 per-HCA lines (topo.cc) and the GPU's own (paths.cc): all on.
    REQUIRE(p.gdr.size() == 9);
    CHECK(std::all_of(p.gdr.begin(), p.gdr.end(), [](const NcclGdrState& g) { return g.enabled; }));
    CHECK(p.gdr[3].hca == 3);
    CHECK(p.gdr[3].hca_name == "mlx5_3");
    CHECK(p.gdr[3].gpu.empty());
    REQUIRE(p.ranks.size() == 1);
    const NcclRankInit& r = p.ranks[0];
    CHECK(r.nranks == 16);
    CHECK(r.nnodes == 2);
    CHECK(r.cuda_dev == r.rank % 8);
    CHECK(r.nvml_dev == r.rank % 8);
    CHECK(p.host == (r.rank < 8 ? "gpu-017" : "gpu-018"));
    const NcclGdrState& g = p.gdr[8];
    CHECK(g.hca == r.cuda_dev);  // each GPU on its own HCA, PXB apart
    CHECK(g.distance == 4);
    CHECK(g.limit == 4);
    // Two rings' send and receive over its HCA, both with GPUDirect RDMA; two NVLink peers.
    CHECK(count_channels(p, "NET/IB", true) == 4);
    CHECK(count_channels(p, "NET/IB", false) == 0);
    CHECK(count_channels(p, "P2P", false) == 2);
    for (const NcclChannel& c : p.channels)
      if (c.transport == "NET/IB") CHECK(c.net_device == r.cuda_dev);
  }
  // rank → GPU, from Init COMPLETE's busId.
  const NcclProcess* r0 = holder(log, 0);
  REQUIRE(r0 != nullptr);
  CHECK(r0->host == "gpu-017");
  CHECK(r0->pid == 41235);
  CHECK(r0->ranks[0].bus_id == "0000:1b:00.0");
  CHECK(r0->ranks[0].comm == "0x55d0c8a0f2e0");
  REQUIRE(holder(log, 15) != nullptr);
  CHECK(holder(log, 15)->host == "gpu-018");
  CHECK(holder(log, 15)->ranks[0].bus_id == "0000:df:00.0");
  CHECK(holder(log, 12)->ranks[0].bus_id == "0000:9d:00.0");
  // 2.21 prints the version only as rank 0's bare stdout line: rank 0's process has it.
  CHECK(r0->version == "2.21.5");
  CHECK(r0->build_cuda == "12.4");
  CHECK(holder(log, 1)->version.empty());
  // The channel lines keep what they say.
  const NcclChannel& c = holder(log, 8)->channels.front();
  CHECK(c.direction == "receive");
  CHECK(c.from_rank == 0);
  CHECK(c.to_rank == 8);
  CHECK(c.via == "NET/IB/0/GDRDMA");
  CHECK(c.proxy_rank == -1);
  CHECK(c.line > 0);
  // The log really is interleaved: the processes appear out of rank order.
  CHECK(log.processes.front().host == "gpu-017");
  CHECK(log.processes.front().pid == 41242);
}

TEST_CASE("NCCL log where gpu-018 lacked libibverbs: its processes fell back to sockets") {
  const NcclLog log = parse_fixture("nccl-2.21.5-2x8-h100-socket-fallback.log");
  REQUIRE(log.processes.size() == 16);
  for (const NcclProcess& p : log.processes) {
    CAPTURE(p.host);
    CHECK(p.bootstrap == "eth0");
    CHECK(p.env.at("NCCL_SOCKET_IFNAME") == "eth0");
    CHECK(p.ranks.empty());  // the job hung connecting: no Init COMPLETE
    if (p.host == "gpu-017") {
      CHECK_FALSE(p.no_verbs);
      CHECK(p.network == "IB");
      CHECK(p.net_devices.size() == 8);
      CHECK(count_channels(p, "NET/IB", true) == 4);
      continue;
    }
    REQUIRE(p.host == "gpu-018");
    CHECK(p.no_verbs);
    CHECK(p.network == "Socket");
    CHECK(p.net_devices.empty());
    CHECK(p.socket_devices == std::vector<std::string>{"eth0"});
    CHECK(count_channels(p, "NET/Socket", false) == 4);
    CHECK(count_channels(p, "NET/IB", true) + count_channels(p, "NET/IB", false) == 0);
    for (const NcclChannel& c : p.channels)
      if (c.transport == "NET/Socket") CHECK(c.net_device == 0);
    REQUIRE(p.gdr.size() == 1);
    CHECK_FALSE(p.gdr[0].enabled);
    CHECK(p.gdr[0].hca_name == "eth0");
  }
}

TEST_CASE("NCCL 2.25 log: one GPU without GPUDirect RDMA, NCCL_IB_HCA as read, a WARN") {
  const NcclLog log = parse_fixture("nccl-2.25.1-2x4-gdr-disabled.log");
  REQUIRE(log.processes.size() == 8);
  for (const NcclProcess& p : log.processes) {
    CAPTURE(p.pid);
    CHECK(p.version == "2.25.1");  // every process prints its own from 2.22
    CHECK(p.build_cuda == "12.8");
    CHECK(p.cuda_driver == 12080);
    CHECK(p.bootstrap == "eth0");  // 2.25's "Bootstrap: Using"
    CHECK(p.env.at("NCCL_IB_HCA") == "=mlx5_0,mlx5_1,mlx5_2,mlx5_3");
    CHECK(p.net_devices.size() == 4);
    REQUIRE(p.ranks.size() == 1);  // "Init timings - ncclCommInitRank: rank …" is no rank
    CHECK(p.ranks[0].nnodes == 2);
    if (p.host == "gpu-102") {
      CHECK(p.warnings == std::vector<std::string>{"transport/net_ib.cc:588 NET/IB : Unable to open device mlx5_4"});
    } else {
      CHECK(p.warnings.empty());
    }
  }
  const NcclProcess* r2 = holder(log, 2);
  REQUIRE(r2 != nullptr);
  const NcclGdrState& off = r2->gdr.back();
  CHECK_FALSE(off.enabled);
  CHECK(off.gpu == "2");  // a rank from 2.24
  CHECK(off.hca == 2);
  CHECK(off.distance == 6);
  CHECK(off.limit == 4);
  CHECK(count_channels(*r2, "NET/IB", false) == 2);
  CHECK(count_channels(*r2, "NET/IB", true) == 0);
  CHECK(r2->channels[0].via == "NET/IB/2");
  CHECK(r2->channels[0].net_device == 2);
  CHECK(count_channels(*holder(log, 6), "NET/IB", false) == 2);
  CHECK(count_channels(*holder(log, 3), "NET/IB", true) == 2);
  // Across the sockets the ring goes through shared memory.
  const NcclProcess* r1 = holder(log, 1);
  REQUIRE(r1->channels.size() == 3);
  CHECK(r1->channels[2].transport == "SHM");
  CHECK(r1->channels[2].via == "SHM/direct/direct");
  CHECK(r1->channels[2].direction.empty());
  CHECK(r1->channels[2].channel == 1);
  CHECK(r1->channels[2].net_device == -1);
}

TEST_CASE("NCCL 2.30 log with timestamps on every line: GB200 trays on GDRDMA(PCI), PXN, WARN with (func)") {
  const NcclLog log = parse_fixture("nccl-2.30.7-gb200-timestamps.log");
  REQUIRE(log.processes.size() == 8);
  for (const NcclProcess& p : log.processes) {
    CAPTURE(p.pid);
    CHECK(p.version == "2.30.7");  // not "NCCL git version HEAD 73cf112"
    CHECK(p.build_cuda == "13.0");
    CHECK(p.cuda_driver == 13000);
    CHECK(p.bootstrap == "enP6p3s0f0np0");
    CHECK(p.network == "IB");
    CHECK(p.env.at("NCCL_MNNVL_ENABLE") == "0");  // param.cc's "0." read as the number
    CHECK(p.net_devices.size() == 4);
    REQUIRE(p.ranks.size() == 1);  // 2.30's "[Rank N] ncclCommInitRank … Init START" is not one
    CHECK(count_channels(p, "NET/IB", true) == 3);
    for (const NcclChannel& c : p.channels)
      if (c.transport == "NET/IB") CHECK(c.via.ends_with("/GDRDMA(PCI)"));
    if (p.host == "nvl72-c03-t02") {
      CHECK(p.warnings == std::vector<std::string>{"transport/net_ib/init.cc:334 NET/IB : Unable to open device mlx5_4"});
    } else {
      CHECK(p.host == "nvl72-c03-t01");
      CHECK(p.warnings.empty());
    }
  }
  CHECK(holder(log, 0)->ranks[0].bus_id == "0008:01:00.0");  // Grace's PCI domains
  CHECK(holder(log, 7)->ranks[0].bus_id == "0019:01:00.0");
  // alltoall's peer connection through the NIC of local rank 2: PXN.
  const NcclChannel& pxn = holder(log, 1)->channels.back();
  CHECK(pxn.via == "NET/IB/2(2)/GDRDMA(PCI)");
  CHECK(pxn.net_device == 2);
  CHECK(pxn.proxy_rank == 2);
  CHECK(pxn.gdr);
  CHECK(pxn.to_rank == 6);
}

TEST_CASE("NCCL log of two runs under srun -l, cut mid-line: each run's processes, the cut line unread") {
  const std::string text = read("nccl-2.18.3-two-runs-srun-l-truncated.log");
  const NcclLog log = parse_nccl_log(text, "two-runs.log");
  CHECK(log.truncated);
  REQUIRE(log.processes.size() == 8);
  const NcclProcess* first0 = find(log, "a100-031", 51877);
  const NcclProcess* second0 = find(log, "a100-031", 52377);
  const NcclProcess* second2 = find(log, "a100-032", 49301);
  REQUIRE(first0 != nullptr);
  REQUIRE(second0 != nullptr);
  REQUIRE(second2 != nullptr);
  CHECK(first0->label == "0");
  CHECK(second2->label == "2");
  // The bare version line goes to the process of its srun label, in its own run.
  CHECK(first0->version == "2.18.3");
  CHECK(second0->version == "2.18.3");
  CHECK(second0->build_cuda == "12.2");
  CHECK(find(log, "a100-031", 51878)->version.empty());
  for (const NcclProcess& p : log.processes) {
    CAPTURE(p.pid);
    CHECK(p.network == "IB");
    REQUIRE(p.net_devices.size() == 2);
    CHECK(p.net_devices[1].device == "mlx5_1");
    CHECK(p.net_devices[1].link_layer == "RoCE");
    const bool second = p.pid == 52377 || p.pid == 52378 || p.pid == 49301 || p.pid == 49302;
    if (second) {
      CHECK(p.env.at("NCCL_P2P_LEVEL") == "LOC");  // how 2.18 logs NCCL_P2P_DISABLE=1
      CHECK(count_channels(p, "P2P", false) == 0);
      CHECK(p.ranks.empty());  // cut before Init COMPLETE
    } else {
      CHECK(p.env.empty());
      CHECK(count_channels(p, "P2P", false) == 2);
      CHECK(count_channels(p, "SHM", false) == 0);
      REQUIRE(p.ranks.size() == 1);  // 2.18's "comm 0x… rank …" without the function's name
      CHECK(p.ranks[0].nnodes == 0);  // 2.18 has no nNodes line
      CHECK(p.ranks[0].nranks == 4);
      // One communicator: every rank, on both hosts, prints its commId.
      CHECK(p.ranks[0].comm_id == "0x4be2f07d1c9635a0");
    }
  }
  CHECK(holder(log, 3)->ranks[0].bus_id == "0000:65:00.0");
  // "2: … Channel 00 : 2[0] -> 3[1] via SHM" lost its end: not read.
  CHECK(count_channels(*second2, "SHM", false) == 0);
  CHECK(count_channels(*find(log, "a100-032", 49302), "SHM", false) == 2);
  CHECK(log.nccl_lines == nccl_form_lines(text) - 1);
}

TEST_CASE("NCCL net device lists: fused NICs, RoCE, CX-8 data-direct names, 2.30.7 rail and plane") {
  // 2.20–2.23 (NCCL_IB_MERGE_NICS): a fused pair is one net device.
  NcclProcess p = only_process(info(
      "NET/IB : Using [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} [2]mlx5_2:1/RoCE [RO]; OOB ib0:10.0.0.1<0>"));
  REQUIRE(p.net_devices.size() == 3);
  CHECK(p.net_devices[0].index == 0);
  CHECK(p.net_devices[1].index == 0);
  CHECK(p.net_devices[1].device == "mlx5_1");
  CHECK(p.net_devices[2].index == 1);  // NET/IB/1 in channel lines, whatever "[2]" says
  CHECK(p.net_devices[2].link_layer == "RoCE");
  // 2.28+: a ConnectX-8's data-direct device.
  p = only_process(info("NET/IB : Using [0]mlx5_0_dma:1/IB [1]mlx5_1_dma:1/IB [RO]; OOB eth0:10.0.0.1<0>"));
  REQUIRE(p.net_devices.size() == 2);
  CHECK(p.net_devices[1].device == "mlx5_1_dma");
  // 2.30.7 with NCCL_IB_HCA's rail and plane fields.
  p = only_process(info("NET/IB : Using [0]mlx5_0:1::0/IB [1]mlx5_1:1:3:1/IB ; OOB eth0:10.0.0.1<0>"));
  REQUIRE(p.net_devices.size() == 2);
  CHECK(p.net_devices[0].port == 1);
  CHECK(p.net_devices[1].device == "mlx5_1");
  CHECK(p.net_devices[1].link_layer == "IB");
  // 2.24+ prints the list even when empty, after "No device found.".
  p = only_process(info("NET/IB : No device found.") + info("NET/IB : Using ; OOB eth0:10.0.0.1<0>"));
  CHECK(p.no_ib_device);
  CHECK(p.net_devices.empty());
  // A list NCCL cut at 1023 bytes (≤2.29): the entries before the cut, not the cut one.
  std::string many = "NET/IB : Using";
  for (int d = 0; many.size() < 1100; ++d) many += " [" + std::to_string(d) + "]mlx5_" + std::to_string(d) + ":1/IB";
  std::string line = info(many);
  line = line.substr(0, 1023) + "\n";
  p = only_process(line);
  CHECK(p.net_devices.size() > 40);
  CHECK(p.net_devices.back().link_layer == "IB");
  // A plugin's list in its own form reads as far as it fits.
  p = only_process(info("NET/OFI : Using efa0 efa1"));
  CHECK(p.net_devices.empty());
}

TEST_CASE("NCCL libibverbs messages: 2.18-2.29 once, 2.30 per library name tried") {
  CHECK(only_process(info("Failed to open libibverbs.so[.1]")).no_verbs);
  // 2.30: libibverbs.so (the -dev link) missing is normal when .so.1 opens.
  CHECK_FALSE(only_process(info("Count not open libibverbs.so")).no_verbs);
  CHECK(only_process(info("Count not open libibverbs.so") + info("Count not open libibverbs.so.1")).no_verbs);
}

TEST_CASE("NCCL GPUDirect RDMA lines of every version") {
  // ≤2.23: the GPU's bus id; the HCA's topology id in hex.
  NcclProcess p = only_process(info("GPU Direct RDMA Disabled for GPU 1b000 / HCA a (distance 7 > 4)"));
  REQUIRE(p.gdr.size() == 1);
  CHECK(p.gdr[0].gpu == "1b000");
  CHECK(p.gdr[0].hca == 10);
  CHECK_FALSE(p.gdr[0].enabled);
  // 2.26–2.28 add the mode.
  p = only_process(info("GPU Direct RDMA Enabled for GPU 5 / HCA 1 (distance 5 <= 5), read 1 mode PCI"));
  CHECK(p.gdr[0].enabled);
  CHECK(p.gdr[0].gpu == "5");
  CHECK(p.gdr[0].distance == 5);
  CHECK(p.gdr[0].limit == 5);
  // 2.29: topology ids and "(rank N)"; through PXN the distance is the proxy GPU's.
  p = only_process(info("GPU Direct RDMA Disabled for GPU/0-110592 (rank 3) - NET/0-2 (distance 9 > 5)") +
                   info("GPU Direct RDMA Enabled for GPU/0-110592 (rank 3) - NET/0-6 ( using PXN via "
                        "GPU/0-200704, distance 5 <= 5, read 1, mode Default)"));
  REQUIRE(p.gdr.size() == 2);
  CHECK(p.gdr[0].gpu == "3");
  CHECK(p.gdr[0].hca == 2);
  CHECK(p.gdr[0].distance == 9);
  CHECK(p.gdr[1].enabled);
  CHECK(p.gdr[1].hca == 6);
  CHECK(p.gdr[1].distance == 5);
  // The per-HCA line (any version): no GPU, no distance.
  p = only_process(info("NET/IB : GPU Direct RDMA Disabled for HCA 1 'mlx5_1'"));
  CHECK(p.gdr[0].hca == 1);
  CHECK(p.gdr[0].hca_name == "mlx5_1");
  CHECK(p.gdr[0].distance == -1);
  // 2.30's ACS hint merely mentions GPUDirect RDMA.
  CHECK(only_process(info("HINT: In many cases this error occurs when ACS is enabled which would break GPU "
                          "Direct RDMA protocol."))
            .gdr.empty());
}

TEST_CASE("NCCL channel lines of every transport") {
  const NcclProcess p = only_process(
      info("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC") +                         // 2.18, cuMem off
      info("Channel 01/1 : 0[0] -> 1[1] via P2P/direct pointer/read") +         // one process, two GPUs
      info("Channel 02/0 : 0[0] -> 4[4] via P2P/MNNVL/read") +                  // 2.20+ multi-node NVLink
      info("Channel 03/0 : 0[0] -> 2[2] via P2P/indirect/1[1]/read") +
      info("Channel 04 : 0[0] -> 1[1] via SHM/direct") +                        // 2.30.7
      info("Channel 05/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA/Shared") +
      info("Channel 06/0 : 0[0] -> 8[0] [send] via NET/AWS Libfabric/3/GDRDMA") +  // a net plugin
      info("CollNet 07/0 : 0 [receive] via COLLNET/IBext/1/GDRDMA") +
      info("Channel 00/24 :    0   1   2   3   4   5   6   7"));                  // a ring, no transport
  REQUIRE(p.channels.size() == 8);
  CHECK(p.channels[0].transport == "P2P");
  CHECK(p.channels[0].via == "P2P/IPC");
  CHECK(p.channels[1].channel == 1);
  CHECK(p.channels[1].transport == "P2P");
  CHECK(p.channels[2].to_rank == 4);
  CHECK(p.channels[3].via == "P2P/indirect/1[1]/read");
  CHECK(p.channels[4].transport == "SHM");
  CHECK(p.channels[5].gdr);
  CHECK(p.channels[5].net_device == 0);
  CHECK(p.channels[6].transport == "NET/AWS Libfabric");
  CHECK(p.channels[6].net_device == 3);
  CHECK(p.channels[7].transport == "CollNet");
  CHECK(p.channels[7].direction == "receive");
  CHECK(p.channels[7].from_rank == 0);
  CHECK(p.channels[7].to_rank == -1);
  CHECK(p.channels[7].net_device == 1);
  CHECK(p.channels[7].gdr);
}

TEST_CASE("NCCL line prefixes: timestamps, srun labels, WARN forms, several GPUs in one process") {
  const std::string text =
      "  3: 12:00:01 gpu-017:41235:41235 [0] NCCL INFO cudaDriverVersion 12020\n"   // TIMESTAMP_FORMAT="%T "
      "  3: \n"
      "  3: [2025-03-01 10:00:00] gpu-017:41235:41300 [1] transport/net_ib.cc:1250 NCCL WARN NET/IB : Got "
      "async event : port error\n"                                                    // 2.26+ default WARN stamp
      " 12: gpu-018:7001:7001 [0] enqueue.cc:1190 (ncclLaunchKernel) NCCL WARN Cuda failure 'out of memory'\r\n"
      "  3: NCCL version 2.21.5+cuda12.4\n"                                          // bare, with its label
      "  3: gpu-017:41235:41235 [0] NCCL INFO ncclCommInitRank comm 0x1 rank 6 nranks 16 cudaDev 0 nvmlDev 0 "
      "busId 1b000 commId 0x2 - Init COMPLETE\n"
      "  3: gpu-017:41235:41235 [1] NCCL INFO ncclCommInitRank comm 0x3 rank 7 nranks 16 cudaDev 1 nvmlDev 1 "
      "busId 43000 commId 0x2 - Init COMPLETE\n"
      " 12: gpu-018:7001:7001 [0] NCCL INFO comm 0x9 rank 0 nRanks 16 nNodes 2 localRanks 1 localRank 0 MNNVL 0\n"
      " 12: gpu-018:7001:7001 [0] NCCL INFO ncclCommInitRank comm 0x9 rank 0 nranks 16 cudaDev 0 nvmlDev 0 "
      "busId 1b000 commId 0x2 - Init COMPLETE\n";
  const NcclLog log = parse_nccl_log(text, "job.log");
  CHECK(log.nccl_lines == 8);
  REQUIRE(log.processes.size() == 2);
  const NcclProcess& a = log.processes[0];
  CHECK(a.label == "3");
  CHECK(a.cuda_driver == 12020);
  CHECK(a.warnings == std::vector<std::string>{"transport/net_ib.cc:1250 NET/IB : Got async event : port error"});
  CHECK(a.version == "2.21.5");  // by label, though rank 0 is on gpu-018
  REQUIRE(a.ranks.size() == 2);  // one process, two GPUs
  CHECK(a.ranks[1].rank == 7);
  CHECK(a.ranks[1].cuda_dev == 1);
  CHECK(a.ranks[1].bus_id == "0000:43:00.0");
  const NcclProcess& b = log.processes[1];
  CHECK(b.label == "12");
  CHECK(b.warnings == std::vector<std::string>{"enqueue.cc:1190 Cuda failure 'out of memory'"});
  CHECK(b.version.empty());
  REQUIRE(b.ranks.size() == 1);
  CHECK(b.ranks[0].nnodes == 2);
}

TEST_CASE("NCCL bare version line without a label goes to the process that completed init as rank 0") {
  const NcclLog log = parse_nccl_log(
      "gpu-018:7001:7001 [0] NCCL INFO cudaDriverVersion 12040\n"
      "gpu-017:41235:41235 [0] NCCL INFO cudaDriverVersion 12040\n"
      "NCCL version 2.19.3+cuda12.3\n"
      "gpu-018:7001:7001 [0] NCCL INFO comm 0x9 rank 1 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x2 - Init COMPLETE\n"
      "gpu-017:41235:41235 [0] NCCL INFO comm 0x8 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x2 - Init COMPLETE\n",
      "job.log");
  REQUIRE(log.processes.size() == 2);
  CHECK(log.processes[0].version.empty());
  CHECK(log.processes[1].version == "2.19.3");
}

TEST_CASE("NCCL settings as read from the environment") {
  const NcclProcess p = only_process(info("NCCL_IB_HCA set to ^=mlx5_4") +
                                     info("NCCL_TOPO_FILE set by environment to /etc/nccl/topo.xml") +
                                     info("NCCL_IB_TIMEOUT set by environment to 22.") +
                                     info("NCCL_NET_GDR_LEVEL set by environment to PHB") +
                                     info("TUNER/Plugin: NCCL_TUNER_PLUGIN set to libnccl-tuner.so") +
                                     info("NCCL_IB_TIMEOUT set by environment to 20.") +
                                     info("P2P Chunksize set to 131072") +
                                     info("NET/Plugin: Plugin name set by env to libnccl-net.so"));
  CHECK(p.env == std::map<std::string, std::string>{{"NCCL_IB_HCA", "^=mlx5_4"},
                                                     {"NCCL_IB_TIMEOUT", "22"},
                                                     {"NCCL_NET_GDR_LEVEL", "PHB"},
                                                     {"NCCL_TOPO_FILE", "/etc/nccl/topo.xml"},
                                                     {"NCCL_TUNER_PLUGIN", "libnccl-tuner.so"}});
}

TEST_CASE("NCCL log errors name the file and line of a line NCCL could not have printed") {
  const std::string good = info("cudaDriverVersion 12040") + "# nccl-tests line\n";
  CHECK(error_of(good + info("Channel 00/0 : 0[0] -> x[0] [send] via NET/IB/0")) ==
        "job.log:3: expected a channel line \"Channel NN/C : R[D] -> R[D] [send|receive] via TRANSPORT\", found "
        "\"Channel 00/0 : 0[0] -> x...\"");
  // The error of `msg` as line 1 starts with `expected`.
  auto fails = [](const std::string& msg, const std::string& expected) {
    const std::string e = error_of(info(msg));
    CAPTURE(e);
    return e.starts_with("job.log:1: expected " + expected);
  };
  CHECK(fails("Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/x/GDRDMA", "a channel line"));
  CHECK(fails("Channel 00/0 : 0[0] -> 8[0] [send] via ", "a channel line"));
  CHECK(error_of(info("NCCL version 2.x+cuda12.4")) ==
        "job.log:1: expected \"NCCL version X.Y.Z+cudaA.B\", found \"2.x+cuda12.4\"");
  CHECK(fails("cudaDriverVersion twelve", "\"cudaDriverVersion N\""));
  CHECK(fails("NET/IB : Using [0]mlx5_0/IB ; OOB ib0:10.0.0.1<0>", "\"[N]device:port/LINK\""));
  CHECK(fails("ncclCommInitRank comm 0x1 rank zero nranks 2 - Init COMPLETE", "\"comm"));
  CHECK(fails("ncclCommInitRank comm 0x1 rank 0 nranks 2 busId xyz - Init COMPLETE", "a hexadecimal bus id"));
  CHECK(fails("GPU Direct RDMA Enabled for GPU 1b000 / NIC 0", "\"GPU Direct RDMA"));
  // Not NCCL's lines, or not a kind read: no error.
  CHECK(error_of("NCCL version: 2.21\n# NCCL version 2.x\nsomething NCCL INFO else\n") == "no error");
  CHECK(error_of(info("Unknown message 42") + info("NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5 speed=400000")) ==
        "no error");
}

TEST_CASE("NCCL log reader: no NCCL lines, a cut line alone, detection by the first lines") {
  NcclLog log = parse_nccl_log("# nThread 1 nGpus 1\n#  Rank  0 Group  0 Pid  41235 on    gpu-017 device  0\n", "t.out");
  CHECK(log.nccl_lines == 0);
  CHECK(log.processes.empty());
  CHECK_FALSE(log.truncated);
  log = parse_nccl_log("gpu-017:41235:41235 [0] NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDR", "t.log");
  CHECK(log.truncated);
  CHECK(log.processes.empty());
  CHECK(parse_nccl_log("", "t.log").processes.empty());
  CHECK(looks_like_nccl_log(read("nccl-2.30.7-gb200-timestamps.log").substr(0, 4096)));
  CHECK(looks_like_nccl_log(read("nccl-2.18.3-two-runs-srun-l-truncated.log").substr(0, 4096)));
  CHECK(looks_like_nccl_log("\n[2025-03-01 10:00:00] h:1:2 [0] misc/socket.cc:50 (ncclSocketConnect) NCCL WARN x\n"));
  CHECK_FALSE(looks_like_nccl_log("# nccl-tests version 2.19.6\n# Avg bus bandwidth    : 93.5\n"));
  CHECK_FALSE(looks_like_nccl_log("NCCL version 2.21.5+cuda12.4\n"));
}
