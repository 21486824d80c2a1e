"""Command-line paths: expand the inputs (files, folders recursively, globs); make an output's folders."""

from __future__ import annotations

import errno
import glob
import os
import stat
from collections.abc import Iterable
from pathlib import Path


class PathSpecError(ValueError):
    def __init__(self, message: str, missing: str | None = None) -> None:
        super().__init__(message)
        self.missing = missing  # the path that does not exist, when that is the problem


def broken_link_problem(path: Path) -> str | None:
    """How a link that cannot be followed is broken ("loops", "leads nowhere"); None if it is not one."""
    if not path.is_symlink():
        return None
    try:
        os.stat(path)
    except OSError as e:
        return "loops" if e.errno == errno.ELOOP else "leads nowhere"
    return None


def unreadable_problem(path: Path) -> str:
    """Why a name among the inputs gives no file to read: a broken link, or something that is not a
    regular file (a FIFO would block the reader, a device would never end)."""
    why = broken_link_problem(path)
    if why is not None:
        return f"a symbolic link that {why}"
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        return e.strerror or str(e)
    return _not_regular(mode)


def _not_regular(mode: int) -> str:
    kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file")
    return f"{kind}, not a regular file"


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a regular file (the caller refuses a longer one). Anything else named
    outright is refused before a byte is read: open() on a FIFO waits for a writer, /dev/zero never ends.
    Raises OSError, whose strerror says what it is ("a FIFO, not a regular file")."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with open(fd, "rb") as fh:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, _not_regular(mode))
        return fh.read(limit + 1)


class RealPaths:
    """Each file's real path, for counting a file once however it is named: a folder's real path is
    resolved once for all its files, and only a file that is a link is resolved on its own (a
    `Path.resolve()` per file costs a system call per path component; 12 % of `score`)."""

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def of(self, path: Path, is_link: bool | None = None) -> str:
        if is_link is None:
            is_link = path.is_symlink()
        s = str(path)
        if is_link:
            return os.path.realpath(s)
        folder, name = os.path.split(s)
        real = self._folders.get(folder)
        if real is None:
            real = self._folders[folder] = os.path.realpath(folder or ".")
        return os.path.join(real, name)


def files_below(folder: Path, suffixes: tuple[str, ...]) -> tuple[list[tuple[Path, bool]], list[Path]]:
    """The files below `folder` (links to files included, linked folders not entered, as
    `Path.rglob`) whose name ends with one of `suffixes`, each with whether it is a link, in
    `sorted(Path)` order; and those names that give no regular file (a link that leads nowhere, a
    FIFO, a device, a socket), sorted: skipped unnamed, they would drop out of a selection unseen."""
    files: list[tuple[Path, bool]] = []
    unreadable: list[Path] = []
    stack = [str(folder)]
    while stack:
        try:
            with os.scandir(stack.pop()) as it:
                entries = list(it)
        except OSError:
            continue  # an unreadable folder gives nothing, as rglob
        for e in entries:
            link = e.is_symlink()
            if e.is_dir(follow_symlinks=False):
                stack.append(e.path)
            elif e.name.endswith(suffixes):
                try:
                    is_file = e.is_file()
                except OSError:
                    is_file = False
                if is_file:
                    files.append((Path(e.path), link))
                elif not (link and os.path.isdir(e.path)):  # a linked folder is not entered, not a problem
                    unreadable.append(Path(e.path))
    files.sort(key=lambda f: f[0].parts)
    unreadable.sort(key=lambda p: p.parts)
    return files, unreadable


def expand_paths(specs: Iterable[str | Path], suffixes: tuple[str, ...], *,
                 unreadable: list[Path] | None = None) -> list[Path]:
    """Files matching `suffixes`, in a stable order, each once.

    A folder contributes every matching file below it; a glob its matches; a
    missing path or a glob matching nothing is an error naming it. Names below a
    named folder that give no regular file (`files_below`) are added to `unreadable`
    when it is given (`unreadable_problem` says why).
    """
    out: list[Path] = []
    seen: set[str] = set()
    real = RealPaths()
    for spec in specs:
        s = str(spec)
        if any(ch in s for ch in "*?["):
            matches = [Path(m) for m in sorted(glob.glob(s, recursive=True))]
            if not matches:
                raise PathSpecError(f"{s}: no file matches this pattern")
        else:
            p = Path(s)
            if not p.exists():
                why = broken_link_problem(p)
                if why is not None:
                    raise PathSpecError(f"{s}: a symbolic link that {why}; fix or remove it")
                raise PathSpecError(f"{s}: no such file or folder", missing=s)
            matches = [p]
        for m in matches:
            files: list[tuple[Path, bool | None]]
            if m.is_dir():
                below, lost = files_below(m, suffixes)
                files = list(below)
                if unreadable is not None and m == Path(s):
                    unreadable += lost
            elif m == Path(s) or m.name.endswith(suffixes):
                files = [(m, None)]  # a file named outright is taken whatever its name
            else:
                files = []  # a glob's other matches (e.g. run records beside trajectories)
            for f, is_link in files:
                key = real.of(f, is_link)
                if key not in seen:
                    seen.add(key)
                    out.append(f)
    return out


def make_parent_folders(path: str | Path) -> None:
    """Create the folders an output file goes in (`-o reports/today/r.html`), as `run --out` does.
    A file where one of them goes is named: mkdir alone says "File exists" or "Not a directory"."""
    parent = Path(path).parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((a for a in (parent, *parent.parents) if a.exists() and not a.is_dir()), parent)
        raise OSError(errno.ENOTDIR, f"{blocker} is a file where a folder goes") from None
