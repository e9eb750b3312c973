/* The C side of mjrs-qhull-sys: see hull.c. */
#ifndef MJRS_QHULL_HULL_H
#define MJRS_QHULL_HULL_H

#include <stddef.h>

/* Returned when an allocation fails (qhull's own exit codes are 1..6). */
#define MJRS_QHULL_NOMEM 100

/* Runs qhull on `npoints` points of three coordinates. Returns 0 and a list that the caller
 * frees with mjrs_qhull_free, or qhull's error code (the list is then NULL). */
int mjrs_qhull_hull(double* points, int npoints, int** out, size_t* len);
void mjrs_qhull_free(int* list);

#endif
