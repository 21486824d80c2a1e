"""One registry of agents: every agent `run` drives is found here, built-in or not.

    --agent NAME                    a built-in (scripted, noop, random, ecam, replay, litellm), or a name
                                    an installed package registers in the `a320bench.agents` entry-point
                                    group:  [project.entry-points."a320bench.agents"]
                                            my-agent = "my_package.agents:MyAgent"
    --agent package.module:Class    a class importable from this environment
    --agent path/to/file.py:Class   a class in a Python file (its folder is importable by it)

`--provider NAME` is `--agent NAME` for a built-in; `--model M` alone is `--agent litellm`.
Built-ins win over an installed package that registers the same name.

Resolving (`resolve`) imports nothing: a name or a path that leads nowhere is a
UsageError before anything runs. Loading (`make_agent`) imports: for a built-in,
a missing optional extra is MissingExtra (the exact pip command) and any other
failure is a bug of ours; for a plug-in, code that will not import, a class of
the wrong shape or a constructor that raises makes a `BrokenPlugin`, whose every
episode ends `agent_error` (the plug-in's failure, not a crash of the run). A plug-in
that loads is wrapped in a `PluginAgent`, which turns an exception of its run()
into PluginFailed (errors.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import traceback
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from ..errors import EpisodeEnded, MissingExtra, PluginFailed, UsageError
from .base import AgentConfig, AgentView

ENTRY_POINT_GROUP = "a320bench.agents"
_HERE = __name__.rsplit(".", 1)[0]  # a320bench.bridge.providers


@dataclass(frozen=True, slots=True)
class Builtin:
    target: str  # module:Class
    needs: frozenset[str] = frozenset()  # distributions whose absence means the extra is not installed
    extra: str | None = None
    takes_model: bool = False  # --model, --sampling, --reasoning-level ... apply


BUILTINS: dict[str, Builtin] = {
    "scripted": Builtin(f"{_HERE}.scripted:ScriptedProvider"),
    "noop": Builtin(f"{_HERE}.noop:NoopProvider"),
    "random": Builtin(f"{_HERE}.random_walk:RandomProvider"),
    "ecam": Builtin(f"{_HERE}.ecam:EcamProvider"),
    "replay": Builtin(f"{_HERE}.replay:ReplayProvider"),
    "litellm": Builtin(f"{_HERE}.litellm_agent:LitellmProvider", frozenset({"litellm", "tenacity"}), "providers",
                       takes_model=True),
}
Kind = Literal["builtin", "entry_point", "module", "file"]


@dataclass(frozen=True, slots=True)
class AgentSpec:
    text: str  # as the user gave it
    name: str  # recorded as meta.provider and used in file labels
    kind: Kind
    target: str  # module:attr, file.py:attr, or the entry point's value

    @property
    def plugin(self) -> bool:
        """Someone else's code: its failures are its own (errors.py)."""
        return self.kind != "builtin"

    @property
    def takes_model(self) -> bool:
        return self.plugin or BUILTINS[self.name].takes_model


def install_command(extra: str) -> str:
    """The pip command that adds `extra` to this very installation (a source checkout or a wheel)."""
    import a320bench

    root = Path(a320bench.__file__).resolve().parents[1]
    if (root / "pyproject.toml").is_file():  # installed from a checkout (pip install -e .)
        return f"{sys.executable} -m pip install -e '{root}[{extra}]'"
    return f"{sys.executable} -m pip install 'a320-bench[{extra}]'"


def installed_agents() -> dict[str, str]:
    """name -> target of every agent an installed package registers (built-in names excluded)."""
    found: dict[str, str] = {}
    for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if ep.name not in BUILTINS:
            found.setdefault(ep.name, ep.value)
    return found


def resolve(text: str) -> AgentSpec:
    """What `--agent TEXT` names; UsageError (one line) when it names nothing. Imports nothing."""
    text = text.strip()
    if text in BUILTINS:
        return AgentSpec(text, text, "builtin", BUILTINS[text].target)
    installed = installed_agents()
    if text in installed:
        return AgentSpec(text, text, "entry_point", installed[text])
    where, sep, attr = text.rpartition(":")
    if not sep or not where or not attr.isidentifier():
        if text.endswith(".py") and Path(text).is_file():
            raise UsageError(f"--agent {text}: name the agent's class too: {text}:ClassName")
        names = ", ".join([*BUILTINS, *installed])
        raise UsageError(f"--agent {text}: not an agent name ({names}), nor package.module:Class, "
                         "nor path/to/file.py:Class")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise UsageError(f"--agent {text}: no such file {where}")
        return AgentSpec(text, attr, "file", f"{path.resolve()}:{attr}")
    try:
        found = importlib.util.find_spec(where)
    except (ImportError, ValueError):  # a parent package that is not there, or a name that is not one
        found = None
    if found is None:
        file = Path(*where.split(".")).with_suffix(".py")
        # A console script does not import from the working folder, as `python` does.
        hint = f" (for the file {file} here: --agent {file}:{attr})" if file.is_file() else ""
        raise UsageError(f"--agent {text}: no module named {where} in this environment{hint}")
    return AgentSpec(text, attr, "module", f"{where}:{attr}")


class BrokenPlugin(Exception):
    """A plug-in that cannot be used (one line): it will not import, or its class has the wrong shape."""

    def __init__(self, message: str, exception: str | None = None):
        super().__init__(message)
        self.exception = exception


def make_agent(spec: AgentSpec, config: AgentConfig) -> Any:
    """The agent `run` drives: a built-in, a `PluginAgent`, or a `BrokenPlugin`'s stand-in."""
    if not spec.plugin:
        cls = builtin_class(spec.name)
        agent = cls.from_config(config) if hasattr(cls, "from_config") else cls()
        agent.name = spec.name
        return agent
    try:
        cls = _load_plugin(spec)
        check_shape(cls)
        agent = cls.from_config(config) if hasattr(cls, "from_config") else cls()
        meta = agent.meta() if callable(getattr(agent, "meta", None)) else {}
        if not isinstance(meta, dict):
            raise BrokenPlugin(f"meta() returned {type(meta).__name__}, not a dict")
    except BrokenPlugin as e:
        return BrokenPluginAgent(spec, config, str(e), e.exception)
    except UsageError:
        raise  # the name leads nowhere: nothing runs
    except Exception as e:  # its constructor or meta(): its code
        return BrokenPluginAgent(spec, config, f"{_where(e)} raised {type(e).__name__}: {e}", _trace(e))
    return PluginAgent(spec, agent, config, meta)


def builtin_class(name: str) -> type:
    """The class of built-in agent `name`. MissingExtra when its optional dependencies are not installed."""
    b = BUILTINS[name]
    module, _, attr = b.target.partition(":")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in b.needs:
            raise  # one of our own imports is broken: a bug, not a missing extra
        raise MissingExtra(f"the {name} provider needs the {b.extra} extra ({e.name} is not installed): "
                           f"{install_command(b.extra or '')}") from None
    return getattr(mod, attr)


def _load_plugin(spec: AgentSpec) -> Any:
    where, _, attr = spec.target.rpartition(":")
    try:
        if spec.kind == "file":
            module = _import_file(Path(where))
        else:
            module = importlib.import_module(where)
    except BaseException as e:  # SystemExit, a SyntaxError, its missing dependency: the plug-in's
        if isinstance(e, KeyboardInterrupt):
            raise
        raise BrokenPlugin(f"importing {where} raised {type(e).__name__}: {e}", _trace(e)) from None
    if not hasattr(module, attr):
        raise UsageError(f"--agent {spec.text}: {where} has no {attr}")
    return getattr(module, attr)


def _import_file(path: Path) -> Any:
    name = f"a320bench_agent_{path.stem}_{abs(hash(str(path))):x}"
    if name in sys.modules:
        return sys.modules[name]
    folder = str(path.parent)
    if folder not in sys.path:  # its neighbours import as they would when it runs as a script
        sys.path.append(folder)
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise ImportError(f"{path} is not a Python module")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up by name
    try:
        loader_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def check_shape(cls: Any) -> None:
    """BrokenPlugin unless `cls` is a class with `async def run(self, view)` (and a usable constructor)."""
    if not inspect.isclass(cls):
        raise BrokenPlugin(f"{cls!r} is not a class")
    run = getattr(cls, "run", None)
    if run is None:
        raise BrokenPlugin(f"{cls.__name__} has no run method: define async def run(self, view)")
    if not inspect.iscoroutinefunction(run):
        raise BrokenPlugin(f"{cls.__name__}.run is not async: define async def run(self, view)")
    try:
        inspect.signature(run).bind(object(), object())
    except TypeError:
        raise BrokenPlugin(f"{cls.__name__}.run{inspect.signature(run)} does not take the view: "
                           "define async def run(self, view)") from None
    factory = getattr(cls, "from_config", None)
    try:
        if factory is not None:
            inspect.signature(factory).bind(AgentConfig())
        else:
            inspect.signature(cls).bind()
    except ValueError:  # a signature Python cannot show (a C type's): try it when it is called
        return
    except TypeError:
        how = f"{cls.__name__}.from_config(config)" if factory is not None else f"{cls.__name__}()"
        raise BrokenPlugin(f"{how} cannot be called: give the class a constructor without required "
                           "arguments, or a classmethod from_config(cls, config)") from None


class PluginAgent:
    """A plug-in that loaded: its exceptions become PluginFailed (agent_error), ours stay ours."""

    def __init__(self, spec: AgentSpec, agent: Any, config: AgentConfig, meta: dict[str, Any]):
        self.spec = spec
        self.name = spec.name
        self.model = getattr(agent, "model", None) or config.model
        self.reasoning_level = config.reasoning_level
        self.config = config  # a worker process builds the plug-in again from spec and config
        self.agent = agent
        self._meta = meta

    def meta(self) -> dict[str, Any]:
        return {"agent": self.spec.text, "agent_kind": self.spec.kind, "agent_meta": self._meta}

    async def run(self, view: AgentView) -> None:
        try:
            await self.agent.run(view)
        except EpisodeEnded:
            raise  # ProviderFailed / AgentFailed: the end it chose
        except (Exception, SystemExit) as e:
            if view.tools.fault is not None:
                raise  # it started in our tools: a bug of ours, whoever passed it on
            raise PluginFailed(f"plug-in {self.spec.text}: {_where(e)} raised {type(e).__name__}: {e}",
                               _trace(e)) from None


class BrokenPluginAgent:
    """A plug-in that cannot be used: every episode ends agent_error with the same line."""

    def __init__(self, spec: AgentSpec, config: AgentConfig, problem: str, exception: str | None):
        self.spec = spec
        self.name = spec.name
        self.model = config.model
        self.reasoning_level = config.reasoning_level
        self.problem = f"plug-in {spec.text} is broken: {problem}"
        self.exception = exception

    def meta(self) -> dict[str, Any]:
        return {"agent": self.spec.text, "agent_kind": self.spec.kind, "agent_meta": {}}

    async def run(self, view: AgentView) -> None:
        raise PluginFailed(self.problem, self.exception)


def _where(e: BaseException) -> str:
    """`file.py:12 in run`: the innermost frame of the exception (the plug-in's line)."""
    tb = e.__traceback__
    if tb is None:
        return "its code"
    last = traceback.extract_tb(tb)[-1]
    return f"{Path(last.filename).name}:{last.lineno} in {last.name}"


def _trace(e: BaseException) -> str:
    return "".join(traceback.format_exception(type(e), e, e.__traceback__, limit=-8))
