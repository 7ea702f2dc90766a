/* numactl2's version, which --version prints (a build may set its own). */
#ifndef NUMACTL2_VERSION
#define NUMACTL2_VERSION "0.1.0"
#endif
