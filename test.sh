#!/usr/bin/env bash
# Runs every test of the project: go vet, the Go tests with the race detector (against a
# throwaway redis-server), and the web client's unit and browser tests (Chromium).
# On a fresh machine it installs what is missing (as root, with apt-get and npm ci).
set -euo pipefail
cd "$(dirname "$0")"

say() { printf '\n== %s\n' "$*"; }

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
  else
    echo "missing: ${missing[*]} (run as root, or: sudo apt-get install -y ${missing[*]})" >&2
  fi
fi

# A throwaway Redis on a free loopback port, gone when this script ends.
workdir=$(mktemp -d)
redis_pid=""
cleanup() {
  [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null || true
  rm -rf "$workdir"
}
trap cleanup EXIT
if command -v redis-server >/dev/null 2>&1; then
  for _ in $(seq 1 20); do
    port=$(( 20000 + RANDOM % 40000 ))
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --databases 64 \
      --dir "$workdir" --logfile "$workdir/redis.log" &
    redis_pid=$!
    for _ in $(seq 1 50); do
      redis-cli -p "$port" ping >/dev/null 2>&1 && break
      sleep 0.1
    done
    if redis-cli -p "$port" ping >/dev/null 2>&1; then
      export TEST_REDIS_URL="redis://127.0.0.1:$port"
      break
    fi
    kill "$redis_pid" 2>/dev/null || true
    redis_pid=""
  done
fi
say "redis for tests: ${TEST_REDIS_URL:-none}"

say "go vet"
go vet ./...
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './web/node_modules/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi

say "go test -race"
go test -race -count=1 -timeout 45m ./...

say "web client tests"
(cd web && npm ci --no-audit --no-fund && npm test)

say "all tests passed"
