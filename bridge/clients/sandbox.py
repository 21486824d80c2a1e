"""The sandbox an external client runs in: bubblewrap (`bwrap`), one per episode.

What the client sees (the policy, recorded in the run record and in every
client_report):

    /home/agent          HOME: an empty tmpfs, writable, gone with the episode;
                         the MCP config (mcp.json) and the client's own settings and
                         credentials are copied in read-only
    /home/agent/work     the working directory: empty
    /usr, /lib*, /bin    the system, read-only; from /etc only what programs need
                         to run and reach the network (TLS roots, DNS, the loader)
    the client itself    its program read-only: a Node package's node_modules, an
                         interpreter's install prefix, a script named in --client-cmd
    /proc               its own processes only (own pid namespace)
    /tmp, /dev           private (tmpfs, a minimal /dev)

It runs as an unprivileged user (uid 1000 in its own user namespace; root on
the host is not root inside) when the kernel allows user namespaces, in its own
pid, IPC and UTS namespaces, and is killed with `run` (--die-with-parent: no
client outlives a killed run). The network is shared: the client reaches its
model API and the episode's server on loopback, where a bearer token guards
every server.

Hidden: what the run keeps from the client -- the project checkout, the
installed package, the virtual environment, the run folder, and every input the
run was given (scenario files, catalogue folders, the env file) -- is not
mounted. Where a bound path would show one of them anyway (the client's command
names the folder that holds it), a hidden folder is covered by an empty
read-only tmpfs, and a hidden file is left out: the folder that holds it is
rebuilt from its other entries (a file's name can be its scenario's id). A
hidden file the command names itself is an empty read-only file. The
environment is the caller's minus every variable that points into a hidden
path and every RAY_* (a Ray cluster runs what it is sent outside the sandbox);
HOME, PATH and TMPDIR are the sandbox's own.

A sandbox that cannot be set up (no bwrap, namespaces refused) is a SandboxError
with one line saying why: an infrastructure error before the episode.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOME = "/home/agent"
WORK = f"{HOME}/work"
CONFIG = f"{HOME}/mcp.json"
AGENT_UID = 1000
PATH = "/usr/local/bin:/usr/bin:/bin"

# What any program needs from the system, read-only; absent ones are skipped.
SYSTEM_READ_ONLY = ("/usr", "/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/resolv.conf", "/etc/hosts",
                    "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/localtime", "/etc/ld.so.cache",
                    "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/claude-code")
# On a merged-/usr system these are symlinks into /usr (recreated as such); else bound read-only.
TOP_LEVEL = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Variables that hold TLS roots: their files are bound so the client's HTTPS works.
CA_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")
# The sandbox sets these itself; the caller's would point at places that are not there.
OWN_VARIABLES = ("HOME", "PWD", "OLDPWD", "TMPDIR", "TMP", "TEMP", "PATH", "VIRTUAL_ENV", "PYTHONPATH",
                 "PYTHONHOME", "PYTHONSTARTUP", "CLAUDE_CONFIG_DIR")
OWN_PREFIXES = ("XDG_", "A320_BENCH_")
# A Ray cluster's (its address, authentication mode, token): a cluster runs the tasks it is sent
# outside the sandbox, so nothing of it is the client's.
CLUSTER_PREFIXES = ("RAY_",)
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"


class SandboxError(Exception):
    """The sandbox cannot be set up; the message says why in one line."""


@dataclass(frozen=True)
class DataFile:
    """A file copied into the sandbox (from memory, never from disk in the run folder)."""

    path: str  # inside the sandbox
    content: bytes
    writable: bool = False


@dataclass(frozen=True)
class Sandbox:
    """One client's policy; `command()` wraps an argv in it."""

    bwrap: str
    version: str
    read_only: tuple[str, ...]  # host paths bound read-only at the same path
    masked: tuple[str, ...]  # hidden folders inside a bound path, covered by an empty read-only tmpfs
    user_namespace: bool
    dropped_variables: tuple[str, ...] = field(default=())
    left_out: tuple[str, ...] = ()  # hidden files inside a bound folder: rebuilt without them
    blanked: tuple[str, ...] = ()  # hidden files bound themselves: an empty read-only file
    hidden: tuple[str, ...] = ()  # everything the run keeps from the client (the above, and what is not mounted)

    def policy(self) -> dict[str, Any]:
        """The policy as recorded (run record, client_report)."""
        return {
            "kind": "bubblewrap",
            "version": self.version,
            "home": f"{HOME} (empty tmpfs; mcp.json and the client's settings copied in read-only)",
            "cwd": f"{WORK} (empty)",
            "read_only": list(self.read_only),
            "hidden": list(self.hidden),
            "masked": list(self.masked),
            "left_out": list(self.left_out),
            "blanked": list(self.blanked),
            "user": f"uid {AGENT_UID} in its own user namespace" if self.user_namespace else "the caller's user",
            "namespaces": ["pid", "ipc", "uts", *(["user"] if self.user_namespace else [])],
            "network": "shared (the model API; the episode's server on loopback behind a bearer token)",
            "dies_with_run": True,
            "environment": "the caller's, minus HOME/PATH/TMPDIR/XDG_*/A320_BENCH_*, every RAY_* (a Ray cluster's "
                           "address and token) and variables naming hidden folders",
            "dropped_variables": list(self.dropped_variables),
        }

    def command(self, argv: list[str], files: Iterable[DataFile]) -> tuple[list[str], list[int]]:
        """bwrap's argv around `argv`, and the file descriptors it reads the data files from.

        The caller passes the descriptors to the child (pass_fds) and closes them after the start."""
        out = [self.bwrap]
        if self.user_namespace:
            out += ["--unshare-user", "--uid", str(AGENT_UID), "--gid", str(AGENT_UID), "--disable-userns"]
        out += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", "sandbox", "--die-with-parent",
                "--new-session"]
        for top in TOP_LEVEL:
            if os.path.islink(top):
                out += ["--symlink", os.readlink(top), top]
            elif os.path.isdir(top):
                out += ["--ro-bind", top, top]
        # The private folders first: a bind (a client under /tmp) goes on top of them.
        out += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", HOME, "--dir", WORK]
        # Parents before children, so that a folder masked inside one bind can still hold another;
        # at one path, the bind before what covers it.
        rebuilt: dict[str, set[str]] = {}
        for f in self.left_out:
            rebuilt.setdefault(os.path.dirname(f), set()).add(os.path.basename(f))
        mounts = [(Path(p).parts, 0, p) for p in self.read_only] + [(Path(p).parts, 1, p) for p in self.masked] \
            + [(Path(p).parts, 2, p) for p in rebuilt]
        fds: list[int] = []
        for _, kind, path in sorted(mounts):
            if kind == 0:
                out += ["--ro-bind", path, path]
            elif kind == 1:
                out += ["--tmpfs", path]
            else:
                out += ["--tmpfs", path, *_entries_but(path, rebuilt[path])]
        for path in self.blanked:
            fd = _memory_file(b"")
            fds.append(fd)
            out += ["--perms", "0400", "--ro-bind-data", str(fd), path]
        # Read-only once every mount point inside them is made.
        for path in [*self.masked, *rebuilt]:
            out += ["--remount-ro", path]
        for f in [*_identity_files(), *files]:
            fd = _memory_file(f.content)
            fds.append(fd)
            out += ["--perms", "0600" if f.writable else "0400",
                    "--file" if f.writable else "--ro-bind-data", str(fd), f.path]
        out += ["--chdir", WORK, "--", *argv]
        return out, fds


def environment(base: Mapping[str, str], hidden: Iterable[Path], forced: Mapping[str, str]
                ) -> tuple[dict[str, str], tuple[str, ...]]:
    """The client's environment, and the names of the variables left out."""
    marks = [str(p) for p in hidden]
    env: dict[str, str] = {}
    dropped = []
    for key, value in base.items():
        if key in OWN_VARIABLES or key.startswith(OWN_PREFIXES + CLUSTER_PREFIXES) or any(m in value for m in marks):
            dropped.append(key)
            continue
        env[key] = value
    env.update(HOME=HOME, PATH=PATH, TMPDIR="/tmp", PWD=WORK)
    env.update(forced)
    return env, tuple(sorted(dropped))


def program_paths(exe: Path) -> list[Path]:
    """What a program needs of its own installation, read-only: a Node package's
    node_modules, an interpreter's install prefix (bin/ beside lib/), else the file;
    for a `#!` script, its interpreter's as well. Nothing under /usr (bound anyway)."""
    paths: list[Path] = []
    real = exe.resolve()
    if "node_modules" in real.parts:
        paths.append(Path(*real.parts[:real.parts.index("node_modules") + 1]))
    elif real.parent.name == "bin" and (real.parent.parent / "lib").is_dir() \
            and str(real.parent.parent) not in ("/", "/usr", "/usr/local"):
        paths.append(real.parent.parent)
    else:
        paths.append(real)
    interpreter = _shebang(real)
    if interpreter is not None and interpreter != real:
        paths += program_paths(interpreter)
    return [p for p in paths if not _under(p, Path("/usr"))]


def ca_paths(env: Mapping[str, str]) -> list[Path]:
    return [Path(env[k]) for k in CA_VARIABLES if env.get(k, "").startswith("/") and Path(env[k]).exists()]


def build(bwrap: str, read_only: Iterable[Path], hidden: Iterable[Path], dropped: tuple[str, ...] = ()) -> Sandbox:
    """A policy binding `read_only` (plus the system), with every `hidden` file or folder kept out;
    probed once: a policy bwrap refuses is a SandboxError."""
    hidden = sorted({p.resolve() for p in hidden if p.exists()})
    wanted = {p.resolve() for p in read_only if p.exists()} | {Path(p) for p in SYSTEM_READ_ONLY if Path(p).exists()}
    masked, left_out, blanked = set(), set(), set()
    for h in hidden:
        shown_by = [b for b in wanted if _under(h, b)]
        if not shown_by:
            continue  # not mounted at all
        closest = max(shown_by, key=lambda b: len(b.parts))
        if any(o != h and _under(h, o) and _under(o, closest) for o in hidden):
            continue  # inside a hidden folder that is covered already
        if h.is_dir():
            masked.add(h)
        elif h == closest:
            blanked.add(h)
        else:
            left_out.add(h)
    # A path inside another bind is there already, unless a masked folder lies between them.
    binds = [str(p) for p in wanted
             if not any(b != p and _under(p, b) and not any(_under(p, m) and _under(m, b) for m in masked)
                        for b in wanted)]
    version = _version(bwrap)
    errors = []
    for userns in (True, False):  # an unprivileged user when the kernel allows it
        box = Sandbox(bwrap, version, tuple(sorted(binds)), tuple(sorted(map(str, masked))), userns, dropped,
                      left_out=tuple(sorted(map(str, left_out))), blanked=tuple(sorted(map(str, blanked))),
                      hidden=tuple(map(str, hidden)))
        problem = _probe(box)
        if problem is None:
            return box
        errors.append(problem)
    raise SandboxError(f"the client's sandbox cannot be set up: bwrap says: {errors[-1]}")


def find_bwrap() -> str:
    found = shutil.which("bwrap")
    if not found:
        raise SandboxError(f"the client's sandbox cannot be set up: bwrap is not installed; {INSTALL_HINT}")
    return found


def _probe(box: Sandbox) -> str | None:
    argv, fds = box.command(["/usr/bin/true"], [])
    try:
        p = subprocess.run(argv, pass_fds=fds, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    finally:
        for fd in fds:
            os.close(fd)
    if p.returncode == 0:
        return None
    lines = p.stderr.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {p.returncode}"


def _version(bwrap: str) -> str:
    try:
        out = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SandboxError(f"the client's sandbox cannot be set up: {bwrap} --version failed: {e}") from None
    return out.strip().removeprefix("bubblewrap ").strip() or "unknown"


def _entries_but(folder: str, left_out: set[str]) -> list[str]:
    """bwrap's arguments that put back a folder's entries, read-only, all but `left_out`. Listed per
    episode: what the folder holds now. A folder that cannot be listed stays empty."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    out = []
    for name in names:
        if name in left_out:
            continue
        path = os.path.join(folder, name)
        out += ["--symlink", os.readlink(path), path] if os.path.islink(path) else ["--ro-bind", path, path]
    return out


def _identity_files() -> list[DataFile]:
    # The agent user's own passwd and group entries: programs look their user up
    # (Node's os.userInfo), and the host's account list is none of their business.
    return [DataFile("/etc/passwd", f"agent:x:{AGENT_UID}:{AGENT_UID}:agent:{HOME}:/bin/sh\n".encode()),
            DataFile("/etc/group", f"agent:x:{AGENT_UID}:\n".encode())]


def _memory_file(content: bytes) -> int:
    fd = os.memfd_create("a320-bench-sandbox-data", 0)
    os.write(fd, content)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _shebang(path: Path) -> Path | None:
    try:
        with open(path, "rb") as fh:
            head = fh.read(256)
    except OSError:
        return None
    if not head.startswith(b"#!"):
        return None
    words = head[2:].split(b"\n", 1)[0].decode(errors="replace").split()
    if not words:
        return None
    if Path(words[0]).name == "env":
        names = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        found = shutil.which(names[0]) if names else None
        return Path(found) if found else None
    return Path(words[0])


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents
