"""validate's order check: fly every adjacent swap of a scenario's procedure.

The procedure is a partial order (a320bench/procedure_order.py): each constraint
the file states must matter, and every order it leaves free must be flyable. For
each pair of neighbouring steps (as listed, on different controls), the ground
truth is flown with the two swapped, in two timelines: the waits where they were
listed (the wait for the stop stays after the second lever), and each step
keeping its own wait (a relight's wait follows its master). The swap must fail
compliance (in the listed timeline) when it puts a step before a predecessor the
file names, and pass in one of the two when it does not (or fail only by taking a step before its `when:`
held, the condition standing for the order): a free swap that fails shows a constraint the file is
missing (or a scenario that depends on an order nobody wrote down), a
constrained swap that passes shows a constraint scoring cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass

from a320bench.procedure_order import dependencies, label, violates


@dataclass(frozen=True)
class SwapMismatch:
    first: str   # the step flown first in the swapped order
    second: str
    constrained: bool  # the file says the swap must fail
    passed: bool

    def __str__(self) -> str:
        want = "must fail (a stated constraint)" if self.constrained else "must pass (no constraint)"
        got = "passed" if self.passed else "failed"
        return f"{self.first} before {self.second} {want}, {got}"


def adjacent_swaps(sc) -> list[tuple[list[tuple[int, int]], bool, str, str]]:
    """(order to fly, whether a stated constraint forbids it, first step, second step)."""
    procedure = sc.ground_truth.procedure
    deps = dependencies([(b.ordered, b.steps) for b in procedure])
    flat = [(bi, j) for bi, b in enumerate(procedure) for j in range(len(b.steps))]
    step = lambda ref: procedure[ref[0]].steps[ref[1]]  # noqa: E731
    out = []
    for i in range(len(flat) - 1):
        a, b = step(flat[i]), step(flat[i + 1])
        if a.control == b.control:
            continue  # one control's own sequence (OFF then ON): always kept
        order = [*flat[:i], flat[i + 1], flat[i], *flat[i + 2:]]
        out.append((order, bool(violates(order, deps)), label(b.control, b.position), label(a.control, a.position)))
    return out


def _passed(card, constrained: bool) -> bool:
    if card.compliant_success:
        return True
    # A free swap that fails only by a step taken before its `when:` held obeys the file.
    early = [c for c in card.commands or () if (c.get("matched") or {}).get("when_unmet")]
    wrong = [c for c in card.commands or () if c["class"] not in ("required", "observation", "optional")]
    return (not constrained and bool(early) and wrong == early and card.outcome and not card.harmful
            and not card.invariant_violations and card.completion == 1.0)


async def check_swaps(sc, fly) -> list[SwapMismatch]:
    """`fly(sc, order, own_waits) -> ScoreCard` (with the command detail): one scripted flight."""
    bad = []
    for order, constrained, first, second in adjacent_swaps(sc):
        passed = _passed(await fly(sc, order, False), constrained)
        if not passed and not constrained:  # a free swap may pass in the other timeline
            passed = _passed(await fly(sc, order, True), constrained)
        if passed == constrained:
            bad.append(SwapMismatch(first, second, constrained, passed))
    return bad
