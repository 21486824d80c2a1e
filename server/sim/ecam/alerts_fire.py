"""FIRE alerts: filled in with the fire system model."""

from __future__ import annotations

from .model import AlertDef

ALERTS: tuple[AlertDef, ...] = ()
