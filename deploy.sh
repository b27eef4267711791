#!/usr/bin/env bash
# Put cubebot on an EV3 brick running ev3dev-stretch, over SSH with key authentication.
#
# Usage: ./deploy.sh [options] [user@host]          (default host: robot@ev3dev.local)
#   --dry-run        print every step and command without doing anything (no connection)
#   -p, --port N     SSH port
#   -i, --identity F SSH private key to use
#   --home DIR       install under DIR on the brick instead of the login's $HOME
#   --python PATH    the brick's python3 (default /usr/bin/python3)
#   --no-service     do not install, enable or restart the systemd service
#   --no-diag        do not run `cubebot diag --quick` on the brick
#   --sizes LIST     the cube sizes whose tables go to the brick, e.g. 2,3,4 (default 2,3:
#                    the demo's; a size's tables include those its solver reads too)
#   -h, --help       this help
# Environment: SSH_OPTS (extra ssh options, split on spaces), CUBEBOT_LOCAL_PYTHON (the
# python that builds the tables here; default .venv/bin/python, else python3),
# CUBEBOT_SYSTEMCTL and CUBEBOT_UNIT_DIR (passed to the brick: the systemctl it uses, where
# the unit goes; for tests, see deploy/brick.sh).
#
# Steps: 1 build the asked sizes' tables if missing; 2 copy code and those tables (tar over
# ssh; tables are checked against tables/manifest.json here and on arrival, and not re-sent
# when the brick has them); 3 install what the brick lacks (Debian packages, kociemba, pyserial, the
# ~/bin/cubebot launcher); 4 install, enable and restart the systemd service; 5 run
# `cubebot diag --quick` on the brick. Safe to run again: each step does only what is missing.
# Exit codes: 0 done, 1 failed, 2 usage, 3 deployed but diag reported faults.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEFAULT_TARGET=robot@ev3dev.local
STEPS=5
# What goes to the brick besides the tables (paths relative to the checkout).
CODE=(cubebot robot solver systemd deploy setup.py)
EXIT_USAGE=2
EXIT_DIAG=3
# The sizes `cubebot demo` solves (cubebot.solver.catalog.DEMO_SIZES): sent by default.
DEFAULT_SIZES=2,3

DRY_RUN=0
TARGET=$DEFAULT_TARGET
PORT=
IDENTITY=
REMOTE_HOME=
REMOTE_PYTHON=/usr/bin/python3
DO_SERVICE=1
DO_DIAG=1
SIZES=$DEFAULT_SIZES

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }
die() { printf 'deploy: error: %s\n' "$*" >&2; exit 1; }
usage_error() { printf 'deploy: error: %s (see --help)\n' "$*" >&2; exit "$EXIT_USAGE"; }
step() { printf '\n== %s/%s %s\n' "$1" "$STEPS" "$2"; }
say() { printf '  %s\n' "$*"; }
# plan TEXT: in a dry run, what the brick would do (in a real run brick.sh says it).
plan() { if [ "$DRY_RUN" -eq 1 ]; then say "on the brick: $*"; fi; }

# quote WORD: WORD in single quotes, safe inside a remote shell command line.
quote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }

# show CMD...: print a command as it would be typed.
show() {
    local out="+" word
    for word in "$@"; do
        if [[ $word =~ ^[A-Za-z0-9_@%+=:,./-]+$ ]]; then out+=" $word"; else out+=" $(quote "$word")"; fi
    done
    printf '  %s\n' "$out"
}

# run CMD...: run it, or only show it in a dry run.
run() {
    show "$@"
    if [ "$DRY_RUN" -eq 0 ]; then "$@"; fi
}

parse_args() {
    while [ $# -gt 0 ]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            -p|--port) [ $# -ge 2 ] || usage_error "$1 needs a value"; PORT=$2; shift ;;
            -i|--identity) [ $# -ge 2 ] || usage_error "$1 needs a value"; IDENTITY=$2; shift ;;
            --home) [ $# -ge 2 ] || usage_error "$1 needs a value"; REMOTE_HOME=$2; shift ;;
            --python) [ $# -ge 2 ] || usage_error "$1 needs a value"; REMOTE_PYTHON=$2; shift ;;
            --no-service) DO_SERVICE=0 ;;
            --no-diag) DO_DIAG=0 ;;
            --sizes) [ $# -ge 2 ] || usage_error "$1 needs a value"; SIZES=$2; shift ;;
            -h|--help) usage; exit 0 ;;
            -*) usage_error "unknown option $1" ;;
            *) TARGET=$1 ;;
        esac
        shift
    done
    if [ -n "$PORT" ] && ! [[ $PORT =~ ^[0-9]+$ ]]; then usage_error "port must be a number, got '$PORT'"; fi
    [[ $SIZES =~ ^[0-9]+(,[0-9]+)*$ ]] || usage_error "--sizes takes cube sizes separated by commas (2,3,4), got '$SIZES'"
    if [ -n "$REMOTE_HOME" ] && [ "${REMOTE_HOME:0:1}" != / ]; then usage_error "--home must be an absolute path, got '$REMOTE_HOME'"; fi
}

local_python() {
    if [ -n "${CUBEBOT_LOCAL_PYTHON:-}" ]; then echo "$CUBEBOT_LOCAL_PYTHON"
    elif [ -x "$ROOT/.venv/bin/python" ]; then echo "$ROOT/.venv/bin/python"
    else echo python3
    fi
}

setup_ssh() {
    SSH=(ssh)
    local extra=()
    if [ -n "${SSH_OPTS:-}" ]; then read -r -a extra <<<"$SSH_OPTS"; SSH+=(${extra[@]+"${extra[@]}"}); fi
    [ -z "$PORT" ] || SSH+=(-p "$PORT")
    [ -z "$IDENTITY" ] || SSH+=(-i "$IDENTITY" -o IdentitiesOnly=yes)
    # Keys only, never a password prompt; one multiplexed connection for every step.
    SSH+=(-o BatchMode=yes -o ConnectTimeout=20 -o ServerAliveInterval=15)
    if [ "$DRY_RUN" -eq 0 ]; then
        # In /tmp, not $TMPDIR: a socket path must stay under ~100 characters (macOS).
        CONTROL_DIR=$(mktemp -d /tmp/cubebot-deploy.XXXXXX)
        SSH+=(-o ControlMaster=auto -o "ControlPath=$CONTROL_DIR/%C" -o ControlPersist=300)
        trap cleanup EXIT
    fi
    REMOTE_ENV="CUBEBOT_PYTHON=$(quote "$REMOTE_PYTHON")"
    [ -z "$REMOTE_HOME" ] || REMOTE_ENV+=" CUBEBOT_HOME=$(quote "$REMOTE_HOME")"
    [ -z "${CUBEBOT_SYSTEMCTL:-}" ] || REMOTE_ENV+=" CUBEBOT_SYSTEMCTL=$(quote "$CUBEBOT_SYSTEMCTL")"
    [ -z "${CUBEBOT_UNIT_DIR:-}" ] || REMOTE_ENV+=" CUBEBOT_UNIT_DIR=$(quote "$CUBEBOT_UNIT_DIR")"
    if [ -n "$REMOTE_HOME" ]; then
        HOME_DIR=$(quote "$REMOTE_HOME")
    else
        # shellcheck disable=SC2016  # $HOME expands on the brick
        HOME_DIR='"$HOME"'
    fi
}

cleanup() {
    "${SSH[@]}" -O exit "$TARGET" >/dev/null 2>&1 || true
    rm -rf "$CONTROL_DIR"
}

# remote ARGS...: brick.sh ARGS on the brick, from the installed copy.
remote() {
    run "${SSH[@]}" "$TARGET" "$REMOTE_ENV sh $HOME_DIR/cubebot/deploy/brick.sh $*"
}

# remote_root ARGS...: the same for steps that need root. When sudo on the brick wants a
# password and we have a terminal, ssh gets one (-t) so that sudo itself asks for it.
remote_root() {
    if [ "$PROBE_PRIVILEGE" = sudo-password ] && [ -t 0 ] && [ "$DRY_RUN" -eq 0 ]; then
        say "sudo on the brick may ask for the robot's password"
        run "${SSH[@]}" -t "$TARGET" "$REMOTE_ENV sh $HOME_DIR/cubebot/deploy/brick.sh $*"
    else
        remote "$@"
    fi
}

# EXPAND_SIZES (python, argument SIZES): the sizes among SIZES that have tables, with those their solvers read
# too (cubebot.solver.catalog.NEEDS), as 2,4,5 (empty when none has tables).
# shellcheck disable=SC2016  # a Python program, not shell
EXPAND_SIZES='import sys
from cubebot.solver import catalog
asked = [int(n) for n in sys.argv[1].split(",")]
print(",".join(str(n) for n in sorted(set(catalog.spec(t).size for t in catalog.names(sizes=asked)))))'

# Step 1: the asked sizes' tables exist here and match the manifest (built if missing).
step_tables() {
    step 1 "tables for sizes $SIZES: build them here if missing, check them against tables/manifest.json"
    local py check=(deploy/tablecheck.py tables) size own
    py=$(local_python)
    if [ "$DRY_RUN" -eq 1 ]; then
        TABLE_SIZES=$SIZES
        show cd "$ROOT"
        show "$py" "${check[@]}" --sizes "$SIZES"
        say "for each size N of $SIZES with tables, when one of them is missing or differs from the manifest:"
        show "$py" -m cubebot tables build --size N
        show "$py" "${check[@]}" --sizes "$SIZES"
        return 0
    fi
    cd "$ROOT"
    TABLE_SIZES=$("$py" -c "$EXPAND_SIZES" "$SIZES") || die "cannot read the table catalogue with $py"
    TABLE_SIZES=${TABLE_SIZES:-none}            # none: only kociemba's (3x3x3) tables are needed
    say "tables of sizes $TABLE_SIZES (with those their solvers read)"
    for size in ${SIZES//,/ }; do
        own=$("$py" -c "$EXPAND_SIZES" "$size") || die "cannot read the table catalogue with $py"
        [ -n "$own" ] || continue
        if [ -f tables/manifest.json ] && "$py" "${check[@]}" --sizes "$own" >/dev/null 2>&1; then
            say "${size}x${size}x${size} tables present and matching tables/manifest.json"
        else
            say "${size}x${size}x${size} tables missing or out of date: building them"
            run "$py" -m cubebot tables build --size "$size" || die "building the ${size}x${size}x${size} tables failed"
        fi
    done
    "$py" "${check[@]}" --sizes "$TABLE_SIZES" | sed 's/^/  /' || die "the tables here do not match tables/manifest.json"
    TABLE_FILES=()
    local name
    while IFS= read -r name; do TABLE_FILES+=("$name"); done < <("$py" "${check[0]}" tables --list --sizes "$TABLE_SIZES")
    MANIFEST_DIGEST=$("$py" "${check[0]}" tables --digest)
    REMOTE_ENV+=" CUBEBOT_TABLE_SIZES=$TABLE_SIZES"
}

probe() {
    say "connecting to $TARGET"
    local out
    show "${SSH[@]}" "$TARGET" "$REMOTE_ENV sh -s -- probe" "< deploy/brick.sh"
    if [ "$DRY_RUN" -eq 1 ]; then
        PROBE_MANIFEST=unknown PROBE_TABLES=unknown PROBE_SYSTEMD=yes PROBE_PRIVILEGE=sudo
        return 0
    fi
    out=$("${SSH[@]}" "$TARGET" "$REMOTE_ENV sh -s -- probe" <"$ROOT/deploy/brick.sh") ||
        die "cannot run commands on $TARGET over SSH with a key (BatchMode). Set up a key first: ssh-copy-id $TARGET (see docs/deploy.md)"
    PROBE_HOME=$(sed -n 's/^home=//p' <<<"$out")
    PROBE_PYTHON=$(sed -n 's/^python=//p' <<<"$out")
    PROBE_MANIFEST=$(sed -n 's/^manifest=//p' <<<"$out")
    PROBE_TABLES=$(sed -n 's/^tables=//p' <<<"$out")
    PROBE_SYSTEMD=$(sed -n 's/^systemd=//p' <<<"$out")
    PROBE_PRIVILEGE=$(sed -n 's/^privilege=//p' <<<"$out")
    say "brick: home $PROBE_HOME, python $PROBE_PYTHON ($REMOTE_PYTHON), systemd $PROBE_SYSTEMD, root via $PROBE_PRIVILEGE"
    [ "$PROBE_PYTHON" != none ] || die "$REMOTE_PYTHON not found on $TARGET"
}

# Step 2: code (and tables unless the brick has these very ones) into ~/cubebot.new,
# checked on arrival, then swapped in place of ~/cubebot.
step_copy() {
    step 2 "copy: code and tables to $TARGET:${REMOTE_HOME:-~}/cubebot"
    probe
    local files=() reuse='' sent_tables=0
    local name
    for name in "${CODE[@]}"; do [ ! -e "$ROOT/$name" ] || files+=("$name"); done
    files+=(tables/__init__.py tables/manifest.json)
    if [ "$DRY_RUN" -eq 1 ]; then
        say "sending the code and tables/manifest.json, plus every table unless the brick already has them (same manifest, checksums ok)"
    elif [ "$PROBE_TABLES" = ok ] && [ "$PROBE_MANIFEST" = "$MANIFEST_DIGEST" ]; then
        say "the brick has these tables already (same manifest, checksums ok): not sending them again"
        reuse=--reuse-tables
    else
        for name in ${TABLE_FILES[@]+"${TABLE_FILES[@]}"}; do files+=("tables/$name"); sent_tables=$((sent_tables + 1)); done
    fi
    # Unpack into ~/cubebot.new (-m: file times from the brick's clock, the EV3 has no RTC),
    # then, in the same SSH session, check it and swap it in.
    # shellcheck disable=SC2016  # expands on the brick
    local receive='H=${CUBEBOT_HOME:-$HOME}; rm -rf "$H/cubebot.new" && mkdir -p "$H/cubebot.new" && tar -xzmf - -C "$H/cubebot.new"'
    local command
    command="$REMOTE_ENV sh -c $(quote "$receive") && $REMOTE_ENV sh $HOME_DIR/cubebot.new/deploy/brick.sh activate $reuse"
    show tar -C "$ROOT" -czf - --exclude=__pycache__ --exclude='*.pyc' --exclude='*.so' "${files[@]}" "|"
    show "${SSH[@]}" "$TARGET" "$command"
    if [ "$DRY_RUN" -eq 0 ]; then
        local upload=$CONTROL_DIR/upload.tar.gz
        COPYFILE_DISABLE=1 tar -C "$ROOT" -czf "$upload" --exclude=__pycache__ --exclude='*.pyc' --exclude='*.so' "${files[@]}" ||
            die "packing the upload failed"
        local copy_started=$SECONDS
        say "sending $(($(wc -c <"$upload") / 1024)) KiB (compressed; $sent_tables table files, sizes $TABLE_SIZES)"
        "${SSH[@]}" "$TARGET" "$command" <"$upload" || die "copying to $TARGET or checking the upload there failed"
        say "copied and checked in $((SECONDS - copy_started)) s"
    fi
}

step_deps() {
    step 3 "install: what the brick's Python 3.5 lacks (kociemba, pyserial), the launcher ~/bin/cubebot"
    plan "when python3 lacks kociemba (compiled) or pyserial: apt-get install (as root)" \
        "build-essential libffi-dev python3-dev python3-cffi python3-pip; pip3 install --user" \
        "'pytest-runner<5.3' future kociemba pyserial. Then: build the solver's compiled core" \
        "(gcc), write ~/bin/cubebot, byte-compile, one kociemba solve to write its cache"
    remote_root deps || die "installing the dependencies on $TARGET failed (see docs/deploy.md)"
}

step_service() {
    step 4 "service: install, enable and restart cubebot.service"
    if [ "$DO_SERVICE" -eq 0 ]; then
        say "SKIPPED: --no-service"
        return 0
    fi
    if [ "$PROBE_SYSTEMD" = no ]; then
        say "SKIPPED: no systemd on the target (no systemctl, or systemd not running): service not installed"
        return 0
    fi
    local action=restart
    # The app and diag would fight over the motors and the 64 MB of RAM: stop the app
    # while diag runs, start it afterwards.
    if [ "$DO_DIAG" -eq 1 ]; then action=stop; fi
    plan "install systemd/cubebot.service as /etc/systemd/system/cubebot.service (as root)" \
        "when it differs, systemctl daemon-reload, systemctl enable cubebot, systemctl $action cubebot;" \
        "skipped when the brick has no systemd"
    remote_root service "$action" || die "installing the service on $TARGET failed"
}

step_diag() {
    step 5 "diag: cubebot diag --quick on the brick"
    local rc=0
    if [ "$DO_DIAG" -eq 0 ]; then
        say "SKIPPED: --no-diag"
    else
        plan "cubebot diag --quick (the ~/bin/cubebot launcher), its report shown here"
        remote diag || rc=$?
        [ "$rc" -ne 255 ] || die "lost the SSH connection to $TARGET during diag"
    fi
    if [ "$DO_SERVICE" -eq 1 ] && [ "$DO_DIAG" -eq 1 ] && [ "$PROBE_SYSTEMD" != no ]; then
        say "starting the service again"
        remote_root service start || die "starting the service on $TARGET failed"
    fi
    DIAG_RC=$rc
}

main() {
    parse_args "$@"
    setup_ssh
    local started=$SECONDS
    if [ "$DRY_RUN" -eq 1 ]; then printf 'deploy: DRY RUN: nothing is built, sent or changed\n'; fi
    printf 'deploy: cubebot from %s to %s\n' "$ROOT" "$TARGET"
    step_tables
    step_copy
    step_deps
    step_service
    step_diag
    printf '\n== done in %s s' "$((SECONDS - started))"
    if [ "$DIAG_RC" -ne 0 ]; then
        printf ': deployed, but cubebot diag reported faults (exit %s)\n' "$DIAG_RC"
        exit "$EXIT_DIAG"
    fi
    printf '\n'
}

main "$@"
