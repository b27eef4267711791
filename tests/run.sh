#!/usr/bin/env bash
# The test command: sets up virtual environments, builds the tables, runs the
# checks (vermin for the brick's Python 3.5, ruff, shellcheck) and pytest on
# the current python3 and again on pyenv's CPython 3.6.15 when present.
# Usage: bash tests/run.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PYTHON:-python3}

log() { printf '\n== %s\n' "$*"; }

# make_venv DIR PYTHON EXTRAS
make_venv() {
    local dir=$1 py=$2 extras=$3
    if [ ! -x "$dir/bin/python" ]; then
        "$py" -m venv "$dir"
    fi
    if ! "$dir/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 7))'; then
        # CPython 3.6's bundled pip cannot install current packages.
        "$dir/bin/python" -m pip install -q 'pip==21.3.1'
    fi
    # kociemba's setup.py needs cffi at build time; its setup_requires would
    # fetch the newest cffi, which no longer builds on old Pythons.
    "$dir/bin/python" -m pip install -q cffi wheel
    # the editable install also builds the solver's compiled core in place (solver/_core*.so);
    # under CI, tests/solver/test_core.py fails when it was not built
    "$dir/bin/python" -m pip install -q -e ".[$extras]"
    "$dir/bin/python" -c 'from cubebot.solver.search import core_path; print("solver search path:", core_path())'
}

# run_pytest DIR [args]: pytest, treating "no tests collected" as a failure.
run_pytest() {
    local dir=$1; shift
    local rc=0
    "$dir/bin/python" -m pytest -q "$@" || rc=$?
    if [ "$rc" -eq 5 ]; then
        echo "pytest collected no tests: that is a failure here" >&2
        return 1
    fi
    return "$rc"
}

# apt_tools: sshd (for the deploy test against a real OpenSSH server), systemd-analyze (the
# unit file's check, from systemd), shellcheck and chromium (the classroom page's test drives
# Debian's chromium through Playwright for Python, installed by the test extra; Playwright's own
# browser download is never used) come from apt. On a fresh machine, as root, install the
# missing ones quietly.
apt_tools() {
    local pkgs=()
    [ -x /usr/sbin/sshd ] || pkgs+=(openssh-server)
    command -v shellcheck >/dev/null 2>&1 || pkgs+=(shellcheck)
    [ -x /usr/bin/chromium ] || pkgs+=(chromium)
    command -v systemd-analyze >/dev/null 2>&1 || pkgs+=(systemd)
    [ "${#pkgs[@]}" -gt 0 ] || return 0
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "warning: ${pkgs[*]} missing and cannot be installed here (not root, or no apt-get)" >&2
        return 0
    fi
    log "installing ${pkgs[*]} with apt-get"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}"; } >/dev/null; then
        echo "warning: apt-get could not install ${pkgs[*]}" >&2
    fi
}
apt_tools

log "setting up .venv ($($PY --version 2>&1))"
make_venv "$ROOT/.venv" "$PY" "test,ev3,lint"

log "building and verifying tables"
"$ROOT/.venv/bin/cubebot" tables build --all
"$ROOT/.venv/bin/cubebot" tables verify

log "vermin: cubebot/, robot/, solver/, tables/ and setup.py must run on CPython 3.5"
out=$("$ROOT/.venv/bin/vermin" -q --no-tips --violations -t=3.5- cubebot robot solver tables setup.py deploy/tablecheck.py 2>&1 || true)
if [ -n "$out" ]; then
    printf '%s\n' "$out" >&2
    echo "vermin found code that needs a newer Python than the brick's 3.5" >&2
    exit 1
fi

log "ruff"
"$ROOT/.venv/bin/ruff" check --quiet cubebot robot solver tables tests bench deploy setup.py

if [ -f deploy.sh ]; then
    log "shellcheck"
    SHELLCHECK="$ROOT/.venv/bin/shellcheck"
    [ -x "$SHELLCHECK" ] || SHELLCHECK=shellcheck
    "$SHELLCHECK" deploy.sh deploy/brick.sh tests/run.sh .ci/run
fi

# wheel_check: build the wheel, install it into a fresh venv beside Robot Framework (which
# imports as `robot`), and from another directory build the 2x2x2 tables (into a per-user
# data dir), solve a 2x2x2 (the solution applied back), run the demo, and check that Robot
# Framework still works.
wheel_check() {
    local tmp state solution tops
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' RETURN
    "$ROOT/.venv/bin/python" -m pip wheel -q --no-deps -w "$tmp/dist" "$ROOT"
    "$PY" -m venv "$tmp/venv"
    "$tmp/venv/bin/python" -m pip install -q cffi wheel
    "$tmp/venv/bin/python" -m pip install -q "$tmp"/dist/cubebot-*.whl robotframework
    (
        cd "$tmp"
        unset CUBEBOT_TABLES
        export XDG_DATA_HOME="$tmp/data"
        # the wheel installs one top-level import package, cubebot (no robot, solver or tables)
        tops=$("$tmp/venv/bin/python" -m zipfile -l "$tmp"/dist/cubebot-*.whl | awk 'NR > 1 {print $1}' |
               cut -d/ -f1 | grep -v '\.dist-info$' | sort -u)
        [ "$tops" = cubebot ] || { echo "the wheel installs top-level packages: $tops" >&2; exit 1; }
        # the classroom page's own files ship in the wheel (package data), each one the server serves
        "$tmp/venv/bin/python" -c 'from cubebot.robot.ui.classroom.server import ASSETS, STATIC_DIR; import os
missing = [n for n in ASSETS if not os.path.isfile(os.path.join(STATIC_DIR, n))]
assert not missing, "classroom assets missing from the wheel: %s" % missing' ||
            { echo "the wheel lacks the classroom page's files" >&2; exit 1; }
        "$tmp/venv/bin/cubebot" tables build
        for name in 2x2-htm 3x3-moves; do
            [ -f "$tmp/data/cubebot/tables/$name.bin" ] || { echo "table $name not in the per-user data dir" >&2; exit 1; }
        done
        state=$("$tmp/venv/bin/cubebot" scramble --size 2 --seed 1 | head -n 1)
        solution=$("$tmp/venv/bin/cubebot" solve --size 2 "$state")
        "$tmp/venv/bin/python" - "$state" "$solution" <<'PYEOF'
import sys
from cubebot.solver.facelets import is_solved
from cubebot.solver.moves import apply, parse
state, solution = sys.argv[1], sys.argv[2]
assert is_solved(apply(state, parse(solution), 2), 2), (state, solution)
print("2x2x2 {} solved by {}".format(state, solution))
PYEOF
        demo=$("$tmp/venv/bin/cubebot" demo --seed 1)
        printf '%s\n' "$demo" | grep -qx solved || { echo "demo --seed 1 did not end solved: $demo" >&2; exit 1; }
        "$tmp/venv/bin/python" -c 'import robot, robot.api; assert "site-packages/robot" in robot.__file__'
        # shellcheck disable=SC2016  # ${{...}} is Robot Framework's syntax, not the shell's
        printf '*** Test Cases ***\nAdds\n    Should Be Equal As Integers    ${{1 + 1}}    2\n' > "$tmp/check.robot"
        "$tmp/venv/bin/robot" --output NONE --report NONE --log NONE "$tmp/check.robot" >/dev/null
    )
}
log "wheel: installed beside Robot Framework, used from another directory"
wheel_check

# The two pytest runs are independent (tables are only read, every test writes under its own
# tmp_path, sshd and pty tests take spare ports and fresh ptys), so they run side by side on the
# machine's cores; each run's output is shown whole when both have ended.
PY36="$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")/versions/3.6.15/bin/python3.6"
if [ ! -x "$PY36" ]; then
    log "pytest on $("$ROOT/.venv/bin/python" --version 2>&1)"
    run_pytest "$ROOT/.venv" "$@"
    log "CPython 3.6.15 not found at $PY36: skipped the old-Python run"
    log "all checks passed"
    exit 0
fi
log "setting up .venv36 (CPython 3.6.15, the oldest Python here; the brick runs 3.5)"
make_venv "$ROOT/.venv36" "$PY36" "test,ev3"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
log "pytest on $("$ROOT/.venv/bin/python" --version 2>&1) and on CPython 3.6.15, side by side"
rc_new=0
rc_old=0
run_pytest "$ROOT/.venv" -p no:cacheprovider "$@" >"$logs/new" 2>&1 &
pid_new=$!
# The 6x6x6-9x9x9 solves (minutes of pure-Python search, the same code as on the current
# Python, and vermin checks it for 3.5) run once, in the run above, to keep CI within its 30 minutes.
run_pytest "$ROOT/.venv36" -p no:cacheprovider --ignore=tests/solver/test_solve_big.py "$@" >"$logs/old" 2>&1 &
pid_old=$!
wait "$pid_new" || rc_new=$?
wait "$pid_old" || rc_old=$?
log "pytest on $("$ROOT/.venv/bin/python" --version 2>&1): exit $rc_new"
cat "$logs/new"
log "pytest on CPython 3.6.15: exit $rc_old"
cat "$logs/old"
if [ "$rc_new" -ne 0 ] || [ "$rc_old" -ne 0 ]; then
    echo "pytest failed (current Python: exit $rc_new, CPython 3.6.15: exit $rc_old)" >&2
    exit 1
fi
log "all checks passed"
