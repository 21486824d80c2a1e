"""`report` and `export` on a disk that refuses: one line, exit 2, no traceback, and what an earlier
command wrote there is still whole (tests/disk_bed.py: a small tmpfs; root only)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from score_builder import compliant
from tests.disk_bed import small_disk


def _fill(disk: Path, leave: int) -> None:
    """Fill the disk until at most `leave` bytes are free."""
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    with open(disk / "filler", "wb") as fh:
        try:
            fh.write(b"\0" * max(free - leave, 0))
            fh.flush()
        except OSError:
            pass


def test_a_report_on_a_full_disk_is_one_line_and_the_earlier_report_stays_whole(tmp_path, capsys):
    traj = compliant().write(tmp_path / "t.jsonl")
    with small_disk(tmp_path / "disk", size="8m") as disk:
        out = disk / "r.html"
        assert main(["report", str(traj), "-o", str(out)]) == exitcodes.OK
        before = out.read_bytes()
        _fill(disk, leave=64 * 1024)
        capsys.readouterr()
        assert main(["report", str(traj), "-o", str(out)]) == exitcodes.USAGE
        assert capsys.readouterr().err == f"error: {out}: cannot write: No space left on device\n"
        assert out.read_bytes() == before
        assert sorted(p.name for p in disk.iterdir()) == ["filler", "r.html"]  # no temporary file left


def test_a_report_on_a_read_only_disk_is_one_line(tmp_path, capsys):
    traj = compliant().write(tmp_path / "t.jsonl")
    with small_disk(tmp_path / "ro", options="ro") as ro:
        assert main(["report", str(traj), "-o", str(ro / "r.html")]) == exitcodes.USAGE
    assert capsys.readouterr().err == f"error: {ro / 'r.html'}: cannot write: Read-only file system\n"


def test_an_export_on_a_full_disk_is_one_line_and_the_earlier_logs_stay_whole(tmp_path, capsys):
    pytest.importorskip("inspect_ai")
    traj = compliant().write(tmp_path / "runs" / "t.jsonl")
    with small_disk(tmp_path / "disk", size="1m") as disk:
        logs = disk / "logs"
        assert main(["export", "--inspect", str(traj), "-o", str(logs)]) == exitcodes.OK
        [log] = list(logs.iterdir())
        before = log.read_bytes()
        _fill(disk, leave=0)
        capsys.readouterr()
        assert main(["export", "--inspect", str(traj), "-o", str(logs)]) == exitcodes.USAGE
        err = capsys.readouterr().err
        assert err == f"error: -o {logs}: cannot write the logs: No space left on device\n"
        assert list(logs.iterdir()) == [log] and log.read_bytes() == before
