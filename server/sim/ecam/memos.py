"""ECAM memos: temporary normal selections shown when no alert needs the space."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..aircraft import Aircraft


def memos(ac: Aircraft) -> list[str]:
    out: list[str] = []
    for sys in ac.systems:
        fn = getattr(sys, "memos", None)
        if fn is not None:
            out.extend(fn(ac))
    return out
