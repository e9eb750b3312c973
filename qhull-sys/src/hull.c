/* mjrs's whole use of qhull in one C function, so that Rust needs no struct layouts and no
 * generated bindings: run qhull as MuJoCo's mesh compiler does and hand back the hull's topology
 * as a flat list of ints.
 *
 * The list (every count precedes what it counts):
 *   num_vertices num_facets
 *   V  then V vertex records:  point  K  then K facets: n point...   (qh_vertexneighbors order)
 *   F  then F facet records:   toporient  n point...
 * Vertices and facets appear in qhull's list order (FORALLvertices, FORALLfacets).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#include "libqhull_r.h"
#include "poly_r.h"
#include "qset_r.h"

#include "hull.h"

/* A growing int list; `failed` sticks once an allocation fails. */
typedef struct {
  int* data;
  size_t len;
  size_t cap;
  int failed;
} IntList;

static void push(IntList* list, int value) {
  if (list->failed) {
    return;
  }
  if (list->len == list->cap) {
    size_t cap = list->cap ? 2 * list->cap : 1024;
    int* grown = (int*)realloc(list->data, cap * sizeof(int));
    if (!grown) {
      list->failed = 1;
      return;
    }
    list->data = grown;
    list->cap = cap;
  }
  list->data[list->len++] = value;
}

/* The point ids of a set of vertices, preceded by their count. */
static void push_vertex_set(qhT* qh, IntList* list, setT* set) {
  push(list, qh_setsize(qh, set));
  vertexT *vertex, **vertexp;
  FOREACHvertex_(set) {
    push(list, qh_pointid(qh, vertex->point));
  }
}

static void push_vertices(qhT* qh, IntList* list) {
  int count = 0;
  vertexT* vertex;
  FORALLvertices {
    count++;
  }
  push(list, count);
  FORALLvertices {
    push(list, qh_pointid(qh, vertex->point));
    push(list, qh_setsize(qh, vertex->neighbors));
    facetT *neighbor, **neighborp;
    FOREACHneighbor_(vertex) {
      push_vertex_set(qh, list, neighbor->vertices);
    }
  }
}

static void push_facets(qhT* qh, IntList* list) {
  int count = 0;
  facetT* facet;
  FORALLfacets {
    count++;
  }
  push(list, count);
  FORALLfacets {
    push(list, facet->toporient ? 1 : 0);
    push_vertex_set(qh, list, facet->vertices);
  }
}

/* `qhull Qt`, triangulation and vertex neighbours, as mjCMesh::MakeGraph runs them. qhull
 * reports errors by longjmp to qh->errexit; nothing in this frame needs cleaning up after one. */
static int run_qhull(qhT* qh, double* points, int npoints) {
  char command[] = "qhull Qt";
  int status;
  qh->NOerrexit = False;
  status = setjmp(qh->errexit);
  if (status == 0) {
    qh_initflags(qh, command);
    qh_init_B(qh, points, npoints, 3, False);
    qh_qhull(qh);
    qh_triangulate(qh);
    qh_vertexneighbors(qh);
  }
  qh->NOerrexit = True;
  return status;
}

int mjrs_qhull_hull(double* points, int npoints, int** out, size_t* len) {
  IntList list = {NULL, 0, 0, 0};
  int status;
  qhT* qh = (qhT*)calloc(1, sizeof(qhT));
  *out = NULL;
  *len = 0;
  if (!qh) {
    return MJRS_QHULL_NOMEM;
  }
  qh_zero(qh, stderr);
  qh_init_A(qh, stdin, stdout, stderr, 0, NULL);
  status = run_qhull(qh, points, npoints);
  if (status == 0) {
    push(&list, qh->num_vertices);
    push(&list, qh->num_facets);
    push_vertices(qh, &list);
    push_facets(qh, &list);
    if (list.failed) {
      status = MJRS_QHULL_NOMEM;
    }
  }
  /* !qh_ALL: free the long memory here, the short memory next */
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  free(qh);
  if (status != 0) {
    free(list.data);
    return status;
  }
  *out = list.data;
  *len = list.len;
  return 0;
}

void mjrs_qhull_free(int* list) { free(list); }
