#include "cpu_topology.h"

#include <stdio.h>

#ifdef BCHOL_HAVE_HWLOC
#include <hwloc.h>
#include <pthread.h>

static hwloc_topology_t topology;
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* One topology for the process: loading it is slow and the answer does not change. */
static void load(void)
{
    if (hwloc_topology_init(&topology) == 0 && hwloc_topology_load(topology) == 0) loaded = 1;
}

int cpu_topology_cores(void)
{
    pthread_once(&once, load);
    if (!loaded) return 0;
    int n = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
    return n > 0 ? n : 0;
}

int cpu_topology_bind_core(int i)
{
    pthread_once(&once, load);
    if (!loaded) return -1;
    hwloc_obj_t core = hwloc_get_obj_by_type(topology, HWLOC_OBJ_CORE, (unsigned)i);
    if (!core) return -1;
    hwloc_cpuset_t set = hwloc_bitmap_dup(core->cpuset);
    hwloc_bitmap_singlify(set); /* one PU of the core: no hyperthread sibling */
    int rc = hwloc_set_cpubind(topology, set, HWLOC_CPUBIND_THREAD);
    hwloc_bitmap_free(set);
    return rc;
}

const char *cpu_topology_describe(void)
{
    static char text[128];
    pthread_once(&once, load);
    if (!loaded) return "hwloc: topology unavailable";
    snprintf(text, sizeof text, "hwloc: %d package(s), %d cores, %d PUs",
             hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE),
             hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE),
             hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU));
    return text;
}
#else
int cpu_topology_cores(void) { return 0; }
int cpu_topology_bind_core(int i) { return -1; }
const char *cpu_topology_describe(void) { return "hwloc: not built in"; }
#endif
