"""Providers drive an episode: baselines (scripted, noop, random, ecam, replay) and litellm models.

Looked up by name and imported lazily: litellm costs seconds to import and is an
optional extra. A missing extra is one line with the exact command that installs it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

from ..errors import MissingExtra

# name -> (module, class, the distributions a missing import means are not installed)
PROVIDERS: dict[str, tuple[str, str, frozenset[str]]] = {
    "scripted": ("scripted", "ScriptedProvider", frozenset()),
    "noop": ("noop", "NoopProvider", frozenset()),
    "random": ("random_walk", "RandomProvider", frozenset()),
    "ecam": ("ecam", "EcamProvider", frozenset()),
    "replay": ("replay", "ReplayProvider", frozenset()),
    "litellm": ("litellm_agent", "LitellmProvider", frozenset({"litellm", "tenacity"})),
}
EXTRA_OF = {"litellm": "providers"}


def install_command(extra: str) -> str:
    """The pip command that adds `extra` to this very installation (a source checkout or a wheel)."""
    import a320bench

    root = Path(a320bench.__file__).resolve().parents[1]
    if (root / "pyproject.toml").is_file():  # installed from a checkout (pip install -e .)
        return f"{sys.executable} -m pip install -e '{root}[{extra}]'"
    return f"{sys.executable} -m pip install 'a320-bench[{extra}]'"


def provider_class(name: str) -> type:
    """The class of provider `name`. MissingExtra when its optional dependencies are not installed."""
    module, cls, needs = PROVIDERS[name]
    try:
        mod = importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in needs:
            raise  # one of our own imports is broken: a bug, not a missing extra
        extra = EXTRA_OF[name]
        raise MissingExtra(f"the {name} provider needs the {extra} extra ({e.name} is not installed): "
                           f"{install_command(extra)}") from None
    return getattr(mod, cls)


def make_provider(name: str, **kw: Any):
    cls = provider_class(name)
    if name == "random":
        return cls(seed=kw.get("seed") or 0)
    if name == "replay":
        return cls(kw["replay_from"], of=kw.get("replay_of"))
    if name == "litellm":
        return cls(kw["model"], sampling=kw.get("sampling") or {}, max_retries=kw.get("max_retries", 3),
                   request_timeout_s=kw.get("request_timeout_s", 120.0))
    return cls()
