/* Callgrind's client requests for bench/python_speed.py (through ctypes): zero the counts before
 * a measured section of a Python script and dump them after it under the section's name, so one
 * interpreter counts several sections and none of its start-up. Outside valgrind they do nothing. */
#include <valgrind/callgrind.h>

void cg_zero(void) { CALLGRIND_ZERO_STATS; }

void cg_dump(const char *name) { CALLGRIND_DUMP_STATS_AT(name); }
