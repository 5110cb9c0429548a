#!/bin/sh
# make slurm-check: the Slurm recipe (examples/slurm) run for real on a single-node cluster on
# this machine, and its merged bytes compared with one process's. Installs Slurm and munge from
# Debian when missing. When no controller answers, it starts munged, slurmctld and slurmd itself
# (state and logs under .build/slurm-check) inside a network namespace of its own that holds
# nothing but the loopback interface, so the daemons (which listen on every address of their
# namespace) can reach and be reached at 127.0.0.1 only, and stops them at the end. Needs root.
# Exits non-zero on any difference.
set -eu
say() { echo "slurm-check: $*"; }
# Installed before the network namespace below, where the package mirror cannot be reached.
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null || ! command -v ip >/dev/null; then
    say "installing slurm-wlm, munge and iproute2 from Debian"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge iproute2 >/dev/null
fi
if [ -z "${TRANSECT_SLURM_CHECK_NS:-}" ] && ! scontrol ping >/dev/null 2>&1; then
    ip link set lo up 2>/dev/null || true
    # A second address on the loopback interface, as glibc's getaddrinfo (AI_ADDRCONFIG) gives
    # the daemons no address to listen on while the only one is 127.0.0.1; packets to it stay
    # on lo too.
    exec unshare --net sh -c 'ip link set lo up && ip addr add 10.254.254.254/32 dev lo && TRANSECT_SLURM_CHECK_NS=1 exec sh "$0"' "$0"
fi
root=$(cd "$(dirname "$0")/.." && pwd)
transect="$root/.build/release/transect"
dem="$root/../shared/data/yosemite_valley_ned1as.tif"
work="$root/.build/slurm-check"
mkdir -p "$work/state" "$work/spool" "$work/run"

conf="$work/slurm.conf"
cat >"$conf" <<CONF
ClusterName=transectcheck
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmdSpoolDir=$work/spool
StateSaveLocation=$work/state
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
JobCompType=jobcomp/filetxt
JobCompLoc=$work/jobcomp.txt
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"

if [ -n "${TRANSECT_SLURM_CHECK_NS:-}" ]; then
    say "network namespace with loopback only: $(ip -br addr | tr -s ' ' | tr '\n' ';')"
    stop() {
        scontrol shutdown >/dev/null 2>&1 || true
        sleep 1
        for pidfile in "$work/run/slurmd.pid" "$work/run/slurmctld.pid" "$work/run/munged.pid"; do
            [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
        done
    }
    trap stop EXIT
    if ! pgrep -x munged >/dev/null; then
        say "starting munged"
        mkdir -p /run/munge && chown munge:munge /run/munge
        munged --force --pid-file="$work/run/munged.pid" 2>/dev/null || munged --force
    fi
    say "starting slurmctld and slurmd (127.0.0.1:16817/16818, state in $work)"
    rm -rf "$work/state" "$work/spool" "$work/jobcomp.txt" && mkdir -p "$work/state" "$work/spool"
    slurmctld -f "$conf"
    slurmd -f "$conf" -N localhost
else
    say "using the Slurm cluster already running"
    unset SLURM_CONF
fi
tries=0
until sinfo -h -o %t 2>/dev/null | grep -qx idle; do
    tries=$((tries + 1))
    if [ "$tries" -gt 60 ]; then
        say "the node never became idle"
        sinfo || true
        exit 1
    fi
    scontrol update nodename=localhost state=resume >/dev/null 2>&1 || true
    sleep 1
done
say "cluster up: $(sinfo -h -o '%P %D %t %c')"

[ -x "$transect" ] || { say "build first: $transect is missing"; exit 1; }
job="$work/job"
rm -rf "$job" && mkdir -p "$job"
say "writing 1,000,000 seeded pairs"
python3 - "$job/pairs.csv" <<'PY'
import random, sys
r = random.Random(7)
with open(sys.argv[1], "w") as f:
    f.write("id,from_lon,from_lat,to_lon,to_lat\n")
    for i in range(1_000_000):
        f.write(f"p{i},{r.uniform(-119.66,-119.46):.6f},{r.uniform(37.69,37.85):.6f},"
                f"{r.uniform(-119.66,-119.46):.6f},{r.uniform(37.69,37.85):.6f}\n")
PY
cd "$job"
say "submitting examples/slurm (array of 4 and a dependent merge), waiting"
PAIRS="$job/pairs.csv" DEM="$dem" TRANSECT="$transect" OUT="$job/merged.csv" \
    "$root/examples/slurm/submit.sh" --wait
say "one process over the whole file"
"$transect" measure --dem "$dem" --pairs "$job/pairs.csv" -o "$job/one.csv"
say "job lines:"
sacct -c -o JobID,JobName%20,State,ExitCode,Start,End 2>/dev/null || cat "$work/jobcomp.txt"
if cmp "$job/merged.csv" "$job/one.csv"; then
    say "OK: the merged shards are the bytes of one run ($(wc -c <"$job/one.csv") bytes, sha256 $(sha256sum <"$job/one.csv" | cut -c1-16)…)"
else
    say "FAILED: the merged shards differ from one run"
    exit 1
fi
