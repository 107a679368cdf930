"""End-to-end check of the call context with the official Python MCP SDK (mcp 2.x).

Usage: context_client.py SERVER_BINARY   (the invoices example)

At each protocol version (2026-07-28, 2025-11-25, 2025-06-18), over stdio:
- progress: `audit_invoices` reports one step per invoice to the call's progress callback;
- logging: log lines arrive at the level the client set (`logging/setLevel` before 2026-07-28,
  the request's `logLevel` from 2026-07-28), and none below it;
- cancellation: a cancelled audit stops (no later log line or progress), and the next call is served;
- elicitation and sampling: `send_reminder` asks the user through the elicitation callback and
  the model through the sampling callback, and its result carries both answers (at 2026-07-28
  through input-required results, which the SDK answers with the same callbacks);
- a client without the elicitation capability gets an `isError` naming it (before 2026-07-28) or
  the spec's -32021 naming it (2026-07-28).

Prints one line per check and `N passed, 0 failed` at the end; exits non-zero on any failure.
"""

import sys

import anyio
from mcp import types
from mcp.shared.exceptions import MCPError

from checks import attempt, check, finish
from stdio_session import VERSIONS, connect


async def set_level(client, version, level):
    """Before 2026-07-28 the session's level is set once; from 2026-07-28 each request carries it."""
    if version != "2026-07-28":
        await client.set_logging_level(level)


def level_meta(version, level):
    return {"io.modelcontextprotocol/logLevel": level} if version == "2026-07-28" else None


async def progress_and_logging(server, version):
    lines = []

    async def on_log(params):
        lines.append((params.level, params.data))

    async with connect(server, version, logging_callback=on_log) as client:
        check(client.protocol_version == version, f"[{version}] negotiated {client.protocol_version}")
        steps = []

        async def on_progress(progress, total, message):
            steps.append((progress, total, message))

        await set_level(client, version, "warning")
        result = await client.call_tool(
            "audit_invoices", {"delay_ms": 20}, progress_callback=on_progress, meta=level_meta(version, "warning")
        )
        check(not result.is_error, f"[{version}] audit_invoices succeeds")
        check(result.structured_content == {"checked": 2, "open": ["INV-1"]}, f"[{version}] audit result {result.structured_content}")
        check(
            steps == [(1.0, 2.0, "checked INV-1"), (2.0, 2.0, "checked INV-2")],
            f"[{version}] progress callback got one step per invoice: {steps}",
        )
        await anyio.sleep(0.1)
        check(lines == [("warning", "INV-1 is still open")], f"[{version}] at level warning only the warning arrives: {lines}")

        lines.clear()
        await set_level(client, version, "debug")
        await client.call_tool("audit_invoices", {"delay_ms": 20}, meta=level_meta(version, "debug"))
        await anyio.sleep(0.1)
        levels = [level for level, _ in lines]
        check(
            levels == ["debug", "warning", "debug", "info"],
            f"[{version}] at level debug every line arrives, in order: {lines}",
        )


async def cancellation(server, version):
    lines = []

    async def on_log(params):
        lines.append(params.data)

    async with connect(server, version, logging_callback=on_log) as client:
        await set_level(client, version, "debug")
        first_step = anyio.Event()
        steps = []

        async def on_progress(progress, total, message):
            steps.append(progress)
            first_step.set()

        async def audit():
            await client.call_tool(
                "audit_invoices", {"delay_ms": 700}, progress_callback=on_progress, meta=level_meta(version, "debug")
            )

        async with anyio.create_task_group() as group:
            group.start_soon(audit)
            with anyio.fail_after(10):
                await first_step.wait()
            group.cancel_scope.cancel()
        # Had the audit gone on, it would have checked INV-2 0.7 s after INV-1.
        await anyio.sleep(1.5)
        check(steps == [1.0], f"[{version}] no progress after the cancel: {steps}")
        check("checked INV-2" not in lines, f"[{version}] the cancelled audit stopped: {lines}")
        result = await client.call_tool("list_invoices", {})
        check(not result.is_error, f"[{version}] the next call is served")


async def elicitation_and_sampling(server, version):
    asked = []

    async def accept(context, params):
        asked.append(("elicitation", params.message, params.requested_schema))
        return types.ElicitResult(action="accept", content={"send": True, "note": "Thank you!"})

    async def decline(context, params):
        return types.ElicitResult(action="decline")

    async def model(context, params):
        asked.append(("sampling", params.messages[0].content.text, params.max_tokens))
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Please pay INV-1."),
            model="e2e-model",
            stop_reason="endTurn",
        )

    async with connect(server, version, elicitation_callback=accept, sampling_callback=model) as client:
        result = await client.call_tool("send_reminder", {"number": "INV-1"})
        check(not result.is_error, f"[{version}] send_reminder succeeds")
        check(
            result.structured_content == {"number": "INV-1", "sent": True, "text": "Please pay INV-1. Thank you!"},
            f"[{version}] the result carries the user's and the model's answers: {result.structured_content}",
        )
        kinds = [a[0] for a in asked]
        check(kinds == ["elicitation", "sampling"], f"[{version}] the user, then the model, were asked: {kinds}")
        if len(asked) == 2:
            _, message, schema = asked[0]
            check("Acme Corp" in message, f"[{version}] the elicitation names the customer: {message!r}")
            check(
                set(schema.get("properties", {})) == {"send", "note"} and schema.get("required") == ["send"],
                f"[{version}] the requestedSchema comes from the Rust type: {schema}",
            )
            _, prompt, max_tokens = asked[1]
            check("INV-1" in prompt and max_tokens == 200, f"[{version}] the sampling request: {prompt!r}, {max_tokens}")

    async with connect(server, version, elicitation_callback=decline) as client:
        result = await client.call_tool("send_reminder", {"number": "INV-1"})
        check(
            result.structured_content == {"number": "INV-1", "sent": False, "text": ""},
            f"[{version}] a declined reminder is not sent: {result.structured_content}",
        )

    async with connect(server, version, elicitation_callback=accept) as client:
        result = await client.call_tool("send_reminder", {"number": "INV-1"})
        text = (result.structured_content or {}).get("text", "")
        check(
            text == "Dear Acme Corp, invoice INV-1 is still open. Thank you!",
            f"[{version}] without sampling the tool falls back to its own text: {text!r}",
        )

    async with connect(server, version) as client:
        if version == "2026-07-28":
            # The spec's MissingRequiredClientCapabilityError, naming the capability.
            try:
                await client.call_tool("send_reminder", {"number": "INV-1"})
                check(False, f"[{version}] without the elicitation capability: -32021")
            except MCPError as error:
                check(
                    error.code == -32021 and error.data == {"requiredCapabilities": {"elicitation": {}}},
                    f"[{version}] without the elicitation capability: -32021 naming it ({error.code} {error.data})",
                )
        else:
            result = await client.call_tool("send_reminder", {"number": "INV-1"})
            text = " ".join(getattr(b, "text", "") for b in result.content)
            check(
                result.is_error and "did not declare the `elicitation` capability" in text,
                f"[{version}] without the elicitation capability: isError naming it ({text})",
            )


async def main():
    server = sys.argv[1]
    for version in VERSIONS:
        for part in (progress_and_logging, cancellation, elicitation_and_sampling):
            await attempt(f"[{version}] {part.__name__}", part(server, version))
    finish()


if __name__ == "__main__":
    anyio.run(main)
