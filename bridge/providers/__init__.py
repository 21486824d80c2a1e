"""Providers drive an episode: baselines (scripted, noop, random, ecam, replay) and litellm models.

Looked up by name, imported lazily: litellm costs seconds to import and is an
optional extra.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class MissingExtra(RuntimeError):
    pass


def make_provider(name: str, **kw: Any):
    if name == "scripted":
        from .scripted import ScriptedProvider

        return ScriptedProvider()
    if name == "noop":
        from .noop import NoopProvider

        return NoopProvider()
    if name == "random":
        from .random_walk import RandomProvider

        return RandomProvider(seed=kw.get("seed", 0))
    if name == "ecam":
        from .ecam import EcamProvider

        return EcamProvider()
    if name == "replay":
        from .replay import ReplayProvider

        return ReplayProvider(Path(kw["replay_from"]))
    if name == "litellm":
        try:
            from .litellm_agent import LitellmProvider
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise MissingExtra(
                f"the litellm provider needs the providers extra: pip install -e \".[providers]\" ({e})") from None
        return LitellmProvider(kw["model"], sampling=kw.get("sampling") or {}, max_retries=kw.get("max_retries", 3))
    raise ValueError(f"unknown provider {name!r}")
