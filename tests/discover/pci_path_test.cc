// The path-class rules on small hand-built topologies, one PCIe shape per class; the real
// exports are covered in hwloc_node_test.cc.
#include "discover/pci_path.h"

#include <doctest/doctest.h>

#include <string>

#include "discover/hwloc_topology.h"

using namespace slurmtopo;

namespace {

// One core with one PU per CPU; cpuset/nodeset masks in hex.
std::string cores(int first, int count) {
  std::string s;
  for (int i = first; i < first + count; ++i) {
    const std::string set = "0x" + std::to_string(1 << i);
    s += "<object type=\"Core\" os_index=\"" + std::to_string(i) + "\" cpuset=\"" + set + "\" complete_cpuset=\"" + set +
         "\" gp_index=\"" + std::to_string(100 + 2 * i) + "\"><object type=\"PU\" os_index=\"" + std::to_string(i) +
         "\" cpuset=\"" + set + "\" complete_cpuset=\"" + set + "\" gp_index=\"" + std::to_string(101 + 2 * i) +
         "\"/></object>\n";
  }
  return s;
}

// Builds I/O subtrees; gp_index values must be unique within one topology.
struct Io {
  int gp = 1000;

  std::string host_bridge(const std::string& buses, const std::string& children) {
    return "<object type=\"Bridge\" gp_index=\"" + std::to_string(gp++) + "\" bridge_type=\"0-1\" depth=\"0\" bridge_pci=\"0000:[" +
           buses + "]\">\n" + children + "</object>\n";
  }

  std::string bridge(int depth, const std::string& busid, const std::string& buses, const std::string& children) {
    return "<object type=\"Bridge\" gp_index=\"" + std::to_string(gp++) + "\" bridge_type=\"1-1\" depth=\"" +
           std::to_string(depth) + "\" bridge_pci=\"0000:[" + buses + "]\" pci_busid=\"0000:" + busid +
           "\" pci_type=\"0604 [10b5:9781] [0000:0000] 00\">\n" + children + "</object>\n";
  }

  std::string gpu(const std::string& busid) {
    return "<object type=\"PCIDev\" gp_index=\"" + std::to_string(gp++) + "\" pci_busid=\"0000:" + busid +
           "\" pci_type=\"0302 [10de:20b0] [10de:0000] a1\"/>\n";
  }

  std::string nic(const std::string& busid) {
    const std::string pci = std::to_string(gp++), os = std::to_string(gp++);
    return "<object type=\"PCIDev\" gp_index=\"" + pci + "\" pci_busid=\"0000:" + busid +
           "\" pci_type=\"0207 [15b3:101b] [15b3:0000] 00\"><object type=\"OSDev\" gp_index=\"" + os +
           "\" name=\"mlx5_0\" osdev_type=\"3\"/></object>\n";
  }
};

std::string topology(const std::string& machine_io, const std::string& package0_io, const std::string& package1_io) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
         "<topology version=\"2.0\">\n"
         "<object type=\"Machine\" os_index=\"0\" cpuset=\"0xf\" complete_cpuset=\"0xf\" allowed_cpuset=\"0xf\" "
         "nodeset=\"0x3\" complete_nodeset=\"0x3\" allowed_nodeset=\"0x3\" gp_index=\"1\">\n"
         "<object type=\"Package\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0x3\" nodeset=\"0x1\" "
         "complete_nodeset=\"0x1\" gp_index=\"2\">\n"
         "<object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0x3\" nodeset=\"0x1\" "
         "complete_nodeset=\"0x1\" gp_index=\"3\" local_memory=\"1073741824\"/>\n" +
         cores(0, 2) + package0_io +
         "</object>\n"
         "<object type=\"Package\" os_index=\"1\" cpuset=\"0xc\" complete_cpuset=\"0xc\" nodeset=\"0x2\" "
         "complete_nodeset=\"0x2\" gp_index=\"4\">\n"
         "<object type=\"NUMANode\" os_index=\"1\" cpuset=\"0xc\" complete_cpuset=\"0xc\" nodeset=\"0x2\" "
         "complete_nodeset=\"0x2\" gp_index=\"5\" local_memory=\"1073741824\"/>\n" +
         cores(2, 2) + package1_io + "</object>\n" + machine_io + "</object>\n</topology>\n";
}

hwloc_obj_t at(const HwlocTopology& t, const char* busid) {
  hwloc_obj_t o = hwloc_get_pcidev_by_busidstring(t.get(), busid);
  REQUIRE(o != nullptr);
  return o;
}

}  // namespace

TEST_CASE("classify_pci_path: one shape per class") {
  Io io;
  // Package 0, host bridge [00-0f]:
  //   root port 00:01.0 - switch 01:00.0 - port 02:00.0 - GPU 03:00.0          (A)
  //                                      - port 02:01.0 - NIC 04:00.0          (N)
  //                                      - port 02:02.0 - switch 05:00.0 - port 06:00.0 - GPU 07:00.0 (B)
  //   root port 00:02.0 - GPU 0b:00.0                                          (C)
  // Package 0, host bridge [10-1f]: root port 10:01.0 - GPU 11:00.0            (D)
  // Package 1, host bridge [80-8f]: root port 80:01.0 - GPU 81:00.0            (E)
  const std::string p0 =
      io.host_bridge("00-0f", io.bridge(1, "00:01.0", "01-0a",
                                  io.bridge(2, "01:00.0", "02-0a",
                                         io.bridge(3, "02:00.0", "03-03", io.gpu("03:00.0")) +
                                             io.bridge(3, "02:01.0", "04-04", io.nic("04:00.0")) +
                                             io.bridge(3, "02:02.0", "05-0a",
                                                    io.bridge(4, "05:00.0", "06-0a",
                                                           io.bridge(5, "06:00.0", "07-07", io.gpu("07:00.0")))))) +
                               io.bridge(1, "00:02.0", "0b-0b", io.gpu("0b:00.0"))) +
      io.host_bridge("10-1f", io.bridge(1, "10:01.0", "11-11", io.gpu("11:00.0")));
  const std::string p1 = io.host_bridge("80-8f", io.bridge(1, "80:01.0", "81-81", io.gpu("81:00.0")));
  const HwlocTopology t = load_hwloc_xml_text(topology("", p0, p1), "shapes.xml");
  const hwloc_obj_t a = at(t, "0000:03:00.0"), n = at(t, "0000:04:00.0"), b = at(t, "0000:07:00.0"),
                    c = at(t, "0000:0b:00.0"), d = at(t, "0000:11:00.0"), e = at(t, "0000:81:00.0");

  CHECK(classify_pci_path(t.get(), a, a) == PathClass::PIX);
  CHECK(classify_pci_path(t.get(), a, n) == PathClass::PIX);  // one switch: a port on each side
  CHECK(classify_pci_path(t.get(), n, a) == PathClass::PIX);
  CHECK(classify_pci_path(t.get(), a, b) == PathClass::PXB);  // B is three bridges below the switch
  CHECK(classify_pci_path(t.get(), n, b) == PathClass::PXB);
  CHECK(classify_pci_path(t.get(), a, c) == PathClass::PHB);  // different root ports, one host bridge
  CHECK(classify_pci_path(t.get(), a, d) == PathClass::NODE); // two host bridges, one NUMA node
  CHECK(classify_pci_path(t.get(), a, e) == PathClass::SYS);  // other package
  CHECK(classify_pci_path(t.get(), d, e) == PathClass::SYS);
  // An OS device stands for its PCI function.
  CHECK(classify_pci_path(t.get(), n->io_first_child, a) == PathClass::PIX);

  CHECK(numa_node_of(t.get(), a)->os_index == 0);
  CHECK(numa_node_of(t.get(), e)->os_index == 1);
  CHECK_FALSE(pci_bridges_missing(t.get()));
}

TEST_CASE("classify_pci_path: exports without PCI bridges, I/O attached to the Machine") {
  // hwloc 1.11-style: devices directly below host bridges, and (here) host bridges below the
  // Machine, i.e. spanning both NUMA nodes.
  Io io;
  const std::string flat =
      io.host_bridge("00-0f", io.gpu("01:00.0") + io.gpu("02:00.0")) + io.host_bridge("10-1f", io.gpu("11:00.0"));
  const HwlocTopology t = load_hwloc_xml_text(topology(flat, "", ""), "flat.xml");
  const hwloc_obj_t x = at(t, "0000:01:00.0"), y = at(t, "0000:02:00.0"), z = at(t, "0000:11:00.0");
  CHECK(pci_bridges_missing(t.get()));
  CHECK(classify_pci_path(t.get(), x, y) == PathClass::PHB);  // maybe PIX in reality: unknowable
  CHECK(numa_node_of(t.get(), x) == nullptr);                   // the Machine spans two NUMA nodes
  CHECK(classify_pci_path(t.get(), x, z) == PathClass::NODE);   // same CPU-side parent
}

TEST_CASE("pci_bridges_missing: false without any PCI device") {
  const HwlocTopology t = load_hwloc_xml_text(topology("", "", ""), "cpu-only.xml");
  CHECK_FALSE(pci_bridges_missing(t.get()));
}
