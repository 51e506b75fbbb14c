// The "did you mean" word: a typo finds the valid word, an unrelated word finds none.
#include "base/nearest_word.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("nearest_word: typos of a command and an option, and no guess for an unrelated word") {
  const std::vector<std::string> commands{"inspect", "emit", "generate", "simulate", "discover", "apply"};
  CHECK(nearest_word("inspekt", commands) == "inspect");
  CHECK(nearest_word("simlate", commands) == "simulate");
  CHECK(nearest_word("EMIT", commands) == "emit");
  CHECK(nearest_word("aplpy", commands) == "apply");  // two letters swapped count once
  CHECK(nearest_word("frobnicate", commands).empty());
  CHECK(nearest_word("--fabirc", {"--fabric", "--config", "--nodes"}) == "--fabric");
  CHECK(nearest_word("--allow-missing", {"--force", "--nodes-dir"}).empty());
}

TEST_CASE("edit_distance: insert, delete, substitute and swap each cost one") {
  CHECK(edit_distance("emit", "emit") == 0);
  CHECK(edit_distance("emit", "emits") == 1);
  CHECK(edit_distance("emit", "eit") == 1);
  CHECK(edit_distance("emit", "emat") == 1);
  CHECK(edit_distance("emit", "meit") == 1);
  CHECK(edit_distance("", "abc") == 3);
}
