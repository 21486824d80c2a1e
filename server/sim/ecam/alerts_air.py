"""AIR alerts: filled in with the air system model."""

from __future__ import annotations

from .model import AlertDef

ALERTS: tuple[AlertDef, ...] = ()
