"""An in-process agent runs on its own thread, with its own event loop, apart from everything privileged.

    run's thread and event loop                       the agent's thread and event loop (one per episode)
    run_episode: Scenario, Episode, Recorder          AgentView -> AgentTools -> ClientSession
    the episode's MCP server           <-- a socket pair: JSON-RPC lines -->     agent.run(view)

What the agent can reach by following references from its view -- its session's tasks and
frames, their callers down to the bottom of its thread, its event loop and everything scheduled
on it, the thread object -- belongs to its side: no task, frame or loop of the harness's is among
them, so none leads to the scenario, the episode or the verdict. Only bytes cross the socket
(bridge/jsonrpc_socket.py). The objects both sides hold are the agent's: the journal (the agent
writes, the harness takes) and an `AgentRun` (the agent's thread writes how run() ended; the
harness reads it once the thread is done, and may ask it to stop).

The agent's thread closes its end of the socket as its very last act: the server reads EOF, its
session ends, and joining the thread is then immediate. A cancelled episode (Ctrl-C, SIGTERM)
cancels the agent's task on its loop and waits for that EOF a bounded time; an agent that ignores
the cancel is left behind on its daemon thread.
"""

from __future__ import annotations

import asyncio
import contextvars
import socket
import threading
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import anyio
from anyio.abc import SocketStream

from .jsonrpc_socket import LineReader, LineWriter

STOP_GRACE_S = 5.0  # how long a cancelled episode waits for its agent to stop


class AgentRun:
    """How the agent's run() ended, written by its thread: what it returned, what it raised (`error`),
    or what failed around it (`fault`: the connection, the thread itself)."""

    __slots__ = ("returned", "error", "fault", "_lock", "_stopping", "_loop", "_task")

    def __init__(self) -> None:
        self.returned: Any = None
        self.error: BaseException | None = None
        self.fault: BaseException | None = None
        self._lock = threading.Lock()
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None

    def started(self) -> bool:
        """Called on the agent's loop before anything runs: False if the harness already asked it to stop."""
        with self._lock:
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
            return not self._stopping

    def stop(self) -> None:
        """Called by the harness: cancel the agent's task on its own loop (thread-safe)."""
        with self._lock:
            self._stopping = True
            loop, task = self._loop, self._task
        if loop is not None and task is not None:
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # its loop has closed: the agent is done already
                pass


async def serve_agent_apart(server: Any, agent: Any, journal: Any, view_fields: dict[str, Any]) -> AgentRun:
    """Run `agent` on its own thread against `server` (an MCPServer) served here; return how it ended.

    `view_fields`: the view's plain values (task prompt, instructions, run index, episode id, seed)."""
    harness_end, agent_end = socket.socketpair()
    run = AgentRun()
    thread = threading.Thread(target=_agent_thread, args=(agent, agent_end, journal, run, view_fields),
                              name="a320bench-agent", daemon=True)
    stream: SocketStream | None = None
    try:
        stream = await SocketStream.from_socket(harness_end)
        thread.start()
        lowlevel = server._lowlevel_server
        # Returns at EOF: the agent's thread has closed its end, its last act.
        await lowlevel.run(LineReader(stream), LineWriter(stream), lowlevel.create_initialization_options())
    except BaseException:  # cancelled (the run was interrupted), or the server failed: stop the agent too
        run.stop()
        if stream is not None and thread.is_alive():
            with anyio.CancelScope(shield=True), anyio.move_on_after(STOP_GRACE_S) as waited:
                await _until_eof(stream)
            if not waited.cancelled_caught:  # EOF: the thread is at its very end
                thread.join()
        raise
    finally:
        if not thread.is_alive() and thread.ident is None:  # never started: its end is still ours
            agent_end.close()
        with anyio.CancelScope(shield=True):
            if stream is not None:
                await stream.aclose()
            else:
                harness_end.close()
    thread.join()
    return run


async def _until_eof(stream: SocketStream) -> None:
    try:
        while await stream.receive():
            pass
    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        pass


def _agent_thread(agent: Any, sock: socket.socket, journal: Any, run: AgentRun, view_fields: dict[str, Any]) -> None:
    try:
        # A fresh context: nothing of the harness's context variables comes along.
        contextvars.Context().run(anyio.run, _agent_main, agent, sock, journal, run, view_fields)
    except BaseException as e:  # the loop itself failed, or the agent's task was cancelled
        if run.error is None and run.fault is None:
            run.fault = e
    finally:
        sock.close()  # the harness reads EOF: this thread is done


async def _agent_main(agent: Any, sock: socket.socket, journal: Any, run: AgentRun,
                      view_fields: dict[str, Any]) -> None:
    if run.started():
        await _fly(_over_socket(sock), agent, journal, run, view_fields)


async def run_agent_here(server: Any, agent: Any, journal: Any, view_fields: dict[str, Any]) -> AgentRun:
    """Run `agent` on the harness's own loop, in-memory: only for a built-in that must share this loop and
    context (providers/base.OnHarnessLoop). Nothing of the isolation above holds for it."""
    run = AgentRun()
    await _fly(server, agent, journal, run, view_fields)
    return run


async def _fly(target: Any, agent: Any, journal: Any, run: AgentRun, view_fields: dict[str, Any]) -> None:
    """Connect a session to `target` (a transport, or a server in-memory) and run the agent over it."""
    from mcp import Client

    from .agent_tools import AgentTools
    from .providers.base import AgentView

    try:
        async with Client(target, mode="legacy", cache=None) as client:
            try:
                run.returned = await agent.run(AgentView(tools=AgentTools(client.session, journal), journal=journal,
                                                         **view_fields))
            except BaseException as e:
                run.error = e
                if isinstance(e, anyio.get_cancelled_exc_class()):
                    raise
    except Exception as e:  # the connection itself failed
        if run.error is None:
            run.fault = e


@asynccontextmanager
async def _over_socket(sock: socket.socket) -> AsyncIterator[tuple[LineReader, LineWriter]]:
    # The stream owns a duplicate of the socket, so closing it does not end the connection: the
    # thread's own close, at its very end, does.
    stream = await SocketStream.from_socket(sock.dup())
    try:
        yield LineReader(stream), LineWriter(stream)
    finally:
        with anyio.CancelScope(shield=True):
            await stream.aclose()
