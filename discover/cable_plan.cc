#include "discover/cable_plan.h"

#include <algorithm>
#include <cctype>

namespace slurmtopo {

namespace {

// 1-255 without a sign or leading zero; 0 otherwise.
int port_number(std::string_view s) {
  if (s.empty() || s.size() > 3 || s[0] == '0') return 0;
  int n = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    n = n * 10 + (c - '0');
  }
  return n <= 255 ? n : 0;
}

std::string_view without_p(std::string_view s) {
  if (!s.empty() && (s[0] == 'P' || s[0] == 'p')) s.remove_prefix(1);
  return s;
}

bool hca_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == ':';
}

}  // namespace

std::string said(const PlanEnd& end) {
  return end.switch_end ? end.device + " port " + end.port : end.device + " " + end.port;
}

std::string named(const PlanEnd& end) {
  return end.switch_end ? end.device + "[" + end.port + "]" : end.device + " " + end.port;
}

std::optional<std::string> plan_switch_port(std::string_view text) {
  text = without_p(text);
  if (const size_t slash = text.find('/'); slash != std::string_view::npos) {
    const int cage = port_number(text.substr(0, slash));
    const int lane = port_number(without_p(text.substr(slash + 1)));
    if (!cage || lane < 1 || lane > 2 || 2 * (cage - 1) + lane > 255) return std::nullopt;
    return std::to_string(2 * (cage - 1) + lane);
  }
  if (const int n = port_number(text)) return std::to_string(n);
  return std::nullopt;
}

std::optional<std::string> plan_hca_port(std::string_view text) {
  if (text.substr(0, 5) == "port ") {
    const int n = port_number(text.substr(5));
    return n ? std::optional<std::string>(hca_port("", n)) : std::nullopt;
  }
  std::string_view hca = text;
  int port = 1;
  if (const size_t slash = text.find('/'); slash != std::string_view::npos) {
    hca = text.substr(0, slash);
    port = port_number(without_p(text.substr(slash + 1)));
    if (!port) return std::nullopt;
  }
  if (hca.empty()) return std::nullopt;
  for (char c : hca)
    if (!hca_name_char(c)) return std::nullopt;
  // A name without a letter ("1", "0", "256") or that is a port number ("P1") is not an HCA's name.
  if (port_number(without_p(hca)) || std::none_of(hca.begin(), hca.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }))
    return std::nullopt;
  // ibdiagnet's U<n>: the HCA whose node description ends in HCA-<n>.
  if ((hca[0] == 'U' || hca[0] == 'u') && port_number(hca.substr(1)))
    return hca_port("HCA-" + std::string(hca.substr(1)), port);
  return hca_port(std::string(hca), port);
}

std::pair<std::string, int> split_hca_port(const std::string& port) {
  if (port.rfind("port ", 0) == 0) return {"", port_number(std::string_view(port).substr(5))};
  const size_t slash = port.rfind('/');
  if (slash == std::string::npos) return {port, 1};
  const int n = port_number(std::string_view(port).substr(slash + 1));
  return n ? std::pair<std::string, int>{port.substr(0, slash), n} : std::pair<std::string, int>{port, 1};
}

std::string hca_port(const std::string& hca, int port) {
  if (hca.empty()) return "port " + std::to_string(port);
  return port == 1 ? hca : hca + "/" + std::to_string(port);
}

}  // namespace slurmtopo
