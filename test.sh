#!/usr/bin/env bash
# Runs every test of the project: go vet and gofmt, the Go tests with the race detector
# (against a throwaway redis-server; the Redis tests also start their own Sentinel set and
# Cluster on loopback), and the web client's unit and browser tests (Chromium).
# On a fresh machine it installs what is missing (as root, with apt-get and npm ci).
#
# It prints one line per Go package as it finishes, the web tests' counts, and a summary
# at the end; the full output goes to log files whose paths it prints when something
# failed. Environment:
#   TEST_REDIS_URL   a Redis to use instead of starting one (kept as it is when set)
#   CI=true          a missing redis-server fails the run instead of skipping the Redis tests
#   UPDATE_SCREENSHOTS=1  the browser tests rewrite docs/screenshots/*.png
set -euo pipefail
cd "$(dirname "$0")"

say() { printf '\n== %s\n' "$*"; }
started=$SECONDS

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
[ -x /usr/bin/chromium ] || missing+=(chromium chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  else
    echo "missing: ${missing[*]} (run as root, or: sudo apt-get install -y ${missing[*]})" >&2
  fi
fi
if [ -n "${CI:-}" ] && ! command -v redis-server >/dev/null 2>&1 && [ -z "${TEST_REDIS_URL:-}" ]; then
  echo "FAIL: redis-server is required in CI and could not be installed" >&2
  exit 1
fi

# Where a docker client exists, a test checks docker-compose.yml with `docker compose
# config`. Debian 12 packages no Compose v2 plugin, so build it once from its Go module
# into the user's docker plugin folder (about two minutes; nothing lands in this tree).
compose_version=v2.40.3
if command -v docker >/dev/null 2>&1 && ! docker compose version >/dev/null 2>&1; then
  plugins="${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins"
  say "building the docker compose plugin $compose_version into $plugins (once)"
  build=$(mktemp -d)
  if src=$(cd "$build" && GOFLAGS= GOWORK=off go mod download -json "github.com/docker/compose/v2@$compose_version" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p') && [ -n "$src" ] &&
    cp -r "$src" "$build/src" && chmod -R u+w "$build/src" && mkdir -p "$plugins" &&
    (cd "$build/src" && GOFLAGS= GOWORK=off nice go build -trimpath \
      -ldflags "-X github.com/docker/compose/v2/internal.Version=$compose_version" \
      -o "$plugins/docker-compose" ./cmd); then
    docker compose version
  else
    echo "could not build the docker compose plugin; TestComposeFile will say so" >&2
  fi
  rm -rf "$build"
fi

# Logs and a throwaway Redis on a free loopback port, gone when this script ends (the
# logs are kept when something failed).
workdir=$(mktemp -d)
redis_pid=""
failed=0
cleanup() {
  if [ -n "$redis_pid" ]; then kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
  if [ "$failed" = 0 ]; then rm -rf "$workdir"; fi
}
trap cleanup EXIT
if [ -n "${TEST_REDIS_URL:-}" ]; then
  say "redis for tests: $TEST_REDIS_URL (from the environment)"
elif command -v redis-server >/dev/null 2>&1; then
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
  say "redis for tests: ${TEST_REDIS_URL:-none}"
else
  say "redis for tests: none (the Redis tests will skip)"
fi

say "go vet, gofmt"
go vet ./...
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './web/node_modules/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi

say "go test -race (one line per package; full output in $workdir/go-test.log)"
golog="$workdir/go-test.log"
: >"$golog" # exists before tail follows it
set +e
go test -race -count=1 -timeout 45m -v ./... >"$golog" 2>&1 &
gopid=$!
# Follow the log: a line per finished package, and every failed or skipped test.
tail -n +1 --pid="$gopid" -f "$golog" | grep --line-buffered -E '^(ok|FAIL|panic:|--- FAIL|--- SKIP|\s+--- (FAIL|SKIP))' || true
wait "$gopid"
go_status=$?
set -e
go_pass=$(grep -cE '^\s*--- PASS' "$golog" || true)
go_fail=$(grep -cE '^\s*--- FAIL' "$golog" || true)
go_skip=$(grep -cE '^\s*--- SKIP' "$golog" || true)
if [ "$go_status" != 0 ]; then
  failed=1
  echo
  echo "go test failed (exit $go_status); the failures:"
  grep -E -A 25 '^\s*--- FAIL|^panic:|^FAIL\s' "$golog" | head -n 300 || true
fi

say "web client tests (full output in $workdir/web-test.log)"
weblog="$workdir/web-test.log"
set +e
(cd web && npm ci --no-audit --no-fund && npm test) >"$weblog" 2>&1
web_status=$?
set -e
web_pass=$(grep -E '^# pass ' "$weblog" | awk '{s += $3} END {print s + 0}')
web_fail=$(grep -E '^# fail ' "$weblog" | awk '{s += $3} END {print s + 0}')
grep -E '^# (tests|pass|fail|skipped) ' "$weblog" || true
if [ "$web_status" != 0 ]; then
  failed=1
  echo "web tests failed (exit $web_status); the failures:"
  grep -E -A 20 '^\s*not ok' "$weblog" | head -n 200 || tail -n 60 "$weblog"
fi

say "summary ($((SECONDS - started)) s)"
echo "go:  $go_pass passed, $go_fail failed, $go_skip skipped (tests and subtests)"
echo "web: $web_pass passed, $web_fail failed"
if [ "$failed" != 0 ]; then
  echo "logs kept in $workdir"
  echo "FAILED"
  exit 1
fi
echo "all tests passed"
echo "$((go_pass + web_pass)) passed, $((go_fail + web_fail)) failed, $go_skip skipped"
