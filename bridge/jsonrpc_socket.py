"""JSON-RPC messages over a connected socket, one per line: the streams the MCP SDK's session and
server read and write when the agent and the episode's server run on different threads.

Only bytes cross: a message is serialised on one side and parsed into fresh objects on the
other, so neither side ever holds an object of the other (the SDK's `SessionMessage` can carry
callbacks in its metadata; none of it travels). The streams do not close the socket: its owner
does (bridge/agent_thread.py), when its side is done.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

import anyio
import mcp_types
import orjson
from anyio.abc import SocketStream
from mcp.shared.message import SessionMessage

_CHUNK_BYTES = 1 << 16
# Digits all read as 0, so that 19 zeros in a row is a number of 19 digits or more (12x a regex).
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


class LineReader:
    """Reads one message a line; a line that is not a JSON-RPC message arrives as its exception (as
    over stdio); end of stream at EOF."""

    __slots__ = ("_stream", "_buffer")

    def __init__(self, stream: SocketStream):
        self._stream = stream
        self._buffer = bytearray()

    async def receive(self) -> SessionMessage | Exception:
        while (end := self._buffer.find(b"\n")) < 0:
            try:
                self._buffer += await self._stream.receive(_CHUNK_BYTES)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                raise anyio.EndOfStream from None
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        return _parse(line)

    def __aiter__(self) -> LineReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        pass

    async def __aenter__(self) -> LineReader:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        pass


def _parse(line: bytes) -> SessionMessage | Exception:
    # orjson, then the models from Python values: 7x pydantic's own JSON parsing on a tool listing
    # (25 vs 170 us), 2x on a tool result, the same message. Not for a line with a number of 19 digits
    # or more (orjson reads an integer beyond 64 bits as a float), nor one either refuses: those go the
    # SDK's way, so values and what a malformed line raises stay the SDK's own.
    if b"0000000000000000000" not in line.translate(_DIGITS_AS_ZERO):
        try:
            return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_python(orjson.loads(line),
                                                                                   by_name=False))
        except Exception:
            pass
    try:
        return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except Exception as e:  # a malformed line costs that message, not the connection
        return e


class LineWriter:
    """Writes each message as one line of JSON (the wire format, as stdio writes it)."""

    __slots__ = ("_stream",)

    def __init__(self, stream: SocketStream):
        self._stream = stream

    async def send(self, item: SessionMessage) -> None:
        line = item.message.model_dump_json(by_alias=True, exclude_unset=True)
        try:
            await self._stream.send(line.encode() + b"\n")
        except (anyio.ClosedResourceError, anyio.BrokenResourceError) as e:
            raise anyio.BrokenResourceError(f"the other side of the session is gone: {e}") from None

    async def aclose(self) -> None:
        pass

    async def __aenter__(self) -> LineWriter:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        pass
