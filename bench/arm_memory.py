"""Peak memory of a command on 32-bit ARM: a Debian armel chroot run by qemu user emulation.

The EV3 runs armel (ARMv5TE, soft-float EABI). This script builds a Debian armel chroot with
debootstrap, lets binfmt_misc hand every ARM program in it to qemu-arm-static (so whole process
trees run: pip's compilers, forked search children), installs the project in a venv inside,
and measures a command's peak memory as a 32-bit ARM process would have it.

  setup            debootstrap the chroot (two stages), apt-get Python and a compiler inside,
                   create the venv /opt/venv and `pip install -e /project[ev3]` (the checkout
                   is bind-mounted at /project) and pytest; each step is skipped once done
  run CMD...       run CMD inside, in /project (`run python setup.py build_ext --inplace` builds
                   the compiled solver core for ARM next to the x86 one)
  measure CMD...   run CMD inside under /usr/bin/time -v while this process samples the guest
                   memory of every qemu process of the tree every SAMPLE_S seconds, and print
                   one line: exit, wall_s, guest_peak_rss_mb (largest process),
                   guest_peak_pss_all_mb (Pss summed over the tree at one instant)

The guest memory is the Rss/Pss of the mappings inside the guest's 4 GiB address space, which
qemu places at GUEST_BASE (set through QEMU_GUEST_BASE); qemu's own memory lies outside it.
Emulated wall time is not brick time (docs/brick.md). Needs root (debootstrap, chroot, mounts)
and the host packages debootstrap, qemu-user-static and binfmt-support. `--dry-run` prints the
commands instead of running them.

Usage: python bench/arm_memory.py [--root DIR] [--suite S] [--mirror URL] [--dry-run] setup
       python bench/arm_memory.py [--root DIR] [--tables DIR] [--dry-run] run|measure CMD...
"""

import argparse
import os
import shlex
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TOP)

from bench.memory import tree  # noqa: E402  (the process tree, one copy for every bench)

ROOT = "/tmp/cubebot-armel"             # the chroot, unless --root
SUITE = "bookworm"
SOURCES = ("/etc/apt/sources.list", "/etc/apt/sources.list.d")   # where the host's mirror is read
CPU = "arm926"                          # the EV3's core (ARM926EJ-S)
GUEST_BASE = 0x100000000                # where qemu maps the guest's address space
GUEST_SPAN = 1 << 32                    # a 32-bit guest: 4 GiB
VENV = "/opt/venv"
PROJECT = "/project"
PACKAGES = ("python3", "python3-venv", "python3-dev", "gcc", "libc6-dev", "libffi-dev", "time",
            "ca-certificates", "python3-pil")
PIP_TARGET = ".[ev3]"
# setup.py's test extra without Playwright (no armel build): enough for tests/solver/ inside
TEST_PACKAGES = ("pytest", "hypothesis>=6.50,<6.156")
SAMPLE_S = 0.005
KB_PER_MB = 1024.0
DONE_DIR = ".cubebot-armel"            # marks of finished setup steps, inside the chroot
HOST_CAS = "/usr/local/share/ca-certificates"   # the host's own CA certificates (a TLS proxy's)

TABLES = "/tables"                      # where --tables DIR is bound inside

# Mounts /proc, /sys, /dev, the checkout and (when given) a tables folder inside the chroot, in
# the private mount namespace that unshare made, so they vanish with the command; then runs
# the command in a clean environment: $1 chroot, $2 checkout, $3 tables folder or "", the rest
# the command.
ENTER = r"""
set -e
root=$1; project=$2; tables=$3; shift 3
mount -t proc proc "$root/proc"
mount -t sysfs sysfs "$root/sys"
mount --rbind /dev "$root/dev"
mkdir -p "$root/project"
mount --bind "$project" "$root/project"
if [ -n "$tables" ]; then
    mkdir -p "$root%(tables)s"
    mount --bind -o ro "$tables" "$root%(tables)s"
    set -- CUBEBOT_TABLES=%(tables)s "$@"
fi
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
exec env -i HOME=/root LANG=C.UTF-8 PATH=%(venv)s/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    QEMU_CPU=%(cpu)s QEMU_GUEST_BASE=%(base)s PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    chroot "$root" /bin/sh -c 'cd %(project)s && exec env "$@"' sh "$@"
""" % {"venv": VENV, "cpu": CPU, "base": hex(GUEST_BASE), "project": PROJECT, "tables": TABLES}


class Runner(object):
    """Runs (or, dry, prints) host commands and commands inside the chroot."""

    def __init__(self, root, project, dry, tables=""):
        self.root, self.project, self.dry, self.tables = root, project, dry, tables

    def host(self, argv, **kw):
        print("+ " + " ".join(shlex.quote(a) for a in argv), flush=True)
        if self.dry:
            return 0
        return subprocess.call(argv, **kw)

    def inside_argv(self, argv):
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c", ENTER, "sh",
                self.root, self.project, self.tables] + list(argv)

    def inside(self, argv, **kw):
        return self.host(self.inside_argv(argv), **kw)

    def done(self, step):
        return not self.dry and os.path.exists(os.path.join(self.root, DONE_DIR, step))

    def mark(self, step):
        if not self.dry:
            os.makedirs(os.path.join(self.root, DONE_DIR), exist_ok=True)
            open(os.path.join(self.root, DONE_DIR, step), "w").close()


def fail(message, code=1):
    sys.stderr.write("arm_memory: " + message + "\n")
    return code


def host_mirror(paths=SOURCES):
    """The first Debian mirror URL of the host's apt sources (one-line or deb822 format), or None."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            files.extend(os.path.join(path, f) for f in sorted(os.listdir(path)))
        elif os.path.isfile(path):
            files.append(path)
    for name in files:
        try:
            with open(name) as fh:
                for line in fh:
                    words = line.split("#", 1)[0].split()
                    if words[:1] == ["deb"]:
                        urls = [w for w in words[1:] if "://" in w]
                    elif words[:1] == ["URIs:"]:
                        urls = words[1:]
                    else:
                        continue
                    if urls:
                        return urls[0]
        except (OSError, UnicodeDecodeError):
            continue
    return None


def setup(run, suite, mirror):
    """Build the chroot and install the project in it; 0, or 1 naming the failed step."""
    steps = [
        ("binfmt", ["update-binfmts", "--enable", "qemu-arm"], False),
        ("stage1", ["debootstrap", "--arch=armel", "--foreign", "--variant=minbase", suite, run.root,
                    mirror], False),
        ("qemu", ["install", "-D", "-m", "755", "/usr/bin/qemu-arm-static",
                  os.path.join(run.root, "usr/bin/qemu-arm-static")], False),
        ("stage2", ["chroot", run.root, "/debootstrap/debootstrap", "--second-stage"], False),
        ("packages", ["sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
                      "--no-install-recommends " + " ".join(PACKAGES) + " && apt-get clean"], True),
        ("cas", ["update-ca-certificates"], True),
        ("venv", ["python3", "-m", "venv", "--system-site-packages", VENV], True),
        ("project", [VENV + "/bin/pip", "install", "-q", "-e", PIP_TARGET], True),
        ("tests", [VENV + "/bin/pip", "install", "-q"] + list(TEST_PACKAGES), True),
    ]
    for step, argv, inside in steps:
        if run.done(step):
            continue
        if step == "packages" and not run.dry:
            with open(os.path.join(run.root, "etc/apt/sources.list"), "w") as fh:
                fh.write("deb {} {} main\n".format(mirror, suite))
        if step == "cas":
            copy_host_cas(run)
        code = run.inside(argv) if inside else run.host(argv)
        if code != 0:
            return fail("setup step {} failed (exit {})".format(step, code))
        run.mark(step)
    return 0


def copy_host_cas(run):
    """The host's own CA certificates into the chroot, so that pip inside trusts what the host
    trusts (a TLS-inspecting proxy's certificate, for one)."""
    if not os.path.isdir(HOST_CAS):
        return
    target = os.path.join(run.root, HOST_CAS.lstrip("/"))
    print("+ copy {}/*.crt to {}".format(HOST_CAS, target), flush=True)
    if run.dry:
        return
    import shutil
    os.makedirs(target, exist_ok=True)
    for name in os.listdir(HOST_CAS):
        if name.endswith(".crt"):
            shutil.copyfile(os.path.join(HOST_CAS, name), os.path.join(target, name))


def guest_kb(smaps, base=GUEST_BASE, span=GUEST_SPAN):
    """(Rss, Pss) in KiB of the mappings of an smaps text that start inside [base, base + span)."""
    rss = pss = 0
    inside = False
    for line in smaps.splitlines():
        head = line.split(" ", 1)[0]
        if "-" in head and all(c in "0123456789abcdef-" for c in head):
            inside = base <= int(head.split("-")[0], 16) < base + span
        elif inside and line.startswith("Rss:"):
            rss += int(line.split()[1])
        elif inside and line.startswith("Pss:"):
            pss += int(line.split()[1])
    return rss, pss


def measure(run, argv):
    """Run argv inside under time -v, sampling the guests' memory; print one line of figures."""
    full = run.inside_argv(["/usr/bin/time", "-v"] + list(argv))
    if run.dry:
        run.host(full)
        return 0
    start = time.monotonic()
    child = subprocess.Popen(full)
    peak_one = peak_all = 0
    while child.poll() is None:
        now = 0
        for pid in tree(child.pid):
            try:
                if "qemu" not in os.readlink("/proc/%d/exe" % pid):
                    continue
                with open("/proc/%d/smaps" % pid) as fh:
                    rss, pss = guest_kb(fh.read())
            except OSError:
                continue
            now += pss
            peak_one = max(peak_one, rss)
        peak_all = max(peak_all, now)
        time.sleep(SAMPLE_S)
    print("arm_memory: exit={} wall_s={:.2f} guest_peak_rss_mb={:.1f} guest_peak_pss_all_mb={:.1f}".format(
        child.returncode, time.monotonic() - start, peak_one / KB_PER_MB, peak_all / KB_PER_MB), flush=True)
    return child.returncode


def ready(run):
    """None when the chroot can run commands, else why not."""
    if run.dry:
        return None
    if not os.path.exists(os.path.join(run.root, DONE_DIR, "project")):
        return "no chroot at {}: run `python bench/arm_memory.py setup` first".format(run.root)
    return None


def parser():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", default=ROOT, help="the chroot directory (default %(default)s)")
    p.add_argument("--suite", default=SUITE, help="Debian suite (default %(default)s)")
    p.add_argument("--mirror", default=None, help="Debian mirror (default: the host's, from its apt sources)")
    p.add_argument("--project", default=TOP, help="the checkout bound at /project")
    p.add_argument("--tables", default=os.environ.get("CUBEBOT_TABLES", ""),
                   help="built tables bound read-only at /tables (default $CUBEBOT_TABLES; "
                        "else the checkout's tables/)")
    p.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    p.add_argument("action", choices=("setup", "run", "measure"))
    p.add_argument("command", nargs=argparse.REMAINDER, help="the command (run, measure)")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if args.root in ("", "/"):
        return fail("--root must be a directory of its own, not {!r}".format(args.root), 2)
    if args.action == "setup" and command:
        return fail("setup takes no command", 2)
    if args.action != "setup" and not command:
        return fail("{} needs a command".format(args.action), 2)
    if not args.dry_run and hasattr(os, "geteuid") and os.geteuid() != 0:
        return fail("must run as root (debootstrap, chroot and mounts need it)", 2)
    if args.tables and not os.path.isdir(args.tables):
        return fail("--tables {}: no such folder".format(args.tables), 2)
    run = Runner(os.path.abspath(args.root), os.path.abspath(args.project), args.dry_run,
                 os.path.abspath(args.tables) if args.tables else "")
    if args.action == "setup":
        mirror = args.mirror or host_mirror()
        if not mirror:
            return fail("no Debian mirror in the host's apt sources: name one with --mirror URL", 2)
        return setup(run, args.suite, mirror)
    why = ready(run)
    if why:
        return fail(why, 2)
    if args.action == "run":
        return run.inside(command)
    return measure(run, command)


if __name__ == "__main__":
    sys.exit(main())
