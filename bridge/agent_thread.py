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
from contextlib import asynccontextmanager, contextmanager
from typing import Any, AsyncIterator, Iterator

import anyio
from anyio.abc import SocketStream

from .cpu_affinity import ThreadPin
from .jsonrpc_socket import LineReader, LineWriter

STOP_GRACE_S = 5.0  # how long a cancelled episode waits for its agent to stop


class AgentRun:
    """How the agent's run() ended, written by its thread: what it returned, what it raised (`error`),
    or what failed around it (`fault`: the connection, the thread itself)."""

    __slots__ = ("returned", "error", "fault", "leftovers", "_lock", "_stopping", "_loop", "_task")

    def __init__(self) -> None:
        self.returned: Any = None
        self.leftovers = 0  # tasks and timers the agent left that outlived the cancel at its episode's end
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
    pool = _POOL.get()
    worker: _Worker | None = None
    stream: SocketStream | None = None
    eof = False
    try:
        stream = await SocketStream.from_socket(harness_end)
        if pool is not None:
            pool.pin.rebalance(w.thread.native_id for w in pool.made if w.thread.is_alive())
            pool.pin.hold()  # before its first agent thread is made: they share this thread's CPU
        worker = _take_worker(pool)
        worker.start(agent, agent_end, journal, run, view_fields)
        lowlevel = server._lowlevel_server
        # Returns at EOF: the agent's side has closed its end, the last act of its episode.
        await lowlevel.run(LineReader(stream), LineWriter(stream), lowlevel.create_initialization_options())
        eof = True
    except BaseException:  # cancelled (the run was interrupted), or the server failed: stop the agent too
        run.stop()
        if stream is not None and worker is not None and worker.started:
            with anyio.CancelScope(shield=True), anyio.move_on_after(STOP_GRACE_S) as waited:
                await _until_eof(stream)
            eof = not waited.cancelled_caught  # EOF: the episode's job is at its very end
        raise
    finally:
        if worker is None or not worker.started:  # the agent's side never ran: its end is still ours
            agent_end.close()
        with anyio.CancelScope(shield=True):
            if stream is not None:
                await stream.aclose()
            else:
                harness_end.close()
        if worker is not None:
            # Back to the run's pool only after a clean end: nothing of this episode left on its loop.
            if pool is not None and eof and run.leftovers == 0 and worker.started:
                pool.idle.append(worker)
            else:
                worker.retire(join=eof)  # an agent that ignores the cancel is left on its daemon thread
    return run


class _Worker:
    """The harness's handle on an agent thread and its event loop. The thread is handed the loop and,
    per episode, that episode's agent-side objects: never this handle, nor anything else of here."""

    __slots__ = ("thread", "loop", "started")

    def __init__(self) -> None:
        # Made in an empty context: the loop's own wake-up handle keeps a copy of the context it was made
        # in, and the harness's (the run's pool among its values) is not for the agent to find.
        self.loop = contextvars.Context().run(asyncio.new_event_loop)
        self.thread = threading.Thread(target=_agent_thread, args=(self.loop,), name="a320bench-agent", daemon=True)
        self.started = False
        self.thread.start()

    def start(self, *job: Any) -> None:
        # A fresh context for the job: nothing of the harness's context variables comes along.
        self.loop.call_soon_threadsafe(_start_job, *job, context=contextvars.Context())
        self.started = True

    def retire(self, join: bool) -> None:
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:  # its loop has closed already
            pass
        if join:
            self.thread.join()


def _take_worker(pool: _Pool | None) -> _Worker:
    while pool is not None and pool.idle:
        worker = pool.idle.pop()
        if worker.thread.is_alive() and not worker.loop.is_closed():
            worker.started = False
            return worker
    worker = _Worker()
    if pool is not None:
        pool.made = [w for w in pool.made if w.thread.is_alive()] + [worker]
    return worker


class _Pool:
    """A run's idle agent threads, and the CPU its harness thread holds while they fly (cpu_affinity.py)."""

    __slots__ = ("idle", "pin", "made")

    def __init__(self, cpu: int | None) -> None:
        self.idle: list[_Worker] = []
        self.pin = ThreadPin(cpu)
        self.made: list[_Worker] = []  # every agent thread it made and still running: they follow the pin


# The run's pool of idle agent threads (see reusing_agent_threads); None: a thread per episode.
_POOL: contextvars.ContextVar[_Pool | None] = contextvars.ContextVar("a320bench_agent_pool", default=None)


@contextmanager
def reusing_agent_threads(cpu: int | None = None) -> Iterator[None]:
    """Episodes run inside reuse agent threads and their event loops, one after another: a thread and a
    loop cost less than the episode's MCP handshake, but a run pays them per episode otherwise. Each
    episode still gets a new socket pair, a new MCP session and a fresh context, and its job cancels
    whatever its agent left running before it closes its end; a thread whose agent left anything behind
    is not reused. When the block ends, every idle agent thread stops.

    The thread that flies the first such episode is held on one CPU, `cpu` if given (a worker process's),
    with the agent threads it starts, until the block ends (cpu_affinity.py says why and who goes where)."""
    pool = _Pool(cpu)
    token = _POOL.set(pool)
    try:
        yield
    finally:
        _POOL.reset(token)
        for worker in pool.idle:
            worker.retire(join=True)
        pool.idle.clear()
        pool.pin.release()


async def _until_eof(stream: SocketStream) -> None:
    try:
        while await stream.receive():
            pass
    except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        pass


def _agent_thread(loop: asyncio.AbstractEventLoop) -> None:
    """An agent thread: its own event loop, running one episode's job after another until retired."""
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        try:  # as asyncio.run ends: whatever is left is cancelled and awaited
            left = asyncio.all_tasks(loop)
            for task in left:
                task.cancel()
            if left:
                loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            asyncio.set_event_loop(None)
            loop.close()


def _start_job(agent: Any, sock: socket.socket, journal: Any, run: AgentRun, view_fields: dict[str, Any]) -> None:
    asyncio.get_running_loop().create_task(_job(agent, sock, journal, run, view_fields),
                                           context=contextvars.Context())


async def _job(agent: Any, sock: socket.socket, journal: Any, run: AgentRun, view_fields: dict[str, Any]) -> None:
    """One episode on an agent thread: the agent's run over a session on `sock`, then nothing of it left."""
    try:
        if run.started():
            await _fly(_over_socket(sock), agent, journal, run, view_fields)
    except BaseException as e:  # the agent's task was cancelled, or the job itself failed
        if run.error is None and run.fault is None:
            run.fault = e
    finally:
        try:
            run.leftovers = await _cancel_leftovers()
        finally:
            sock.close()  # the harness reads EOF: this episode's job is done


async def _cancel_leftovers() -> int:
    """Cancel the tasks the agent left running and wait for them (a bounded time): how many did not end,
    timers it left scheduled included. Only this job runs on the loop, so every other task is its own."""
    me = asyncio.current_task()
    left = [t for t in asyncio.all_tasks() if t is not me]
    for task in left:
        task.cancel()
    pending: set[asyncio.Task[Any]] = set()
    if left:
        _, pending = await asyncio.wait(left, timeout=STOP_GRACE_S)
    timers = [h for h in getattr(asyncio.get_running_loop(), "_scheduled", ()) if not h.cancelled()]
    return len(pending) + len(timers)


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
