#include "slurm/node_names.h"

#include <doctest/doctest.h>

#include <string>

using namespace slurmtopo;

TEST_CASE("node names: what Slurm's hostlist parser reads back as the same name") {
  CHECK(valid_slurm_node_name("gpu001"));
  CHECK(valid_slurm_node_name("b08-p1-dgx-08-c01"));
  CHECK(valid_slurm_node_name("node_1.cluster"));
  CHECK_FALSE(valid_slurm_node_name("gpu,001"));
  CHECK_FALSE(valid_slurm_node_name("gpu[1]"));
  CHECK_FALSE(valid_slurm_node_name("gpu 1"));
  CHECK_FALSE(valid_slurm_node_name(""));
  CHECK_FALSE(valid_slurm_node_name("-gpu1"));
  CHECK_FALSE(valid_slurm_node_name(".gpu1"));
  CHECK(valid_slurm_node_name(std::string(64, 'a')));
  CHECK_FALSE(valid_slurm_node_name(std::string(65, 'a')));
}

TEST_CASE("node names: a trailing number a hostlist cannot hold (above 2^64-1) is no node name") {
  CHECK(valid_slurm_node_name("cn18446744073709551615"));
  CHECK(valid_slurm_node_name("cn0000018446744073709551615"));  // leading zeros are width, not value
  CHECK_FALSE(valid_slurm_node_name("cn18446744073709551616"));
  CHECK_FALSE(valid_slurm_node_name("cn99999999999999999999"));
  CHECK_FALSE(valid_slurm_node_name("99999999999999999999"));
  CHECK(valid_slurm_node_name("cn99999999999999999999x"));  // not trailing: the hostlist keeps it as a prefix
  CHECK(trailing_number_too_large("n123456789012345678901"));
  CHECK_FALSE(trailing_number_too_large("gpu001"));
  CHECK_FALSE(trailing_number_too_large("gpu"));
}
