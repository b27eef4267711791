"""A real OpenSSH server on 127.0.0.1 for the deploy tests.

`SshServer(workdir)` generates a host key and a user key under `workdir`,
starts `/usr/sbin/sshd -D` on a spare port as the current user (key login for
that user only), and gives the ssh options a client needs to reach it with
strict host key checking. Runs on Python 3.6+ (the CI's old-Python run).
"""

import getpass
import os
import shutil
import socket
import subprocess
import time

SSHD = "/usr/sbin/sshd"
PRIVSEP_DIR = "/run/sshd"   # sshd (as root) insists on this compiled-in directory
START_TIMEOUT_S = 20.0
POLL_S = 0.05


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def keygen(path):
    """An ed25519 key pair at path / path.pub, no passphrase."""
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path], check=True)


class SshServer:
    """sshd on a spare loopback port; `stop()` ends it."""

    def __init__(self, workdir):
        self.workdir = workdir
        os.makedirs(workdir, exist_ok=True)
        self.user = getpass.getuser()
        self.port = free_port()
        self.host_key = os.path.join(workdir, "ssh_host_ed25519_key")
        self.user_key = os.path.join(workdir, "id_ed25519")
        self.known_hosts = os.path.join(workdir, "known_hosts")
        self.log = os.path.join(workdir, "sshd.log")
        keygen(self.host_key)
        keygen(self.user_key)
        shutil.copy(self.user_key + ".pub", os.path.join(workdir, "authorized_keys"))
        with open(self.host_key + ".pub") as fh:
            host_pub = " ".join(fh.read().split()[:2])
        with open(self.known_hosts, "w") as fh:
            fh.write("[127.0.0.1]:{} {}\n".format(self.port, host_pub))
        self.config = os.path.join(workdir, "sshd_config")
        with open(self.config, "w") as fh:
            fh.write("\n".join([
                "Port {}".format(self.port),
                "ListenAddress 127.0.0.1",
                "HostKey {}".format(self.host_key),
                "PidFile {}".format(os.path.join(workdir, "sshd.pid")),
                "AuthorizedKeysFile {}".format(os.path.join(workdir, "authorized_keys")),
                "AllowUsers {}".format(self.user),
                "PermitRootLogin prohibit-password",
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "StrictModes no",
                "UsePAM no",
                "UseDNS no",
                "PrintMotd no",
                "LogLevel ERROR",
                "",
            ]))
        if os.geteuid() == 0 and not os.path.isdir(PRIVSEP_DIR):
            os.makedirs(PRIVSEP_DIR, mode=0o755)
        self._log_handle = open(self.log, "w")
        self.proc = subprocess.Popen([SSHD, "-D", "-e", "-f", self.config],
                                     stdout=subprocess.DEVNULL, stderr=self._log_handle)
        self._wait_listening()

    def _wait_listening(self):
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("sshd exited with {}: {}".format(self.proc.returncode, self.read_log()))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(POLL_S)
        self.stop()
        raise RuntimeError("sshd did not listen on port {} within {} s".format(self.port, START_TIMEOUT_S))

    def read_log(self):
        with open(self.log) as fh:
            return fh.read()

    @property
    def target(self):
        return "{}@127.0.0.1".format(self.user)

    def ssh_opts(self):
        """SSH_OPTS for deploy.sh: no user config, this server's host key only."""
        return "-F /dev/null -o UserKnownHostsFile={} -o StrictHostKeyChecking=yes".format(self.known_hosts)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log_handle.close()
