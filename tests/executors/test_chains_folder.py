"""The node folder Ray tasks fly their chains in ($TMPDIR/a320bench-chains): this user's alone, or refused."""

from __future__ import annotations

import os
import stat
import tempfile

import pytest

from a320bench.bridge.executors.ray_executor import UnsafeChainsFolder, chains_folder

NOBODY = 65534


@pytest.fixture
def tmpdir_of_node(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # what gettempdir() answers, as TMPDIR would
    return tmp_path


def test_the_folder_is_made_for_this_user_alone(tmpdir_of_node):
    path = chains_folder()
    st = path.lstat()
    assert (path, stat.S_IMODE(st.st_mode), st.st_uid) == (tmpdir_of_node / "a320bench-chains", 0o700, os.getuid())


def test_a_folder_of_ours_that_others_could_look_into_is_closed(tmpdir_of_node):
    (tmpdir_of_node / "a320bench-chains").mkdir()
    (tmpdir_of_node / "a320bench-chains").chmod(0o777)
    assert stat.S_IMODE(chains_folder().lstat().st_mode) == 0o700


@pytest.mark.skipif(os.getuid() != 0, reason="making a folder of another user takes root")
def test_another_users_folder_of_that_name_is_refused_in_one_line(tmpdir_of_node):
    foreign = tmpdir_of_node / "a320bench-chains"
    foreign.mkdir(mode=0o777)
    os.chown(foreign, NOBODY, NOBODY)
    with pytest.raises(UnsafeChainsFolder) as e:
        chains_folder()
    assert str(e.value) == (f"the chains' folder {foreign} is owned by uid {NOBODY}, not this user's own "
                            f"(uid 0): remove it, or give the cluster's workers another TMPDIR")


def test_a_link_of_that_name_is_refused_wherever_it_points(tmpdir_of_node):
    (tmpdir_of_node / "elsewhere").mkdir(mode=0o700)
    (tmpdir_of_node / "a320bench-chains").symlink_to(tmpdir_of_node / "elsewhere")
    with pytest.raises(UnsafeChainsFolder) as e:
        chains_folder()
    assert str(e.value) == (f"the chains' folder {tmpdir_of_node / 'a320bench-chains'} is a link, not this user's "
                            f"own (uid {os.getuid()}): remove it, or give the cluster's workers another TMPDIR")


def test_a_file_of_that_name_is_refused(tmpdir_of_node):
    (tmpdir_of_node / "a320bench-chains").write_text("")
    with pytest.raises(UnsafeChainsFolder) as e:
        chains_folder()
    assert str(e.value) == (f"cannot make the chains' folder {tmpdir_of_node / 'a320bench-chains'}: File exists")
