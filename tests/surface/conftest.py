"""Fixtures of the MCP surface tests (helpers live in surface_bed.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["auto", "legacy"])
def mode(request: pytest.FixtureRequest) -> str:
    """Both in-memory paths: auto (server/discover, protocol 2026-07-28) and legacy (initialize, 2025-11-25)."""
    return request.param
