# numactl2
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man8
CC ?= gcc
CFLAGS ?= -O2 -g
WARNINGS = -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	   -Wsign-compare -Wtype-limits -Wvla
CFLAGS += -std=gnu17 $(WARNINGS)
LDLIBS = -lnuma

SRCS = numactl2.c cli.c parse.c nodes.c policy.c weights.c gweights.c \
       globalops.c dryrun.c show.c hardware.c shm.c
OBJS = $(SRCS:.c=.o)

all: numactl2

numactl2: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

%.o: %.c *.h
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

.PHONY: all clean
clean:
	rm -f numactl2 *.o
