"""Tool profiles as data: `profiles/<name>.yaml`, shipped in the package `a320bench.profiles`.

A profile names the tools a server exposes and the locked base instructions
every agent reads. Loading needs neither mcp nor the simulator (the CLI and
`run` read profiles before deciding what to import); that every tool name
exists is checked when a server is built (`factory.profile_tools`).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

PACKAGE = "a320bench.profiles"


class ProfileError(ValueError):
    """An unknown profile name or a broken profile file."""


class Profile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: Literal[1] = 1
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    description: str
    tools: tuple[str, ...] = Field(min_length=1)
    instructions: str = Field(min_length=1)


def available_profiles() -> list[str]:
    return sorted(p.name.removesuffix(".yaml") for p in resources.files(PACKAGE).iterdir()
                  if p.name.endswith(".yaml"))


@cache
def load_profile(name: str) -> Profile:
    """The profile called `name` (cached: profiles are immutable data)."""
    res = resources.files(PACKAGE) / f"{name}.yaml"
    if not name.replace("_", "").isalnum() or not res.is_file():
        raise ProfileError(f"unknown profile {name!r} (profiles: {', '.join(available_profiles())})")
    where = f"profile {name} ({PACKAGE}/{name}.yaml)"
    try:
        data = yaml.safe_load(res.read_text(encoding="utf-8"))
        profile = Profile.model_validate(data)
    except yaml.YAMLError as e:
        raise ProfileError(f"{where}: not valid YAML: {e}") from None
    except ValidationError as e:
        lines = [f"{where}: {'.'.join(map(str, err['loc'])) or '(top)'}: {err['msg']}" for err in e.errors()]
        raise ProfileError("\n".join(lines)) from None
    if profile.name != name:
        raise ProfileError(f"{where}: name is {profile.name!r}, expected {name!r}")
    if len(set(profile.tools)) != len(profile.tools):
        raise ProfileError(f"{where}: tools lists a name twice")
    return profile
