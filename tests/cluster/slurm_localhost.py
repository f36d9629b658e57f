"""A private single-node Slurm cluster on localhost (Debian slurm-wlm + munge), for tests run as root.

Everything lives in one temp folder: munge key, socket, logs, pid files, slurm.conf, state and spool dirs; the
ports are free ones picked at start, so it never touches a system Slurm or munge. `stop()` ends the three
daemons by pid and waits for them.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

PACKAGES = ["slurm-wlm", "munge"]
DAEMONS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue"]


def missing_programs() -> list[str]:
    return [p for p in DAEMONS if shutil.which(p) is None and not Path(f"/usr/sbin/{p}").exists()]


def install_packages(timeout: float = 600) -> tuple[bool, str]:
    """apt-get install slurm-wlm munge (root only); runs apt-get update once if the first try fails."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *PACKAGES]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, text=True, timeout=timeout)
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode == 0, (p.stdout + p.stderr)[-2000:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _sbin(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


class LocalSlurm:
    def __init__(self, root: Path, cpus: int = 2, real_memory_mb: int = 2000):
        self.root = Path(root)
        self.cpus = cpus
        self.real_memory_mb = real_memory_mb
        self.pids: dict[str, int] = {}
        self.conf = self.root / "slurm.conf"
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))

    # ---- set-up --------------------------------------------------------------------------------------------
    def _start_munge(self) -> None:
        m = self.root / "munge"
        m.mkdir(mode=0o700)
        key = m / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self.munge_socket = m / "munge.socket"
        subprocess.run([_sbin("munged"), f"--socket={self.munge_socket}", f"--key-file={key}",
                        f"--log-file={m / 'munged.log'}", f"--pid-file={m / 'munged.pid'}",
                        f"--seed-file={m / 'munged.seed'}", "--force"],
                       check=True, capture_output=True, text=True, timeout=30)
        self.pids["munged"] = self._wait_pid(m / "munged.pid")

    def _write_conf(self) -> None:
        r = self.root
        for d in ("state", "spool", "log"):
            (r / d).mkdir()
        self.ctld_port, self.slurmd_port = _free_port(), _free_port()
        self.conf.write_text("\n".join([
            "ClusterName=pydeidtest",
            "SlurmctldHost=localhost",
            f"SlurmctldPort={self.ctld_port}",
            f"SlurmdPort={self.slurmd_port}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            f"AuthInfo=socket={self.munge_socket}",
            "CredType=cred/munge",
            f"StateSaveLocation={r / 'state'}",
            f"SlurmdSpoolDir={r / 'spool'}",
            f"SlurmctldPidFile={r / 'slurmctld.pid'}",
            f"SlurmdPidFile={r / 'slurmd.pid'}",
            f"SlurmctldLogFile={r / 'log' / 'slurmctld.log'}",
            f"SlurmdLogFile={r / 'log' / 'slurmd.log'}",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "ReturnToService=2",
            "MpiDefault=none",
            "SchedulerType=sched/backfill",
            "SlurmctldTimeout=30",
            "SlurmdTimeout=30",
            "InactiveLimit=0",
            "MinJobAge=30",
            "KillWait=5",
            f"NodeName=localhost CPUs={self.cpus} RealMemory={self.real_memory_mb} State=UNKNOWN",
            "PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP",
        ]) + "\n")

    @staticmethod
    def _wait_pid(pidfile: Path, timeout: float = 20) -> int:
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                pid = int(pidfile.read_text().strip())
                os.kill(pid, 0)
                return pid
            except (OSError, ValueError):
                time.sleep(0.1)
        raise RuntimeError(f"daemon did not write {pidfile}")

    def start(self, timeout: float = 60) -> None:
        try:
            self._start_munge()
            self._write_conf()
            subprocess.run([_sbin("slurmctld"), "-f", str(self.conf)], env=self.env, check=True,
                           capture_output=True, text=True, timeout=30)
            self.pids["slurmctld"] = self._wait_pid(self.root / "slurmctld.pid")
            subprocess.run([_sbin("slurmd"), "-f", str(self.conf), "-N", "localhost"], env=self.env, check=True,
                           capture_output=True, text=True, timeout=30)
            self.pids["slurmd"] = self._wait_pid(self.root / "slurmd.pid")
            deadline = time.time() + timeout
            state = ""
            while time.time() < deadline:
                p = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], env=self.env, capture_output=True, text=True)
                state = p.stdout.strip()
                if state in ("idle", "mixed", "allocated"):
                    return
                time.sleep(0.5)
            raise RuntimeError(f"node not ready (state '{state}'); see {self.root}/log")
        except BaseException:
            self.stop()
            raise

    def logs(self) -> str:
        out = []
        for f in sorted((self.root / "log").glob("*.log")) + [self.root / "munge" / "munged.log"]:
            if f.exists():
                out.append(f"==> {f}\n" + "\n".join(f.read_text(errors="replace").splitlines()[-20:]))
        return "\n".join(out)

    def cancel_all(self, timeout: float = 30) -> None:
        """Cancel every job of this private cluster and wait until its queue is empty."""
        if "slurmctld" not in self.pids:
            return
        try:
            subprocess.run(["scancel", "--user", "root"], env=self.env, capture_output=True, timeout=20)
            deadline = time.time() + timeout
            while time.time() < deadline:
                p = subprocess.run(["squeue", "-h"], env=self.env, capture_output=True, text=True, timeout=20)
                if p.returncode != 0 or not p.stdout.strip():
                    return
                time.sleep(0.3)
        except subprocess.TimeoutExpired:
            pass

    def leftover_pids(self) -> list[int]:
        """Processes started for this cluster (slurmstepd, job scripts, runners): their environment names our
        private SLURM_CONF, which no other process on the machine has."""
        mark = f"SLURM_CONF={self.conf}".encode()
        out = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit() or int(d.name) == os.getpid():
                continue
            try:
                if mark in (d / "environ").read_bytes().split(b"\0"):
                    out.append(int(d.name))
            except OSError:
                continue
        return out

    def stop(self) -> None:
        """Cancel the jobs, SIGTERM each daemon by pid (slurmd, slurmctld, munged), wait, SIGKILL what is left;
        then SIGKILL, by pid, any process still running for this cluster (a step daemon outlives slurmd)."""
        self.cancel_all()
        self._stop_daemons()
        for pid in self.leftover_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _stop_daemons(self) -> None:
        for name in ("slurmd", "slurmctld", "munged"):
            pid = self.pids.pop(name, None)
            if pid is None:
                continue
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            deadline = time.time() + 15
            while time.time() < deadline:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
