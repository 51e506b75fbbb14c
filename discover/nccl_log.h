// Reader for NCCL_DEBUG=INFO logs (NCCL 2.18–2.30): what each process's NCCL really did — its
// version and the CUDA driver it loaded, the network it chose (IB, Socket, a plugin), the HCAs it
// bound, GPUDirect RDMA per GPU and HCA, every channel's transport, the NCCL_* settings it read,
// and which rank sat on which GPU. Formats: ../shared/reference/nccl-evidence.md §2.
//
// Lines are `HOST:PID:TID [DEV] NCCL INFO|WARN ...` (with an optional NCCL_DEBUG_TIMESTAMP_FORMAT
// prefix, an `srun -l` label, and 2.30's `(func)`); each is attributed to its HOST:PID, so ranks
// interleaved line by line, several runs in one file (new PIDs), and a file cut short (its last
// line half written) all read correctly. Lines of any other form — nccl-tests' own output, the
// job's — are skipped: a log and the nccl-tests table often share one stdout.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

// `NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_3:1/RoCE ...`: one entry per listed device; a fused
// NIC (`[0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB}`, printed by 2.20–2.23) gives one entry per
// member, with the same index. The index is the entry's place in the list (a fused NIC counting
// once): NCCL prints a plain entry's physical device number, which differs after a fused one.
// 2.30.7's `[0]mlx5_0:1:<rail>:<plane>/IB` reads as device mlx5_0, port 1.
struct NcclNetDevice {
  int index = 0;             // NCCL's net device number (`NET/IB/<index>` in channel lines)
  std::string device;        // "mlx5_0" (a CX-8 data-direct "mlx5_0_dma" kept as printed)
  int port = 0;
  std::string link_layer;    // "IB", "RoCE"
};

// `GPU Direct RDMA Enabled for HCA 0 'mlx5_0'`, `GPU Direct RDMA Disabled for GPU 0 / HCA 2
// (distance 9 > 5)`.
struct NcclGdrState {
  int hca = -1;              // NCCL's net device number
  std::string hca_name;      // where printed
  std::string gpu;           // as printed: a bus id in hex ("1b000", ≤2.23) or a rank (2.24+;
                             // 2.29's "GPU/0-110592 (rank 3)" gives "3"); "" on the per-HCA line
  bool enabled = false;
  int distance = -1, limit = -1;  // "(distance 9 > 5)", -1 where not printed (the per-HCA
                                  // line; 2.30 prints the per-GPU lines at TRACE only)
  int line = 0;
};

// `Channel 00/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA` and the P2P/SHM/NVLS forms.
struct NcclChannel {
  int channel = 0;
  int from_rank = -1, to_rank = -1;
  std::string direction;     // "send", "receive", "" (P2P/SHM lines carry none)
  std::string via;           // everything after "via ": "NET/IB/0/GDRDMA", "P2P/CUMEM/read"
  std::string transport;     // "NET/IB", "NET/Socket", "NET/<plugin>", "P2P", "SHM", "NVLS", "CollNet"
                             // (CollNet: `CollNet 00/0 : 3 [send] via COLLNET/…`, to_rank -1)
  int net_device = -1;       // the N of NET/x/N
  int proxy_rank = -1;       // PXN: the N of NET/IB/0(N), else -1
  bool gdr = false;          // "/GDRDMA"
  int line = 0;
};

// `ncclCommInitRank comm 0x… rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1b000 … - Init COMPLETE`
struct NcclRankInit {
  std::string comm;          // "0x55d0c8a0": this process's handle
  std::string comm_id;       // "0x4be2f07d1c9635a0": the communicator's, the same on every rank
                             // of every host; "" where not printed
  int rank = -1, nranks = 0;
  int cuda_dev = -1, nvml_dev = -1;
  std::string bus_id;        // "0000:1b:00.0" from "1b000"
  int nnodes = 0;            // from the `comm … nNodes 2` line, 0 where absent
  int line = 0;
};

// One process: HOST:PID. A rank's facts live in its process (one process may drive several
// GPUs, each line's [DEV] says which).
struct NcclProcess {
  std::string host;          // as printed: cut at the first '.'
  long pid = 0;
  int first_line = 0;
  std::string label;         // the `srun -l` label of its first line ("3"), "" without
  // "2.21.5" from `NCCL version 2.21.5+cuda12.4`. ≤2.21 prints it only as rank 0's bare stdout
  // line (no HOST:PID): it goes to the process with the line's srun label, else to one that
  // completed init as rank 0; the other processes of such a run have "" (the log never says).
  std::string version;
  std::string build_cuda;    // "12.4"
  int cuda_driver = 0;       // `cudaDriverVersion 12040`
  std::string network;       // "IB", "Socket", a plugin's name; "" when the log never says
  std::vector<NcclNetDevice> net_devices;    // `NET/IB : Using ...` (or the plugin's list)
  std::vector<std::string> socket_devices;   // `NET/Socket : Using [0]eth0:10.1.2.3<0>`: "eth0"
  std::string bootstrap;     // `Bootstrap : Using ib0:10.0.0.1<0>`: "ib0"
  bool no_verbs = false;     // `Failed to open libibverbs.so[.1]`; 2.30: `Count not open libibverbs.so.1`
  bool no_ib_device = false; // `NET/IB : No device found.`
  std::vector<NcclGdrState> gdr;
  // Every `NAME set by environment to VALUE` / `NAME set to VALUE` line, as NCCL read it.
  std::map<std::string, std::string> env;
  std::vector<NcclRankInit> ranks;
  std::vector<NcclChannel> channels;
  std::vector<std::string> warnings;   // each WARN message, "file.cc:LINE message"
};

struct NcclLog {
  std::string source;
  std::vector<NcclProcess> processes;  // in order of first appearance
  int nccl_lines = 0;                  // lines of NCCL's form read
  bool truncated = false;              // the last line was half written (no '\n' ends the
                                       // text): it is not read
};

// InputError(file, line, what was expected) only for a line of NCCL's form whose message is one
// of the kinds above but cannot be read as it (a Channel line without its ranks, a version that
// is not a version); unknown messages are skipped. A text without any NCCL line is not an error
// (nccl_lines == 0).
NcclLog parse_nccl_log(std::string_view text, const std::string& file);

// True when the first lines hold an NCCL INFO/WARN line.
bool looks_like_nccl_log(std::string_view head);

}  // namespace slurmtopo
