// What `slurmtopo generate` writes for a generated fabric, decided before anything is written:
// the file names, each file's text, and a note for what it leaves out.
#pragma once

#include <string>
#include <vector>

#include "discover/fabric.h"

namespace slurmtopo {

struct GeneratedFile {
  std::string path;  // "-" or "": stdout
  std::string text;
};

struct GeneratePlan {
  std::vector<GeneratedFile> files;
  std::vector<std::string> notes;  // for stderr: what was left out and why
};

enum class GeneratedFormat { Ibnetdiscover, Ibsim };

// One file at `output`: the ibnetdiscover dump, or the ibsim net file. InputError naming
// "--format" when ibsim cannot serve the fabric (NDR and faster; a cable of unknown width).
GeneratePlan plan_generated_fabric(const Fabric& fabric, GeneratedFormat format, const std::string& output);

// Rail planes (split_rail_planes) under -o NAME: NAME-planeK.topo for every plane, and
// NAME-planeK.net beside each when ibsim can serve the planes. When it cannot (ibsim 0.10 stops
// at HDR), the dumps are still written, the net files are left out and a note says why, so a
// default NDR run is useful rather than an error. InputError naming "--planes" without a NAME.
GeneratePlan plan_rail_plane_files(const std::vector<Fabric>& planes, const std::string& name);

}  // namespace slurmtopo
