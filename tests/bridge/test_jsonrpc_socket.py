"""The JSON-RPC lines between an in-process agent and its episode's server (bridge/jsonrpc_socket.py) parse
to the same messages as the SDK's own JSON parsing, and a line either path refuses fails as the SDK's does."""

from __future__ import annotations

import mcp_types
import pytest

from a320bench.bridge.jsonrpc_socket import _parse

ADAPTER = mcp_types.jsonrpc_message_adapter

LINES = [
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_ecam","arguments":{}}}',
    b'{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"ELEC GEN 1 FAULT \\u00e9"}],'
    b'"structuredContent":{"alerts":[{"title":"ELEC GEN 1 FAULT","level":2}],"x":1.5},"isError":false}}',
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
    b'{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool"}}',
    # integers beyond 64 bits (orjson would read them as floats), at the top and deep in a result
    b'{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{}}',
    b'{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"n":-123456789012345678901234567890}}}',
    b'{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"n":18446744073709551615,"f":0.1}}}',
    b'{"jsonrpc":"2.0","id":2,"result":{"structuredContent":{"n":-123456789012345678,"f":1e300}}}',
]


@pytest.mark.parametrize("line", LINES)
def test_a_line_parses_to_the_message_the_sdk_parses(line):
    msg = _parse(line)
    expected = ADAPTER.validate_json(line, by_name=False)
    assert (type(msg.message), msg.message.model_dump()) == (type(expected), expected.model_dump())
    assert repr(msg.message) == repr(expected)  # ints stay ints


@pytest.mark.parametrize("line", [b'{"jsonrpc":"2.0","id":1', b'{"jsonrpc":"2.0","id":1,"nothing":true}', b"NaN"])
def test_a_malformed_line_is_the_sdks_own_exception(line):
    got = _parse(line)
    with pytest.raises(Exception) as expected:
        ADAPTER.validate_json(line, by_name=False)
    assert (type(got), str(got)) == (expected.type, str(expected.value))
