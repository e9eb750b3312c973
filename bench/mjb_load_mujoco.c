// MuJoCo's side of `mjrs speed M.mjb --load N`: mj_loadModel from a VFS buffer (no file I/O),
// N times, best time, as JSON in the same shape (bench/mjb_load.sh builds and runs it).
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: mjb_load_mujoco MODEL.mjb LOADS\n"); return 2; }
  FILE* f = fopen(argv[1], "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", argv[1]); return 1; }
  fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  char* blob = malloc(n);
  if (!blob || fread(blob, 1, n, f) != (size_t)n) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
  fclose(f);
  mjVFS vfs; mj_defaultVFS(&vfs);
  if (mj_addBufferVFS(&vfs, "model.mjb", blob, (int)n)) { fprintf(stderr, "VFS full\n"); return 1; }
  long loads = atol(argv[2]);
  double best = 1e30;
  for (long i = 0; i < loads; i++) {
    double t0 = now();
    mjModel* m = mj_loadModel("model.mjb", &vfs);
    double dt = now() - t0;
    if (!m) { fprintf(stderr, "mj_loadModel failed\n"); return 1; }
    if (dt < best) best = dt;
    mj_deleteModel(m);
  }
  printf("{\"model\": \"%s\", \"bytes\": %ld, \"loads\": %ld, \"seconds_per_load\": %.9f, \"load_megabytes_per_second\": %.1f}\n",
         argv[1], n, loads, best, n / 1e6 / best);
  mj_deleteVFS(&vfs); free(blob);
  return 0;
}
