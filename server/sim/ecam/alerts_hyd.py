"""HYD alerts: filled in with the hyd system model."""

from __future__ import annotations

from .model import AlertDef

ALERTS: tuple[AlertDef, ...] = ()
