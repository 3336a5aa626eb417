"""The Python `mcp` SDK (pinned by scripts/install-python-mcp.sh) against /mcp, for
test/mcp-python.e2e-spec.ts. Reads a JSON list of scenarios on stdin, each
{"name", "url", "headers", "steps": [{"op": "list"} | {"op": "call", "tool", "arguments"}]},
runs each with its own client session and prints one JSON object: scenario name -> what the SDK
returned or raised (initialize included), so the test asserts what a Python engine sees."""

import asyncio
import json
import sys

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError


def error_of(exc: BaseException) -> dict:
    if isinstance(exc, MCPError):
        return {"error": {"code": exc.code, "message": exc.error.message, "data": exc.error.data}}
    if isinstance(exc, BaseExceptionGroup):
        return error_of(exc.exceptions[0])
    return {"error": {"type": type(exc).__name__, "message": str(exc)}}


async def run(scenario: dict) -> dict:
    steps = []
    outcome: dict = {"initialize": None, "steps": steps}
    try:
        async with httpx2.AsyncClient(headers=scenario.get("headers", {}), timeout=20) as http:
            async with streamable_http_client(scenario["url"], http_client=http, terminate_on_close=False) as (read, write, *_):
                async with ClientSession(read, write) as session:
                    try:
                        init = await session.initialize()
                        outcome["initialize"] = {"server": init.server_info.name}
                    except Exception as exc:  # what the SDK raises is the result under test
                        outcome["initialize"] = error_of(exc)
                        return outcome
                    for step in scenario["steps"]:
                        try:
                            if step["op"] == "list":
                                tools = (await session.list_tools()).tools
                                steps.append(
                                    {
                                        "tools": [t.name for t in tools],
                                        "destructive": [t.name for t in tools if t.annotations and t.annotations.destructive_hint],
                                    }
                                )
                            else:
                                result = await session.call_tool(step["tool"], step.get("arguments", {}))
                                text = "\n".join(c.text for c in result.content if getattr(c, "text", None))
                                steps.append({"isError": bool(result.is_error), "text": text, "structured": result.structured_content})
                        except Exception as exc:
                            steps.append(error_of(exc))
    except Exception as exc:
        if outcome["initialize"] is None:
            outcome["initialize"] = error_of(exc)
        else:
            outcome["closed"] = error_of(exc)
    return outcome


async def main() -> None:
    scenarios = json.load(sys.stdin)
    results = {}
    for scenario in scenarios:
        results[scenario["name"]] = await asyncio.wait_for(run(scenario), 60)
    print(json.dumps(results))


asyncio.run(main())
