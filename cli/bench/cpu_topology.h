/* The CPU topology for the CPU peer: physical cores from hwloc, and binding of the
 * calling thread to one of them. Without hwloc the peer uses OpenMP's defaults. */
#ifndef BCHOL_CPU_TOPOLOGY_H
#define BCHOL_CPU_TOPOLOGY_H

/* Loads the topology once; returns the number of physical cores (0 if unknown). */
int cpu_topology_cores(void);
/* Binds the calling thread to physical core i (0-based); returns 0 on success. */
int cpu_topology_bind_core(int i);
/* One line describing the topology, e.g. "hwloc: 1 package, 2 cores, 2 PUs". */
const char *cpu_topology_describe(void);

#endif
