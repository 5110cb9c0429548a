#!/bin/sh
# A batch of pairs in N shards on one machine with GNU parallel, one single-threaded process
# each, then joined: the bytes of one run.
#   ./measure.sh pairs.csv dem.tif measured.csv [N]
# Rerunning after an interruption redoes only the shards without a matching manifest.
set -eu
pairs=$1 dem=$2 out=$3 n=${4:-$(nproc)}
TRANSECT=${TRANSECT:-transect}
mkdir -p parts
seq 1 "$n" | parallel --halt now,fail=1 \
    "$TRANSECT" measure --dem "$dem" --pairs "$pairs" --threads 1 --shard {}/"$n" --skip-existing -o parts/part-{}.csv
"$TRANSECT" merge parts/part-*.csv -o "$out"
