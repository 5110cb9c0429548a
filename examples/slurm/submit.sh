#!/bin/sh
# Submits the 4-shard array and the merge that waits for it.
#   PAIRS=pairs.csv DEM=dem.tif ./submit.sh
set -eu
cd "$(dirname "$0")"
mkdir -p parts
job=$(sbatch --parsable --array=1-4 --export=ALL measure-array.sbatch)
sbatch --parsable --dependency="afterok:$job" --export=ALL merge.sbatch
