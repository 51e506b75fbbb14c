#!/usr/bin/env bash
# Every doctest case is a CTest test of the same name. doctest_discover_tests hands the names to
# CMake as a list, so a name with ';' becomes two tests whose --test-case filters match nothing,
# and doctest passes a run that selected nothing: the case never ran and CI stayed green.
#
#   test_names_test.sh BUILD_DIR TEST_BINARY
set -uo pipefail
build=$1 binary=$2
doctest_names=$("$binary" --list-test-cases | sed -n '3,$p' | sed '$d' | sed '$d' | sort)
ctest_names=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: //p' | grep -v '^integration/\|^layout/' | sort)
if [[ $doctest_names == "$ctest_names" ]]; then
  echo "PASS: the $(wc -l <<<"$doctest_names") doctest cases are the CTest tests, name for name"
  exit 0
fi
echo "FAIL: doctest cases and CTest tests differ (< doctest only, > CTest only):"
diff <(echo "$doctest_names") <(echo "$ctest_names") | grep '^[<>]'
exit 1
