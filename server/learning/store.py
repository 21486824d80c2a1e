"""One chain's learnings: what the agent saved, kept across the episodes of one run folder.

The learning track flies the episodes of one run index as a chain, one after
another in an order drawn for that chain (bridge/learning_track.py); every chain has
its own store, `<out>/learning/<label>__runNNN.json`, so chains flown in parallel
never see each other and a rerun finds the same store in the same state. The store
keeps the chain's order (`order`): an agent must not learn its scenario from its place
in the chain, so the order is a secret of the harness's side, and resume reads it here.

What is in it is only what the agent saved with `save_learning(text)`: the
harness adds no entry and no word to one. Harness-side bookkeeping (which
episode an entry came from, its position in the chain) stays on this side;
`retrieve_learnings` hands the agent the text and the position only.

An episode's saves are pending until the episode ends: committed when it ended as
the agent's result, dropped when it did not (a harness error, an interrupt), so
that the episode flown again on resume starts from the same store. The store also
names the chain positions whose episodes committed (`committed`): a trajectory is
complete a moment before its commit, so a run killed in between leaves an episode
that stands on disk but whose saves the store lacks; resume flies such an episode
again (bridge/learning_track.py) rather than skip it. Retrieval is
deterministic: BM25+ (rank-bm25) over lower-case word tokens, entries sharing no
word with the query left out, ties to the newer entry, at most `top_k`.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

# 2: `committed` positions (a schema-1 store has none: see `committed`); 3: the chain's `order` (before it,
# the selection's order, which the store's `order_sha256` names)
STORE_SCHEMA_VERSION = 3
MAX_TEXT_CHARS = 2000
MAX_SAVES_PER_EPISODE = 10
OFFICIAL_TOP_K = 3
_TOKEN = re.compile(r"[a-z0-9]+")


class LearningError(Exception):
    """The agent's mistake with a learning tool (the dispatcher turns it into a tool error it reads)."""


class StoreMismatch(ValueError):
    """A store on disk that belongs to another selection of scenarios: one line for the user."""


@dataclass(frozen=True, slots=True)
class Entry:
    id: int
    text: str
    position: int  # the episode's place in the chain (0-based)
    episode: str  # which episode saved it (harness-side only)

    def shown(self) -> dict[str, Any]:
        """What the agent reads back."""
        return {"id": self.id, "text": self.text, "saved_in_episode": self.position + 1}


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def order_hash(order: list[str]) -> str:
    return hashlib.sha256("\n".join(order).encode()).hexdigest()


class LearningStore:
    """The committed entries of one chain, and where they are kept (None: in memory only)."""

    def __init__(self, path: Path | None, order: list[str], top_k: int = OFFICIAL_TOP_K,
                 entries: list[Entry] | None = None):
        self.path = path
        self.order = list(order)
        self.top_k = top_k
        self.entries: list[Entry] = list(entries or [])
        # Chain positions whose episodes committed. None: a schema-1 store, which did not say (resume
        # then trusts the trajectories on disk, as it did when that store was written).
        self.committed: set[int] | None = set()

    @classmethod
    def open(cls, path: Path, order: list[str], top_k: int) -> LearningStore:
        """The store at `path` (new if absent); StoreMismatch if it was built for another scenario order."""
        if not path.exists():
            return cls(path, order, top_k)
        return cls._filled(path, order, top_k, json.loads(path.read_text(encoding="utf-8")))

    @classmethod
    def _filled(cls, path: Path, order: list[str], top_k: int, data: Any) -> LearningStore:
        if not isinstance(data, dict) or data.get("order_sha256") != order_hash(order):
            raise StoreMismatch(f"{path} was built for another selection of scenarios (or another order): "
                                "use another --out, or --force to start the chain again")
        try:
            store = cls(path, order, top_k, [Entry(**e) for e in data.get("entries", [])])
            store.committed = set(data["committed"]) if "committed" in data else None
        except TypeError as e:  # entries that are not the ones we write: a damaged store, one line
            raise ValueError(f"its entries are not a learning store's ({e})") from None
        return store

    @classmethod
    def on_disk(cls, path: Path, selection: list[str], top_k: int) -> LearningStore | None:
        """A chain's store as resume finds it, in the order it was built for (None: no store yet), read
        once; StoreMismatch if it was built for another selection of scenarios. A store before schema 3
        kept the selection's order."""
        if not path.exists():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        order = data.get("order") if isinstance(data, dict) else None
        if order is None:
            order = selection if isinstance(data, dict) and data.get("order_sha256") == order_hash(selection) else []
        if not isinstance(order, list) or sorted(map(str, order)) != sorted(selection):
            raise StoreMismatch(f"{path} was built for another selection of scenarios: use another --out, or "
                                "--force to start the chain again")
        return cls._filled(path, [str(i) for i in order], top_k, data)

    def stands(self, position: int) -> bool:
        """Did the episode at `position` commit (its saves, if any, are in the store)?"""
        return self.committed is None or position in self.committed

    def rewind(self, position: int) -> None:
        """Forget what episodes from `position` on saved: they are flown again."""
        self.entries = [e for e in self.entries if e.position < position]
        self.committed = {p for p in self.committed if p < position} if self.committed is not None \
            else set(range(position))  # a schema-1 store: the trajectories said the earlier ones stood

    def begin(self, episode: str, position: int) -> EpisodeLearnings:
        self.rewind(position)
        return EpisodeLearnings(self, episode, position)

    def save(self) -> None:
        if self.path is None:
            return
        from ..trajectory import write_json_atomic

        write_json_atomic(self.path, {"schema_version": STORE_SCHEMA_VERSION, "order": self.order,
                                      "order_sha256": order_hash(self.order),
                                      "top_k": self.top_k, "entries": [asdict(e) for e in self.entries],
                                      "committed": sorted(self.committed or ())})


class EpisodeLearnings:
    """One episode's view of the store: what the learning tools call (server/surface/learning_tools.py)."""

    def __init__(self, store: LearningStore, episode: str, position: int):
        self.store = store
        self.episode = episode
        self.position = position
        self.at_start = list(store.entries)
        self.pending: list[Entry] = []

    @property
    def top_k(self) -> int:
        return self.store.top_k

    def save_learning(self, text: str) -> Entry:
        text = text.strip()
        if not text:
            raise LearningError("save_learning: the text is empty; write what you want to remember")
        if len(text) > MAX_TEXT_CHARS:
            raise LearningError(f"save_learning: at most {MAX_TEXT_CHARS} characters per learning "
                                f"(got {len(text)}); keep it short")
        if len(self.pending) >= MAX_SAVES_PER_EPISODE:
            raise LearningError(f"save_learning: at most {MAX_SAVES_PER_EPISODE} learnings per episode")
        entry = Entry(len(self.at_start) + len(self.pending) + 1, text, self.position, self.episode)
        self.pending.append(entry)
        return entry

    def retrieve_learnings(self, query: str) -> list[Entry]:
        entries = self.at_start + self.pending
        wanted = set(tokens(query))
        if not entries or not wanted:
            return []
        from rank_bm25 import BM25Plus

        docs = [tokens(e.text) or [""] for e in entries]
        scores = BM25Plus(docs).get_scores(list(wanted))
        hits = [i for i, doc in enumerate(docs) if wanted & set(doc)]
        hits.sort(key=lambda i: (-float(scores[i]), -i))
        return [entries[i] for i in hits[: self.top_k]]

    def commit(self) -> None:
        """The episode ended as the agent's result: its saves join the store (written to disk)."""
        self.store.entries = self.at_start + self.pending
        self.store.committed = (self.store.committed or set()) | {self.position}
        self.store.save()

    def describe(self) -> dict[str, Any]:
        """The meta event's `learning`: enough to re-simulate the episode (score --verify)."""
        return {"position": self.position, "top_k": self.top_k, "order_sha256": order_hash(self.store.order),
                "at_start": [asdict(e) for e in self.at_start]}

    @classmethod
    def replay(cls, learning: dict[str, Any]) -> EpisodeLearnings:
        """The same view, in memory, from a recorded meta `learning` (for score --verify)."""
        entries = [Entry(**e) for e in learning.get("at_start", [])]
        store = LearningStore(None, [], int(learning.get("top_k", OFFICIAL_TOP_K)), entries)
        return cls(store, "verify", int(learning.get("position", 0)))
