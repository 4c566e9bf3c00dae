#!/bin/sh
# Runs one CTest case with POCL_CACHE_DIR set to the PoCL cache of its CTest slot.
# Usage: pocl_slot.sh CACHE_ROOT TEST_NAME COMMAND [ARGUMENTS...]
#
# PoCL's cache is not safe for concurrent writers (two processes building the same program
# can remove and read each other's program.bc), so no two processes may share one at the
# same time. CTest gives each running case one slot of the resource pocl_cache (bchol_test
# in tests/CMakeLists.txt, CTEST_RESOURCE_SPEC_FILE): cases in one slot run one after the
# other and share its cache, so each kernel is compiled about once per parallel job
# rather than once per case. Run outside such a CTest (no slot), a case gets its own
# cache, named after it.
root=$1
name=$2
shift 2
case ${CTEST_RESOURCE_GROUP_0_POCL_CACHE:-} in
id:*)
    slot=${CTEST_RESOURCE_GROUP_0_POCL_CACHE#id:}
    POCL_CACHE_DIR=$root/pocl-cache/slot${slot%%,*}
    ;;
*) POCL_CACHE_DIR=$root/pocl-cache/$name ;;
esac
export POCL_CACHE_DIR
exec "$@"
