#include "discover/generate_plan.h"

#include <sstream>
#include <stdexcept>

#include "base/input_error.h"
#include "discover/ibnetdiscover_writer.h"
#include "discover/ibsim_net_writer.h"

namespace slurmtopo {

GeneratePlan plan_generated_fabric(const Fabric& fabric, GeneratedFormat format, const std::string& output) {
  std::ostringstream text;
  if (format == GeneratedFormat::Ibsim) {
    try {
      write_ibsim_net(fabric, text);
    } catch (const std::invalid_argument& e) {
      throw InputError("--format", 0, std::string("ibsim: ") + e.what());
    }
  } else {
    write_ibnetdiscover_text(fabric, text);
  }
  return {{{output, text.str()}}, {}};
}

GeneratePlan plan_rail_plane_files(const std::vector<Fabric>& planes, const std::string& name) {
  if (name.empty() || name == "-")
    throw InputError("--planes", 0, "expected -o NAME: each plane is written to NAME-planeK.topo and NAME-planeK.net");
  // The net files first: one plane ibsim cannot serve (ibsim 0.10 stops at HDR, and every
  // plane of a generated fabric runs at its speed) leaves all of them out.
  std::vector<std::string> nets;
  std::string why_no_net;
  for (const Fabric& plane : planes) {
    std::ostringstream net;
    try {
      write_ibsim_net(plane, net);
    } catch (const std::invalid_argument& e) {
      why_no_net = e.what();
      nets.clear();
      break;
    }
    nets.push_back(net.str());
  }
  GeneratePlan plan;
  for (size_t k = 0; k < planes.size(); ++k) {  // each plane's dump, then its net file
    const std::string base = name + "-plane" + std::to_string(k + 1);
    std::ostringstream text;
    write_ibnetdiscover_text(planes[k], text);
    plan.files.push_back({base + ".topo", text.str()});
    if (!nets.empty()) plan.files.push_back({base + ".net", std::move(nets[k])});
  }
  if (!why_no_net.empty())
    plan.notes.push_back("no ibsim net files (" + name + "-planeK.net): " + why_no_net +
                         "; generate with --speed HDR or slower for them");
  return plan;
}

}  // namespace slurmtopo
