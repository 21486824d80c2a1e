"""Serve one episode over Streamable HTTP on loopback, behind a bearer token.

    async with serve_http(episode, profile) as endpoint:
        endpoint.url       http://127.0.0.1:<random port>/mcp
        endpoint.headers   {"Authorization": "Bearer <random token>"}

One server per episode: a fresh port (the kernel picks a free one) and a fresh
token from `secrets` (`port`, `path` and `token` can be given instead: a person
serving by hand may want them fixed; `serve --http` without a token passes
`auth=False`, on loopback only). A request without the token, or with another, is refused
with 401 by the SDK's bearer middleware before it reaches MCP; the SDK's DNS
rebinding guard refuses a Host that is not loopback. The episode, its recorder
and its verdict stay in the caller's process: nothing about the scenario goes
over the wire that the profile's tools do not answer.

uvicorn runs inside the caller's event loop without touching signal handlers
(the caller owns SIGINT and SIGTERM) or logging configuration (uvicorn's own
would replace the caller's). Leaving the context stops the server; open
streams get `SHUTDOWN_GRACE_S` to close, then are cancelled.
"""

from __future__ import annotations

import contextlib
import hmac
import secrets
import socket
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import anyio
import uvicorn
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings

from ..episode import Episode
from .factory import create_server
from .profiles import Profile

LOOPBACK = "127.0.0.1"
SHUTDOWN_GRACE_S = 1.0


@dataclass(frozen=True)
class HttpEndpoint:
    """Where a client reaches the episode, and the token it must send."""

    url: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


class _OneToken:
    """The SDK's TokenVerifier for a single shared secret (compared in constant time)."""

    def __init__(self, token: str):
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode(), self._token):
            return AccessToken(token=token, client_id="agent", scopes=[])
        return None


class _Uvicorn(uvicorn.Server):
    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # uvicorn would install its own SIGINT/SIGTERM handlers for as long as it serves and
        # re-raise the signal afterwards; with one server per episode, in parallel, they would
        # undo each other. The caller decides what a signal means.
        yield


@contextlib.asynccontextmanager
async def serve_http(episode: Episode, profile: Profile | str, *, host: str = LOOPBACK, port: int = 0,
                     path: str = "/mcp", token: str | None = None, auth: bool = True, learnings: Any = None,
                     on_client_identified: Any = None) -> AsyncIterator[HttpEndpoint]:
    """Serve `episode` with `profile`'s tools at http://host:port/path until the block ends (`learnings`:
    the learning track's store of this episode, factory.create_server; `on_client_identified`: see
    dispatch.EpisodeServer, what `serve` records of the client)."""
    token = (token or secrets.token_urlsafe(32)) if auth else ""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(16)
        sock.setblocking(False)
        bound_port = sock.getsockname()[1]
        base = f"http://{host}:{bound_port}"
        server = create_server(episode, profile, learnings=learnings,
                               **(_bearer_auth(token, base) if auth else {}))
        server.on_client_identified = on_client_identified
        app = _noting_connection(server.streamable_http_app(streamable_http_path=path, host=host), episode)
        config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="on",
                                timeout_graceful_shutdown=SHUTDOWN_GRACE_S, log_level="warning")
        web = _Uvicorn(config)
        stopped = anyio.Event()
        # Shielded: cancelled from outside (Ctrl-C), uvicorn would stop mid-loop and leave its
        # lifespan task to be killed at exit, with a traceback; it is asked to stop instead.
        shield = anyio.CancelScope(shield=True)

        async def run() -> None:
            try:
                with shield:
                    await web.serve([sock])
            finally:
                stopped.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            try:
                # Inside the try: cancelled while it starts, the shielded server must be asked to stop
                # too, or the task group waits for it forever.
                while not web.started:
                    if stopped.is_set():  # startup failed (uvicorn logged why)
                        raise OSError(f"the HTTP server on {base} did not start")
                    await anyio.sleep(0.005)
                yield HttpEndpoint(f"{base}{path}", token)
            finally:
                web.should_exit = True
                with anyio.CancelScope(shield=True), anyio.move_on_after(SHUTDOWN_GRACE_S + 1.0):
                    await stopped.wait()
                shield.cancel()  # still not down: stop it the hard way
                tg.cancel_scope.cancel()
    finally:
        sock.close()


def _noting_connection(app: Any, episode: Episode) -> Any:
    """The app, marking the episode once the server has answered a client's MCP request (200: past the
    bearer token, an initialize or, in the 2026 protocol that has none, any request): a client that
    got that far reached the aircraft, and how it ends is its own doing (bridge/clients/faults.py)."""

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        async def noting(message: Any) -> None:
            if message.get("type") == "http.response.start" and message.get("status") == 200:
                episode.agent_connected = True
            await send(message)

        await app(scope, receive, noting if scope.get("type") == "http" else send)

    return asgi


def _bearer_auth(token: str, base_url: str) -> dict[str, Any]:
    """create_server options: the SDK refuses (401) any request without this bearer token."""
    return {
        "token_verifier": _OneToken(token),
        # A resource server only: no OAuth routes; the issuer is required by the model, unused here.
        "auth": AuthSettings(issuer_url=base_url, resource_server_url=None, required_scopes=[]),
    }
