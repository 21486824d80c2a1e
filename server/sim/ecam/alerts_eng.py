"""ENG alerts: filled in with the eng system model."""

from __future__ import annotations

from .model import AlertDef

ALERTS: tuple[AlertDef, ...] = ()
