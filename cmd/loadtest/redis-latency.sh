#!/usr/bin/env bash
# The Redis share of a move, configuration against configuration: this disk's fsync
# (`loadtest fsync`), then ROUNDS rounds of the Store's append alone (`loadtest append`,
# ROOMS rooms at RATE appends/s) against each Redis set-up in turn, the order rotated
# from round to round so that a change of the machine's load does not fall on one
# set-up. Every line carries the machine's load average and CPU pressure over the run,
# the CPU time the Redis servers and the load generator used per append, and (with perf)
# how many fsyncs the Redis servers made: how many appends shared one.
#
# Usage (from the repository root; run it under `cpu-gate quiet` on the shared machine):
#   cmd/loadtest/redis-latency.sh [SETUP...]
#     SETUP  always | everysec | cluster | replica | wait | always-pinned | everysec-pinned
#            (default: always everysec cluster always-pinned)
#     replica: a master with one replica (both always), the appends on the master;
#     wait: the same with REDIS_WAIT_REPLICAS=1 (WAIT 1 in every append's pipeline).
#     *-pinned: Redis on CPU 0, the load generator on CPU 1 (taskset), to tell the CPU
#     the two share from the disk.
# Environment: ROUNDS (2), ROOMS (2000), RATE (2000), DURATION (20s), WARMUP (5s),
# OUT (logs; default a fresh temporary directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
setups=("$@")
[ ${#setups[@]} -gt 0 ] || setups=(always everysec cluster always-pinned)
rounds=${ROUNDS:-2} rooms=${ROOMS:-2000} rate=${RATE:-2000}
duration=${DURATION:-20s} warmup=${WARMUP:-5s}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

. cmd/loadtest/lib.sh # pids, cleanup, freeport
go build -o "$out/loadtest" ./cmd/loadtest

# ticks PID...: the CPU time (user + system, in clock ticks) the processes used so far.
ticks() {
  local t=0 p
  for p in "$@"; do t=$(( t + $(awk '{print $14 + $15}' "/proc/$p/stat") )); done
  echo "$t"
}
psi() { awk '/^some/ {sub("total=", "", $5); print $5}' /proc/pressure/cpu; }

# start_redis SETUP: starts the set-up's servers; sets target (the -redis value) and
# rpids (the data servers' pids).
start_redis() {
  local setup=$1 fsync=always pin=() dir
  case $setup in everysec*) fsync=everysec ;; esac
  case $setup in *-pinned) pin=(taskset -c 0) ;; esac
  rpids=()
  local ports=() n=1 extra=()
  case $setup in
    cluster) n=6 extra=(--cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000) ;;
    replica|wait) n=2 ;;
  esac
  for i in $(seq 1 "$n"); do
    local p
    if [ "$setup" = cluster ]; then p=$(freeport 10000); else p=$(freeport); fi
    if [ "$i" = 2 ] && [ "$setup" != cluster ]; then extra=(--replicaof 127.0.0.1 "${ports[0]}"); fi
    dir="$out/$setup-$i"
    rm -rf "$dir" && mkdir -p "$dir"
    "${pin[@]}" redis-server --bind 127.0.0.1 --port "$p" --dir "$dir" --save '' --appendonly yes \
      --appendfsync "$fsync" --repl-diskless-sync-delay 0 --logfile "$dir/redis.log" "${extra[@]}" &
    pids+=($!) rpids+=($!) ports+=("$p")
    until redis-cli -p "$p" ping >/dev/null 2>&1; do sleep 0.1; done
  done
  if [ "$setup" != cluster ]; then
    target="redis://127.0.0.1:${ports[0]}/0"
    if [ "$n" = 2 ]; then
      until redis-cli -p "${ports[0]}" info replication | grep -q 'state=online'; do sleep 0.1; done
    fi
    return
  fi
  local addrs=()
  for p in "${ports[@]}"; do addrs+=("127.0.0.1:$p"); done
  redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$out/cluster-create.log" 2>&1
  for p in "${ports[@]}"; do
    until redis-cli -p "$p" cluster info | grep -q 'cluster_state:ok'; do sleep 0.1; done
    until redis-cli -p "$p" info replication | grep -qE 'role:slave|state=online'; do sleep 0.1; done
  done
  target="cluster:$(IFS=,; echo "${addrs[*]}")"
}

stop_redis() {
  for p in "${rpids[@]}"; do kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
}

echo "redis-latency: ${setups[*]}; $rounds round(s) of $rooms rooms at $rate appends/s, $duration after $warmup (logs in $out)"
echo "$(date -u +%H:%M:%S) $(uptime | sed 's/.*load/load/'); $(head -1 /proc/pressure/cpu)"
"$out/loadtest" -duration 15s -fsync-dir "$out" fsync | sed 's/^/  /'

for round in $(seq 1 "$rounds"); do
  # Rotate the order: round r starts with set-up r.
  order=("${setups[@]:$(( (round - 1) % ${#setups[@]} ))}" "${setups[@]:0:$(( (round - 1) % ${#setups[@]} ))}")
  for setup in "${order[@]}"; do
    start_redis "$setup"
    pin=() wait=()
    case $setup in *-pinned) pin=(taskset -c 1) ;; wait) wait=(-redis-wait-replicas 1) ;; esac
    psi0=$(psi) t0=$(date +%s%N) r0=$(ticks "${rpids[@]}")
    "${pin[@]}" "$out/loadtest" -rooms "$rooms" -rate "$rate" -warmup "$warmup" -duration "$duration" \
      -redis "$target" "${wait[@]}" -json append >"$out/$setup-$round.json" 2>"$out/$setup-$round.log" &
    lt=$!
    pids+=($lt)
    # The Redis servers' fdatasync calls over the measured window (perf's syscall
    # tracepoint; without perf, none counted): how many appends share one fsync.
    if command -v perf >/dev/null 2>&1; then
      (sleep "${warmup%s}"; perf stat -x, -e syscalls:sys_enter_fdatasync -p "$(IFS=,; echo "${rpids[*]}")" \
        -- sleep "${duration%s}") 2>"$out/$setup-$round.perf" &
    fi
    sleep 0.5
    l0=$(ticks "$lt" 2>/dev/null || echo 0)
    while kill -0 "$lt" 2>/dev/null; do l1=$(ticks "$lt" 2>/dev/null || echo "$l1"); sleep 0.5; done
    wait "$lt"
    sleep 0.2 # perf ends with the window, which ended with the load generator
    fsyncs=$(awk -F, '/fdatasync/ {print $1}' "$out/$setup-$round.perf" 2>/dev/null || true)
    psi1=$(psi) t1=$(date +%s%N) r1=$(ticks "${rpids[@]}")
    stop_redis
    python3 - "$out/$setup-$round.json" "$setup" "$round" "$(( psi1 - psi0 ))" "$(( (t1 - t0) / 1000 ))" \
      "$(( r1 - r0 ))" "$(( l1 - l0 ))" "$(getconf CLK_TCK)" "$(cut -d' ' -f1-3 /proc/loadavg)" "${fsyncs:-}" "${duration%s}" <<'EOF'
import json, sys
f, setup, rnd, psi_us, wall_us, rticks, lticks, hz, load, fsyncs, secs = sys.argv[1:]
r = json.load(open(f))
l = r["latency"]
# The CPU figures span the whole run (room creation and warm-up too): per append
# at the measured rate over that time.
wall = int(wall_us) / 1e6
appends = r["appendsPerSecond"] * wall
print(f"round {rnd} {setup:16s} {r['appendsPerSecond']:6.0f}/s  p50 {l['p50Ms']:6.2f}  p90 {l['p90Ms']:6.2f}  "
      f"p99 {l['p99Ms']:7.2f}  max {l['maxMs']:7.1f} ms  errors {r['errors'] or {}}  "
      f"CPU us/append: redis {int(rticks) / int(hz) * 1e6 / appends:4.0f}, loadtest {int(lticks) / int(hz) * 1e6 / appends:4.0f}  "
      f"PSI {int(psi_us) / int(wall_us):4.0%}  load {load}"
      + (f"  fsyncs {int(fsyncs) / float(secs):.0f}/s ({r['appendsPerSecond'] * float(secs) / int(fsyncs):.1f} appends each)"
         if fsyncs.isdigit() and int(fsyncs) > 0 else ""))
EOF
  done
done
