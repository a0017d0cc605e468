# Shell helpers shared by scale.sh and redis-latency.sh (sourced, not run).

# pids are the processes a script started; cleanup kills them all when it ends.
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

# freeport prints a loopback port nobody listens on, below the kernel's ephemeral range
# (the load generators' own sockets take those), and with an offset one whose
# port+offset is free too (a Cluster node's bus port, also kept below that range).
freeport() {
  local off=${1:-0} p span
  span=$(( $(cut -f1 /proc/sys/net/ipv4/ip_local_port_range) - 20000 - off ))
  for _ in $(seq 1 100); do
    p=$(( 20000 + RANDOM % span ))
    if ! (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then
      if [ "$off" = 0 ] || ! (exec 3<>/dev/tcp/127.0.0.1/$((p + off))) 2>/dev/null; then
        echo "$p"; return
      fi
    fi
  done
  echo "no free port" >&2; exit 1
}
