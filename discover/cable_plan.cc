#include "discover/cable_plan.h"

namespace slurmtopo {

std::string said(const PlanEnd& end) {
  return end.switch_end ? end.device + " port " + end.port : end.device + " " + end.port;
}

std::string named(const PlanEnd& end) {
  return end.switch_end ? end.device + "[" + end.port + "]" : end.device + " " + end.port;
}

}  // namespace slurmtopo
