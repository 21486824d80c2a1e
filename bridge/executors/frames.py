"""Messages between the driver and a local worker process: pickled objects, length-prefixed, over pipes.

    driver -> worker   ("job", RunJob, n)   first, once: fly up to n chains at a time
                       ("chain", Chain)     fly it
                       ("hold",)            start no further episode (the disk is refusing)
                       ("stop",)            interrupted: end the episodes in flight `interrupted`
                       ("close",)           no more chains: leave when the ones in flight are done
    worker -> driver   ("ready",)            the job is loaded (its imports done): send chains
                       ("result", chain index, plan index, EpisodeResult)
                       ("storage", line)    a chain's learning store the disk refuses
                       ("chain_done", chain index)
                       ("bye", setups)      everything it was given has a result; `setups`: the
                                            scenario setups it ran rather than copied (handout.py)

Pickle is safe here: both ends are this program, and the pipes are the worker's stdin
and a private copy of its stdout, which nothing else writes to.
"""

from __future__ import annotations

import pickle
import struct
from typing import Any, BinaryIO

_HEADER = struct.Struct(">I")


def encode(message: tuple[Any, ...]) -> bytes:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def read_blocking(fh: BinaryIO) -> tuple[Any, ...] | None:
    """The next message, or None when the other end has gone."""
    head = fh.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(head)
    data = fh.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)


async def receive(stream: Any) -> tuple[Any, ...] | None:
    """The next message from an anyio BufferedByteReceiveStream, or None when the worker has gone."""
    import anyio

    try:
        head = await stream.receive_exactly(_HEADER.size)
        (size,) = _HEADER.unpack(head)
        return pickle.loads(await stream.receive_exactly(size))
    except (anyio.IncompleteRead, anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        return None
