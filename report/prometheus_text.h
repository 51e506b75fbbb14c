// The Prometheus text exposition format, as node_exporter's textfile collector reads it.
#pragma once

#include <string>

namespace slurmtopo {

// A label value with \, " and newlines escaped.
std::string escaped_label(const std::string& value);

}  // namespace slurmtopo
