"""Read interfaces several systems share (FlyByWire's `shared` traits): what a system may see of the
flight and of the fire protection. A system's own, narrower needs are declared in its module."""

from __future__ import annotations

from typing import Protocol


class FlightConditions(Protocol):
    """Where the aircraft is and how fast (the flight model's state as of its last update)."""

    @property
    def on_ground(self) -> bool: ...
    @property
    def altitude_ft(self) -> float: ...
    @property
    def ias_kt(self) -> float: ...
    @property
    def mach(self) -> float: ...


class OnGround(Protocol):
    @property
    def on_ground(self) -> bool: ...


class FirePushbuttons(Protocol):
    """The ENG FIRE pushbuttons: releasing one isolates that engine's systems."""

    def eng_fire_pb_released(self, n: int) -> bool: ...


class FuelFeed(Protocol):
    def engine_fed(self, n: int) -> bool: ...


class ApuRunning(Protocol):
    @property
    def running(self) -> bool: ...
