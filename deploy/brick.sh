#!/bin/sh
# The brick side of deploy.sh: runs on the EV3 (ev3dev-stretch, POSIX sh, Python 3.5).
# deploy.sh sends it over SSH (stdin for `probe`, the uploaded copy afterwards); it can
# also be run by hand on the brick: sh ~/cubebot/deploy/brick.sh deps
#
# Usage: brick.sh probe | activate [--reuse-tables] | deps | service restart|stop|start | diag
#
# Environment (all optional):
#   CUBEBOT_HOME       where cubebot lives: $CUBEBOT_HOME/cubebot (code and tables) and
#                      $CUBEBOT_HOME/bin/cubebot (launcher). Default: $HOME.
#   CUBEBOT_PYTHON     the brick's python3. Default: /usr/bin/python3.
#   CUBEBOT_SYSTEMCTL  the systemctl to use. Default: systemctl, and the service steps are
#                      skipped (and say so) when it is absent or systemd is not running.
#                      When set, it is used if it exists (the tests give a logging stand-in).
#   CUBEBOT_UNIT_DIR   where the unit goes. Default: /etc/systemd/system.
#   CUBEBOT_TABLE_SIZES the cube sizes whose tables are sent and checked (2,4,5); the
#                      manifest's other tables are ignored. Default: every table.
set -eu

H=${CUBEBOT_HOME:-$HOME}
PY=${CUBEBOT_PYTHON:-/usr/bin/python3}
SYSTEMCTL=${CUBEBOT_SYSTEMCTL:-systemctl}
SIZES=${CUBEBOT_TABLE_SIZES:-}
APP=$H/cubebot
NEW=$H/cubebot.new
OLD=$H/cubebot.old
LAUNCHER=$H/bin/cubebot
UNIT_NAME=cubebot.service
UNIT_DIR=${CUBEBOT_UNIT_DIR:-/etc/systemd/system}
# Debian packages needed to compile kociemba's C extension with cffi on Python 3.5.
KOCIEMBA_DEBS="build-essential libffi-dev python3-dev python3-cffi python3-pip"
# kociemba's setup.py asks for pytest-runner; its newest releases need Python 3.6+.
KOCIEMBA_SETUP_PINS="pytest-runner<5.3 future"
# A scrambled cube whose solve makes kociemba write its pruning-table cache (~30 s on the brick, once).
WARMUP_STATE=DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD

say() { printf '  %s\n' "$*"; }
die() { printf 'brick: error: %s\n' "$*" >&2; exit 1; }

# Run a command as root: directly as root, else through sudo. sudo asks for the password
# itself only when there is a terminal (deploy.sh gives it one); nothing here sees it.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif ! command -v sudo >/dev/null 2>&1; then
        die "'$*' needs root and sudo is not installed"
    elif sudo -n true 2>/dev/null; then
        sudo -n "$@"
    elif [ -t 0 ]; then
        sudo "$@"
    else
        die "'$*' needs root: sudo wants a password and there is no terminal (run deploy.sh from a terminal, or run 'sudo $*' on the brick)"
    fi
}

privilege() {
    if [ "$(id -u)" -eq 0 ]; then echo root
    elif ! command -v sudo >/dev/null 2>&1; then echo none
    elif sudo -n true 2>/dev/null; then echo sudo
    else echo sudo-password
    fi
}

have_systemd() {
    command -v "$SYSTEMCTL" >/dev/null 2>&1 && { [ -n "${CUBEBOT_SYSTEMCTL:-}" ] || [ -d /run/systemd/system ]; }
}

# What the brick has. Each python3 start costs seconds on the brick: one here.
cmd_probe() {
    echo "home=$H"
    if ! command -v "$PY" >/dev/null 2>&1; then
        printf 'python=none\nmanifest=none\ntables=none\n'
    elif ! [ -f "$APP/deploy/tablecheck.py" ] || ! "$PY" "$APP/deploy/tablecheck.py" "$APP/tables" --status ${SIZES:+--sizes "$SIZES"} 2>/dev/null; then
        "$PY" -c 'import sys; print("python=%d.%d.%d" % sys.version_info[:3])'
        printf 'manifest=none\ntables=none\n'
    fi
    if have_systemd; then echo "systemd=yes"; else echo "systemd=no"; fi
    echo "privilege=$(privilege)"
}

# Put the upload in $NEW in place of $APP, once its tables match the manifest.
cmd_activate() {
    [ -d "$NEW" ] || die "nothing uploaded at $NEW"
    reuse=${1:-}
    set -- "$PY" "$NEW/deploy/tablecheck.py" "$NEW/tables"
    if [ "$reuse" = "--reuse-tables" ]; then
        set -- "$@" --adopt "$APP/tables"
        say "reusing the tables already on the brick"
    fi
    if [ -n "$SIZES" ]; then set -- "$@" --sizes "$SIZES"; fi
    say "checking the tables against the manifest on arrival:"
    if report=$("$@" 2>&1); then
        printf '%s\n' "$report" | sed 's/^/    /'
    else
        printf '%s\n' "$report" | sed 's/^/    /'
        die "the tables on the brick do not match the manifest; the installed version is untouched"
    fi
    rm -rf "$OLD"
    if [ -d "$APP" ]; then
        mv "$APP" "$OLD"
        mv "$NEW" "$APP"
        say "installed in $APP (the previous version is kept in $OLD)"
    else
        mv "$NEW" "$APP"
        say "installed in $APP"
    fi
}

missing_debs() {
    command -v dpkg-query >/dev/null 2>&1 || return 0
    for deb in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$deb" 2>/dev/null | grep -q 'ok installed'; then
            printf '%s ' "$deb"
        fi
    done
}

install_debs() {
    # shellcheck disable=SC2086  # word splitting of the package list is intended
    debs=$(missing_debs $KOCIEMBA_DEBS)
    if [ -z "$debs" ]; then
        say "Debian packages present: $KOCIEMBA_DEBS"
        return 0
    fi
    say "installing Debian packages: $debs(minutes on the brick)"
    if ! as_root apt-get update -qq; then
        die "apt-get update failed. ev3dev-stretch is Debian 9, now in the archive: see docs/deploy.md ('apt on stretch')"
    fi
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $debs
}

pip_user() {
    PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONUSERBASE="$H/.local" "$PY" -m pip install --user -q "$@"
}

# The python packages the brick lacks ("kociemba", "pyserial"), space-separated. When
# kociemba is there, one solve makes it write its pruning-table cache (once).
missing_packages() {
    "$PY" - "$WARMUP_STATE" <<'EOF'
import sys
missing = []
try:
    import kociemba.ckociembawrapper  # the compiled solver, not the slow pure-Python fallback
except ImportError:
    missing.append("kociemba")
try:
    import serial  # noqa: F401
except ImportError:
    missing.append("pyserial")
if "kociemba" not in missing:
    import kociemba
    try:
        kociemba.solve(sys.argv[1])
    except Exception as exc:
        sys.stderr.write("  warning: kociemba could not solve a test cube: {}\n".format(exc))
print("missing=" + " ".join(missing))
EOF
}

# check_packages: sets $missing from missing_packages (kociemba's import prints noise).
check_packages() {
    report=$(missing_packages) || die "$PY could not check its packages"
    case "$report" in
        *missing=*) missing=$(printf '%s\n' "$report" | sed -n 's/^missing=//p') ;;
        *) die "$PY could not check its packages" ;;
    esac
}

# Install what the brick's Python lacks (kociemba compiled, pyserial), the launcher,
# byte-code for faster starts, and kociemba's cache.
cmd_deps() {
    export PYTHONUSERBASE="$H/.local"
    check_packages
    if [ -z "$missing" ]; then
        say "python packages present: kociemba (compiled), pyserial; kociemba's cache is ready"
    else
        say "python packages missing: $missing"
        if [ "$missing" != pyserial ]; then
            install_debs
            say "pip: kociemba (compiles its C extension: several minutes on the brick)"
            # shellcheck disable=SC2086  # the pins are separate words
            pip_user $KOCIEMBA_SETUP_PINS
            pip_user kociemba
        fi
        if [ "$missing" != kociemba ]; then
            "$PY" -m pip --version >/dev/null 2>&1 || as_root apt-get install -y -qq python3-pip
            say "pip: pyserial"
            pip_user pyserial
        fi
        check_packages
        [ -z "$missing" ] || die "still missing after installing them: $missing"
        say "python packages installed; kociemba's cache is ready"
    fi
    build_core
    build_extension "$APP/robot/colour/_assign.c" "compiled colour search" "colour resolution runs its Python search"
    write_launcher
    "$PY" -m compileall -q "$APP/cubebot" "$APP/robot" "$APP/solver" "$APP/tables/__init__.py" "$APP/deploy" >/dev/null || say "warning: could not byte-compile (starts will be slower)"
}

# The solver's compiled modules (solver/_core.c, the search core; solver/_stage.c, the
# big cubes' centre staging; solver/_solve5.c, the 5x5x5's phase-2 loops;
# solver/_finish3.c, the two-phase 3x3x3 finish of the reduced cubes), built with
# the compiler and headers kociemba needs (KOCIEMBA_DEBS). Optional: without one the solver runs that part's pure-Python path.
COMPILED_MODULES="_core _stage _solve5 _finish3"

build_core() {
    for name in $COMPILED_MODULES; do
        build_extension "$APP/solver/$name.c" "compiled module $name" "the solver runs that part's pure-Python path"
    done
}

# build_extension SRC WHAT FALLBACK: compile the optional C module SRC beside itself; on
# failure say that WHAT was not built and what runs instead (FALLBACK).
build_extension() {
    src=$1
    [ -f "$src" ] || return 0
    suffix=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX") or ".so")')
    include=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    so="${src%.c}$suffix"
    errors=$(mktemp)
    if command -v gcc >/dev/null 2>&1 && [ -f "$include/Python.h" ] &&
        gcc -O2 -shared -fPIC -I"$include" -o "$so.tmp" "$src" 2>"$errors"; then
        mv "$so.tmp" "$so"
        say "$2 built: $(basename "$so")"
    else
        rm -f "$so.tmp"
        say "warning: the $2 was not built ($(head -n 1 "$errors" || true)); $3"
    fi
    rm -f "$errors"
}

write_launcher() {
    mkdir -p "$H/bin"
    tmp="$LAUNCHER.tmp.$$"
    cat >"$tmp" <<EOF
#!/bin/sh
# cubebot launcher, written by deploy.sh: runs the code in $APP with $PY.
PYTHONPATH="$APP\${PYTHONPATH:+:\$PYTHONPATH}"
PYTHONUSERBASE="$H/.local"
export PYTHONPATH PYTHONUSERBASE
exec "$PY" -m cubebot "\$@"
EOF
    chmod 755 "$tmp"
    if cmp -s "$tmp" "$LAUNCHER"; then
        rm -f "$tmp"
        say "launcher $LAUNCHER unchanged"
    else
        mv "$tmp" "$LAUNCHER"
        say "launcher $LAUNCHER written"
    fi
}

# service restart|stop|start: install and enable the unit, then restart, stop or start it.
cmd_service() {
    action=${1:-restart}
    if ! have_systemd; then
        say "SKIPPED: no systemd on the target ('$SYSTEMCTL' absent or /run/systemd/system missing): service not installed"
        return 0
    fi
    if [ "$action" = start ]; then
        as_root "$SYSTEMCTL" start "$UNIT_NAME"
        say "service $("$SYSTEMCTL" is-active "$UNIT_NAME" || true)"
        return 0
    fi
    tmp=$(mktemp)
    sed -e "s#/home/robot#$H#g" -e "s#^User=robot\$#User=$(id -un)#" -e "s#/usr/bin/python3#$PY#g" \
        "$APP/systemd/$UNIT_NAME" >"$tmp"
    if cmp -s "$tmp" "$UNIT_DIR/$UNIT_NAME"; then
        say "unit $UNIT_DIR/$UNIT_NAME unchanged"
    else
        as_root install -m 0644 "$tmp" "$UNIT_DIR/$UNIT_NAME"
        as_root "$SYSTEMCTL" daemon-reload
        say "unit $UNIT_DIR/$UNIT_NAME installed"
    fi
    rm -f "$tmp"
    as_root "$SYSTEMCTL" enable --quiet "$UNIT_NAME"
    as_root "$SYSTEMCTL" "$action" "$UNIT_NAME"
    say "service enabled, $action done: $("$SYSTEMCTL" is-active "$UNIT_NAME" || true)"
}

# cubebot diag --quick, its report shown as it comes (stderr once it ended).
cmd_diag() {
    errors=$(mktemp)
    rc=0
    "$LAUNCHER" diag --quick 2>"$errors" || rc=$?
    if [ "$rc" -eq 2 ] && grep -q "invalid choice: 'diag'" "$errors"; then
        say "SKIPPED: this version of cubebot has no 'diag' command yet"
        rc=0
    else
        cat "$errors" >&2
        [ "$rc" -eq 0 ] || say "cubebot diag --quick found faults (exit $rc)"
    fi
    rm -f "$errors"
    return "$rc"
}

case "${1:-}" in
    probe) cmd_probe ;;
    activate) shift; cmd_activate "$@" ;;
    deps) cmd_deps ;;
    service) shift; cmd_service "$@" ;;
    diag) cmd_diag ;;
    *) die "usage: brick.sh probe | activate [--reuse-tables] | deps | service restart|stop|start | diag" ;;
esac
