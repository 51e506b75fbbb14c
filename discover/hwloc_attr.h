// hwloc's enum-typed attributes as the integers an XML export may have put there.
// hwloc copies osdev_type and bridge_type from the file with atoi, unchecked, so a damaged
// export leaves values no enumerator names; reading such a field as its enum type is undefined
// behaviour in C++ (UBSan's -fsanitize=enum stops on it). Reading the bytes as an integer and
// comparing against the enumerators is defined for every value the file can hold.
#pragma once

#include <hwloc.h>

#include <cstring>
#include <type_traits>

namespace slurmtopo {

template <typename Enum>
std::underlying_type_t<Enum> hwloc_enum_value(const Enum& field) {
  std::underlying_type_t<Enum> v;
  std::memcpy(&v, &field, sizeof v);
  return v;
}

// True when the OS device's type is `t` (HWLOC_OBJ_OSDEV_GPU, ...).
inline bool osdev_type_is(hwloc_obj_t os, hwloc_obj_osdev_type_t t) {
  return hwloc_enum_value(os->attr->osdev.type) == static_cast<std::underlying_type_t<hwloc_obj_osdev_type_t>>(t);
}

// True when the bridge's upstream side is `t` (HWLOC_OBJ_BRIDGE_HOST or _PCI).
inline bool bridge_upstream_is(hwloc_obj_t bridge, hwloc_obj_bridge_type_t t) {
  return hwloc_enum_value(bridge->attr->bridge.upstream_type) ==
         static_cast<std::underlying_type_t<hwloc_obj_bridge_type_t>>(t);
}

}  // namespace slurmtopo
