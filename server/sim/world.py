"""World controls: what the harness sets about the outside world (not cockpit controls)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownWorldError


@dataclass(slots=True)
class World:
    gpu_available: bool = False  # a healthy ground power cart is plugged in
    icing: bool = False  # flying in icing conditions (wing anti-ice needed)
    oat_isa_dev_c: float = 0.0  # deviation from ISA temperature
    # Aircraft standard: newer FWC/ELEC standards move AC ESS to AC BUS 2 by themselves;
    # older ones need the crew's AC ESS FEED ALTN (domain reference §1.1, rule 4).
    ac_ess_auto_transfer: bool = False
    # The lowest altitude a drift-down may take the aircraft to on this route (the harness judges an
    # altitude selection below it harmful); the usual en-route figure away from high terrain.
    min_safe_altitude_ft: float = 10_000.0

    def set(self, name: str, value: object) -> None:
        kinds = {"gpu_available": bool, "icing": bool, "oat_isa_dev_c": float, "ac_ess_auto_transfer": bool,
                 "min_safe_altitude_ft": float}
        if name not in kinds:
            raise UnknownWorldError(f"unknown world control {name!r}; valid: {', '.join(kinds)}")
        kind = kinds[name]
        if kind is bool:
            if isinstance(value, str) and value.lower() in ("true", "false", "on", "off", "1", "0"):
                value = value.lower() in ("true", "on", "1")
            if not isinstance(value, bool):
                raise UnknownWorldError(f"world control {name!r} takes true or false, got {value!r}")
        else:
            try:
                value = float(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                raise UnknownWorldError(f"world control {name!r} takes a number, got {value!r}") from None
        setattr(self, name, value)

    @staticmethod
    def names() -> tuple[str, ...]:
        return ("gpu_available", "icing", "oat_isa_dev_c", "ac_ess_auto_transfer", "min_safe_altitude_ft")
