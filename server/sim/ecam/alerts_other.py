"""OTHER alerts: filled in with the other system model."""

from __future__ import annotations

from .model import AlertDef

ALERTS: tuple[AlertDef, ...] = ()
