// Model names as real exports spell them (NVML, CUDA, RSMI, OpenCL, PCIDevice) to gres Types.
#include "discover/gpu_models.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("slurm_gpu_type: NVIDIA names as NVML and CUDA report them") {
  CHECK(slurm_gpu_type("NVIDIA H100 80GB HBM3", kPciVendorNvidia, 0x2330) == "h100");
  CHECK(slurm_gpu_type("Tesla V100-SXM2-16GB", kPciVendorNvidia, 0x1db1) == "v100");
  CHECK(slurm_gpu_type("Tesla V100-SXM3-32GB-H", kPciVendorNvidia, 0x1db8) == "v100");
  CHECK(slurm_gpu_type("A100-SXM4-40GB", kPciVendorNvidia, 0x20b0) == "a100");
  CHECK(slurm_gpu_type("NVIDIA A100-SXM4-80GB", kPciVendorNvidia, 0x20b2) == "a100");
  CHECK(slurm_gpu_type("Tesla P100-SXM2-16GB", kPciVendorNvidia, 0x15f9) == "p100");
  CHECK(slurm_gpu_type("Tesla T4", kPciVendorNvidia, 0x1eb8) == "t4");
  CHECK(slurm_gpu_type("Tesla K40m", kPciVendorNvidia, 0x1094) == "k40m");  // name beats the PCI id
  CHECK(slurm_gpu_type("Tesla M2075 Dual-Slot Computing Processor Module", kPciVendorNvidia, 0x1094) == "m2075");
  CHECK(slurm_gpu_type("NVIDIA L40S", kPciVendorNvidia, 0x26b9) == "l40s");
  CHECK(slurm_gpu_type("NVIDIA GH200 480GB", kPciVendorNvidia, 0x2342) == "gh200");
  CHECK(slurm_gpu_type("NVIDIA RTX A6000", kPciVendorNvidia, 0x2230) == "a6000");
}

TEST_CASE("slurm_gpu_type: pci.ids names are skipped to the product word") {
  // "GV100GL" and "TU104GL" are chip codes, not products.
  CHECK(slurm_gpu_type("GV100GL [Tesla V100 SXM2 16GB]", kPciVendorNvidia, 0x1db1) == "v100");
  CHECK(slurm_gpu_type("TU104GL [Tesla T4]", kPciVendorNvidia, 0x1eb8) == "t4");
}

TEST_CASE("slurm_gpu_type: nameless GPUs fall back to the PCI id") {
  CHECK(slurm_gpu_type("", kPciVendorNvidia, 0x20b0) == "a100");
  CHECK(slurm_gpu_type("", kPciVendorNvidia, 0x06d2) == "m2070");
  CHECK(pci_gpu_model(kPciVendorNvidia, 0x06d2) == "Tesla M2070");
  CHECK(slurm_gpu_type("", kPciVendorNvidia, 0xffff) == "");
  CHECK(pci_gpu_model(kPciVendorNvidia, 0xffff) == "");
}

TEST_CASE("slurm_gpu_type: AMD trusts the PCI id over RSMI's names") {
  CHECK(slurm_gpu_type("AMD INSTINCT MI200 (MCM) OAM LC MBA HPE C2", kPciVendorAmd, 0x7408) == "mi250x");
  CHECK(slurm_gpu_type("Aqua Vanjaram [Instinct MI300A]", kPciVendorAmd, 0x74a0) == "mi300a");
  CHECK(slurm_gpu_type("", kPciVendorAmd, 0x74a0) == "mi300a");  // partitions 2..n: empty GPUModel
  CHECK(slurm_gpu_type("deon Instinct MI50 32GB", kPciVendorAmd, 0x66a1) == "mi50");
  CHECK(slurm_gpu_type("Vega 20", kPciVendorAmd, 0x66a1) == "mi50");
  // 0x740c is MI250 or MI250X: the name decides.
  CHECK(slurm_gpu_type("AMD Instinct MI250", kPciVendorAmd, 0x740c) == "mi250");
  CHECK(slurm_gpu_type("AMD Instinct MI250X", kPciVendorAmd, 0x740c) == "mi250x");
}

TEST_CASE("slurm_gpu_type: unknown products keep a gres.conf-safe name") {
  CHECK(slurm_gpu_type("AMD Radeon R9 200 / HD 7900 Series", kPciVendorAmd, 0x6798) ==
        "amd_radeon_r9_200_hd_7900_series");
  CHECK(slurm_gpu_type("NVIDIA GeForce RTX 4090", kPciVendorNvidia, 0x2684) == "nvidia_geforce_rtx_4090");
}

TEST_CASE("nvlink_link_bandwidth: hwloc's per-link value by NVLink generation") {
  CHECK(nvlink_link_bandwidth("p100") == 20000);  // NVLink 1.0
  CHECK(nvlink_link_bandwidth("v100") == 25000);  // 2.0
  CHECK(nvlink_link_bandwidth("a100") == 25000);  // 3.0
  CHECK(nvlink_link_bandwidth("h100") == 25000);  // 4.0
  CHECK(nvlink_link_bandwidth("b200") == 0);      // 5.0: not in hwloc's table
  CHECK(nvlink_link_bandwidth("t4") == 0);
}
