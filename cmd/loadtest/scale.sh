#!/usr/bin/env bash
# Scale runs: a Redis topology, NODES server nodes and one load generator per node, all on
# loopback, and the moves load on every node at once. Prints one line per node and the
# totals. Everything it starts is killed when it ends (or on Ctrl-C).
#
# Usage (from the repository root):
#   cmd/loadtest/scale.sh TOPOLOGY NODES ROOMS_PER_NODE RATE_PER_NODE DURATION [server flags...]
#     TOPOLOGY  single | sentinel | cluster   (Redis with --appendonly yes --appendfsync always)
#               single-everysec | cluster-everysec | memory (NODES must be 1)
# e.g.
#   cmd/loadtest/scale.sh single 1 1980 2000 40s
#   cmd/loadtest/scale.sh cluster 3 600 600 40s
#   cmd/loadtest/scale.sh sentinel 1 500 500 30s -redis-wait-replicas 1
# Environment: SPECTATORS (default 8), WARMUP (default 10s), OUT (directory for logs and
# JSON results; default a fresh temporary directory, printed), PIN (CPU lists for taskset,
# REDIS:NODES[:LOADGEN]: "0:1" puts the Redis servers on CPU 0, the nodes and load
# generators on CPU 1; "0:1:0" the load generators on CPU 0 with Redis; empty: no pinning).
#
# Besides latency it prints the CPU each process used per move over the measured window:
# the nodes and load generators from their own figures, the Redis servers from
# /proc/<pid>/stat sampled every second.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 5 ] || { sed -n '2,17p' "$0"; exit 2; }
topology=$1 nodes=$2 rooms=$3 rate=$4 duration=$5
shift 5
spectators=${SPECTATORS:-8}
warmup=${WARMUP:-10s}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
ulimit -n 20000
redis_pin=() node_pin=() lt_pin=()
if [ -n "${PIN:-}" ]; then
  IFS=: read -r pin_redis pin_node pin_lt <<<"$PIN"
  redis_pin=(taskset -c "$pin_redis") node_pin=(taskset -c "$pin_node") lt_pin=(taskset -c "${pin_lt:-$pin_node}")
fi

. cmd/loadtest/lib.sh # pids, cleanup, freeport

go build -o "$out/server" ./cmd/server
go build -o "$out/loadtest" ./cmd/loadtest

fsync=always
case $topology in *-everysec) fsync=everysec ;; esac
redis_ports=() redis_pids=()
redis() { # port dir extra...
  local port=$1 dir=$2; shift 2
  redis_ports+=("$port")
  rm -rf "$dir" && mkdir -p "$dir" # a fresh server: no cluster or data of an earlier run
  "${redis_pin[@]}" redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save '' --appendonly yes \
    --appendfsync "$fsync" --repl-diskless-sync-delay 0 --logfile "$dir/redis.log" "$@" &
  pids+=($!) redis_pids+=($!)
  for _ in $(seq 1 200); do redis-cli -p "$port" ping >/dev/null 2>&1 && return; sleep 0.1; done
  echo "redis on $port did not start" >&2; exit 1
}
# latency_on makes every data server record its slow events (the AOF fsync among them).
latency_on() {
  for p in "${redis_ports[@]}"; do redis-cli -p "$p" config set latency-monitor-threshold 2 >/dev/null; done
}

backend=()
case $topology in
  memory) ;;
  single|single-everysec)
    p=$(freeport); redis "$p" "$out/redis"
    backend=(-redis-url "redis://127.0.0.1:$p/0") ;;
  sentinel)
    m=$(freeport); redis "$m" "$out/master"
    r=$(freeport); redis "$r" "$out/replica" --replicaof 127.0.0.1 "$m"
    sens=""
    for i in 1 2 3; do
      s=$(freeport); mkdir -p "$out/sentinel$i"
      printf 'sentinel monitor hall 127.0.0.1 %s 2\nsentinel down-after-milliseconds hall 1000\nsentinel failover-timeout hall 5000\n' "$m" >"$out/sentinel$i/sentinel.conf"
      redis-server "$out/sentinel$i/sentinel.conf" --sentinel --bind 127.0.0.1 --port "$s" --logfile "$out/sentinel$i/log" &
      pids+=($!)
      sens="$sens${sens:+,}127.0.0.1:$s"
    done
    until redis-cli -p "$m" info replication | grep -q 'state=online'; do sleep 0.1; done
    backend=(-redis-sentinel-addrs "$sens" -redis-sentinel-master hall) ;;
  cluster|cluster-everysec)
    addrs=()
    for i in 1 2 3 4 5 6; do
      p=$(freeport 10000)
      redis "$p" "$out/cluster$i" --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000
      addrs+=("127.0.0.1:$p")
    done
    redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$out/cluster-create.log" 2>&1 ||
      { cat "$out/cluster-create.log" >&2; exit 1; }
    for a in "${addrs[@]}"; do
      until redis-cli -p "${a#*:}" cluster info | grep -q 'cluster_state:ok'; do sleep 0.1; done
    done
    backend=(-redis-cluster-addrs "$(IFS=,; echo "${addrs[*]}")") ;;
  *) echo "unknown topology $topology" >&2; exit 2 ;;
esac

node_addrs=()
for i in $(seq 1 "$nodes"); do
  port=$(freeport)
  "${node_pin[@]}" nice -n 10 "$out/server" -addr "127.0.0.1:$port" -node "n$i" -max-conns-per-ip -1 -rooms-per-minute 0 \
    -messages-per-second 1000 -message-burst 1000 -log-level warn "${backend[@]}" "$@" 2>"$out/server$i.log" &
  pids+=($!)
  node_addrs+=("127.0.0.1:$port")
done
for a in "${node_addrs[@]}"; do
  until curl -sf "http://$a/readyz" >/dev/null; do sleep 0.1; done
done

[ ${#redis_ports[@]} -gt 0 ] && latency_on
echo "scale: $topology, $nodes node(s), $rooms rooms and $rate moves/s per node, $duration (logs in $out)"
# The Redis servers' CPU time (clock ticks), once a second while the load runs.
if [ ${#redis_pids[@]} -gt 0 ]; then
  while sleep 1; do
    t=0
    for p in "${redis_pids[@]}"; do t=$(( t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0) )); done
    echo "$(date +%s.%N) $t"
  done >"$out/redis-cpu.txt" &
  sampler=$!
  pids+=($sampler)
fi
lts=()
for i in $(seq 1 "$nodes"); do
  "${lt_pin[@]}" nice -n 10 "$out/loadtest" -addr "${node_addrs[$((i - 1))]}" -rooms "$rooms" -rate "$rate" \
    -spectators "$spectators" -warmup "$warmup" -duration "$duration" -json moves \
    >"$out/loadtest$i.json" 2>"$out/loadtest$i.log" &
  lts+=($!)
  pids+=($!)
done
for p in "${lts[@]}"; do wait "$p"; done
[ -z "${sampler:-}" ] || kill "$sampler" 2>/dev/null || true

# Where the commands went: each data server's role and its calls of the commands a move
# sends (the append script, the lobby index, the pub/sub message).
for p in "${redis_ports[@]}"; do
  role=$(redis-cli -p "$p" info replication | tr -d '\r' | awk -F: '/^role:/ {print $2}')
  redis-cli -p "$p" info commandstats | tr -d '\r' | awk -F'[:=,]' -v p="$p" -v role="$role" '
    /^cmdstat_(eval|evalsha|zadd|publish|spublish|wait):/ {calls[$1] = $3; us[$1] = $7}
    END {line = "redis " p " (" role "):"; for (c in calls) line = line " " substr(c, 9) " " calls[c] " (" us[c] " us/call)"; print line}'
  # Slow events over 2 ms: name, latest ms, most ms (aof-fsync-always is the fsync).
  redis-cli -p "$p" latency latest | paste -sd' ' | awk -v p="$p" 'NF {print "  redis " p " slow events (name, at, latest ms, max ms): " $0}'
done

python3 - "$out" "$nodes" "$(getconf CLK_TCK)" <<'EOF'
import json, os, sys
out, n, hz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rs = [json.load(open(f"{out}/loadtest{i}.json")) for i in range(1, n + 1)]
for i, r in enumerate(rs, 1):
    l = r["latency"]
    print(f"node {i}: {r['movesPerSecond']:.0f} moves/s (target {r['targetMovesPerSecond']:.0f}), "
          f"p50 {l['p50Ms']:.2f} ms, p99 {l['p99Ms']:.2f} ms, max {l['maxMs']:.1f} ms, "
          f"server move p99 <= {r['server']['moveCommandP99Ms']} ms, errors {r['errors'] or {}}, "
          f"PSI {r.get('machineCpuPressure', 0):.0%}")
total = sum(r["movesPerSecond"] for r in rs)
worst = max(r["latency"]["p99Ms"] for r in rs)
print(f"total: {total:.0f} moves/s over {n} node(s); p99 (worst node) {worst:.2f} ms")
# CPU per move over the measured window (the last `seconds` before the load generators
# ended): every node's and load generator's own figure, and the Redis servers' samples.
secs = rs[0]["seconds"]
node_cores = sum(r["server"]["cpuCores"] for r in rs)
lt_cores = sum(r["loadtestCpuCores"] for r in rs)
redis_cores = 0.0
f = f"{out}/redis-cpu.txt"
if os.path.exists(f):
    samples = [tuple(map(float, l.split())) for l in open(f) if len(l.split()) == 2]
    if len(samples) >= 2:
        end = samples[-1]
        start = min(samples, key=lambda s: abs(s[0] - (end[0] - secs)))
        if end[0] > start[0]:
            redis_cores = (end[1] - start[1]) / hz / (end[0] - start[0])
us = lambda cores: cores / total * 1e6 if total else 0
print(f"CPU: nodes {node_cores:.2f} cores ({us(node_cores):.0f} us/move), Redis {redis_cores:.2f} cores "
      f"({us(redis_cores):.0f} us/move), load generators {lt_cores:.2f} cores ({us(lt_cores):.0f} us/move)")
EOF
