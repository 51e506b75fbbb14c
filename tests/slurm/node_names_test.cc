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
