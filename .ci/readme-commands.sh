#!/usr/bin/env bash
# Runs every command of the README's ```sh blocks literally, in the repository root, as a new user
# who copies them would (CI runs it in its fresh clone right after `npm install`).
#
# - Skipped, because CI runs them as its own steps or they never end: npm install, npm ci,
#   npm start, npm test, npm run bench, npm run lint, npm run typecheck, npm run format, and
#   system package installs (sudo, apt-get). In an `a && b` line only those parts are skipped.
# - `... triad serve ...` is started in the background; every URL it prints must answer /healthz
#   and / (the console) with 200 within 120 s; then it gets Ctrl+C (SIGINT) and must stop within 30 s.
# - Every other command must exit 0; a file it writes with `> f` or `-o f` ending in .json or
#   .sarif must hold valid JSON. Commands read 'ReadmeCheck42' on standard input (a password
#   prompt reads its first line), unless they pipe their own.
# - Files and directories the commands create (switch.ndst.yaml, report.sarif, data/ ...) are
#   removed at the end, so later CI steps see the clone as it was.
#
# Usage: .ci/readme-commands.sh [README.md]
set -uo pipefail
cd "$(dirname "$0")/.."
readme=${1:-README.md}
export PATH="$PWD/node_modules/.bin:$PATH"

skip_pattern='^(npm (install|ci|start|test|run (bench|lint|typecheck|format))|sudo|apt-get|apt)( |$)'
failures=0
ran=0
work=$(mktemp -d /tmp/triad-readme.XXXXXX)
before="$work/before"
git status --porcelain --ignored --untracked-files=normal | sed 's/^...//' | sort > "$before"

cleanup() {
  git status --porcelain --ignored --untracked-files=normal | sed 's/^...//' | sort |
    comm -13 "$before" - | while IFS= read -r created; do rm -rf -- "$created"; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# The command without leading VAR=value assignments, for deciding how to run it.
bare() {
  sed -E 's/^([A-Za-z_][A-Za-z0-9_]*=[^ ]* +)*//' <<<"$1"
}

check_json_outputs() {
  local cmd=$1 target
  for target in $(grep -oE '(>|-o) *[^ ;&|]+\.(json|sarif)([ ;&|]|$)' <<<"$cmd" | sed -E 's/^(>|-o) *//; s/[ ;&|]$//'); do
    if [ ! -s "$target" ]; then
      fail "$cmd: $target is missing or empty"
    elif ! node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$target" 2>"$work/json-error"; then
      fail "$cmd: $target is not valid JSON: $(tail -1 "$work/json-error")"
    else
      echo "    $target: valid JSON"
    fi
  done
}

run_serve() {
  local cmd=$1 log="$work/serve.log" pid url deadline code
  # Emptied here, not by the redirection below: that one happens in the child, maybe after the
  # first look for the ready line, which would then find the previous command's.
  : >"$log"
  : >"$work/serve.err"
  # A session of its own, so Ctrl+C (SIGINT) reaches npx and the node process behind it together.
  setsid bash -c "$cmd" >>"$log" 2>>"$work/serve.err" </dev/null &
  pid=$!
  deadline=$((SECONDS + 120))
  until grep -q 'Press Ctrl+C to stop' "$log"; do
    if ! kill -0 "$pid" 2>/dev/null || [ $SECONDS -gt $deadline ]; then
      fail "$cmd: did not report ready; it printed:"
      cat "$log" "$work/serve.err"
      kill -KILL -- -"$pid" 2>/dev/null
      return
    fi
    sleep 0.5
  done
  for url in $(grep -oE '^[A-Z][A-Za-z ]+ +https?://[^ ]+$' "$log" | grep -oE 'https?://[^ ]+'); do
    url=${url%/}
    code=$(curl -s -o /dev/null -w '%{http_code}' "$url/healthz")
    if [ "$code" = 200 ]; then echo "    $url/healthz: 200"; else fail "$cmd: $url/healthz answered $code"; fi
    # Every service serves the console at / too.
    code=$(curl -s -o /dev/null -w '%{http_code}' "$url/")
    if [ "$code" = 200 ]; then echo "    $url/: 200"; else fail "$cmd: $url/ answered $code"; fi
  done
  grep -qE '^[A-Z][A-Za-z ]+ +https?://' "$log" || fail "$cmd: printed no service URL"
  kill -INT -- -"$pid"
  deadline=$((SECONDS + 30))
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -gt $deadline ]; then
      fail "$cmd: still running 30 s after Ctrl+C"
      kill -KILL -- -"$pid" 2>/dev/null
      break
    fi
    sleep 0.2
  done
  wait "$pid" 2>/dev/null
}

run_one() {
  local cmd=$1 part kept=() reason
  # Split `a && b` so that only the skipped parts are left out.
  while IFS= read -r part; do
    part=$(sed -E 's/^ +| +$//g' <<<"$part")
    [ -z "$part" ] && continue
    if grep -qE "$skip_pattern" <<<"$(bare "$part")"; then
      echo "skip: $part (CI step of its own, long-running or a system install)"
    else
      kept+=("$part")
    fi
  done < <(sed 's/ && /\n/g' <<<"$cmd")
  [ ${#kept[@]} -eq 0 ] && return
  cmd=$(printf '%s && ' "${kept[@]}")
  cmd=${cmd% && }
  echo "run:  $cmd"
  ran=$((ran + 1))
  if grep -qE '(^|[ /])triad serve( |$)' <<<"$(bare "$cmd")"; then
    run_serve "$cmd"
    return
  fi
  printf 'ReadmeCheck42\n' | bash -c "$cmd" >"$work/out" 2>"$work/err"
  reason=$?
  if [ $reason -ne 0 ]; then
    fail "$cmd: exit code $reason"
    tail -20 "$work/out" "$work/err"
  fi
  check_json_outputs "$cmd"
}

# Every ```sh block, continuation lines (ending in \) joined, comments and blank lines dropped.
mapfile -t commands < <(
  awk '/^```sh[[:space:]]*$/ { inside = 1; next } /^```/ { inside = 0; next } inside' "$readme" |
    sed -E 's/[[:space:]]+#[^'"'"'"]*$//; /^[[:space:]]*(#|$)/d' |
    awk '{ if (sub(/\\$/, "")) { line = line $0; next } print line $0; line = "" }'
)
[ ${#commands[@]} -gt 0 ] || fail "no \`\`\`sh block with commands in $readme"
for cmd in "${commands[@]}"; do run_one "$cmd"; done

echo "README commands: ${#commands[@]} found, $ran run, $failures failed"
[ $failures -eq 0 ]
