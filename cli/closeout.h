#ifndef NUMACTL2_CLOSEOUT_H
#define NUMACTL2_CLOSEOUT_H

int close_stdout(int status);

#endif
