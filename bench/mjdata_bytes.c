// Bytes of one mjData of MuJoCo 3.1.6 for a model: the struct, its array buffer and its arena,
// as JSON. Built and run by bench/speed.py:  mjdata_bytes MODEL.mjb
#include <stdio.h>
#include <mujoco/mujoco.h>

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s MODEL.mjb\n", argv[0]);
    return 2;
  }
  mjModel* m = mj_loadModel(argv[1], NULL);
  if (!m) {
    fprintf(stderr, "could not load %s\n", argv[1]);
    return 1;
  }
  mjData* d = mj_makeData(m);
  printf("{\"struct\": %zu, \"nbuffer\": %zu, \"narena\": %zu, \"data_bytes\": %zu}\n",
         sizeof(mjData), d->nbuffer, d->narena, sizeof(mjData) + d->nbuffer + d->narena);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
