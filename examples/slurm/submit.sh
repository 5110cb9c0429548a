#!/bin/sh
# Submits the 4-shard array and the merge that waits for it, from the current directory (the
# jobs write parts/ and the merged file there); arguments go to the merge's sbatch (--wait).
#   PAIRS=pairs.csv DEM=dem.tif OUT=measured.csv path/to/examples/slurm/submit.sh
set -eu
here=$(dirname "$0")
mkdir -p parts
job=$(sbatch --parsable --array=1-4 --export=ALL "$here/measure-array.sbatch")
echo "array job $job"
sbatch --parsable --dependency="afterok:$job" --export=ALL "$@" "$here/merge.sbatch"
