"""ECAM: the alert catalogue, the warning computer (FWC), memos and the STATUS page."""

from .catalog import ALERT_TITLES, ALERTS
from .fwc import Fwc
from .model import AlertDef, Ctx, Line

__all__ = ["ALERTS", "ALERT_TITLES", "AlertDef", "Ctx", "Fwc", "Line"]
