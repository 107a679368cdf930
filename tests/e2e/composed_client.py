"""End-to-end check of composition with the official Python MCP SDK (mcp 2.x).

Usage: composed_client.py SERVER_BINARY   (the composed example: the shop)

The shop is an rmcp handler of its own: an rmcp `#[tool]`, a prompt, a resource, and the
invoices' `#[mcp_tool]` tools joined to its router. At each protocol version, over stdio, the
client sees and calls both kinds of tool, reads the prompt and the resource, and the
`#[mcp_tool]`s keep their call context through the router (progress, elicitation).

Prints one line per check and `N passed, 0 failed` at the end; exits non-zero on any failure.
"""

from mcp import types

from checks import check
from stdio_session import connect, run_at_every_version

INVOICES = {
    "audit_invoices", "count_invoices", "create_invoice", "format_invoice", "get_invoice",
    "invoice_badge", "invoice_documents", "invoice_status", "list_invoices", "mark_paid",
    "send_reminder",
}


async def run(server, version):
    async def accept(context, params):
        return types.ElicitResult(action="accept", content={"send": True})

    async with connect(server, version, elicitation_callback=accept) as client:
        check(client.protocol_version == version, f"[{version}] negotiated {client.protocol_version}")
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        check(set(tools) == INVOICES | {"opening_hours"}, f"[{version}] both kinds of tool are listed: {sorted(tools)}")
        check(
            tools["get_invoice"].output_schema is not None and tools["get_invoice"].output_schema.get("type") == "object",
            f"[{version}] an #[mcp_tool] keeps its outputSchema through the router",
        )

        if version == "2026-07-28":
            async with client.listen(tools_list_changed=True) as changes:
                check(changes.honored.tools_list_changed is True, f"[{version}] the handler delegates subscriptions/listen")

        hours = await client.call_tool("opening_hours", {"day": "monday"})
        text = " ".join(getattr(b, "text", "") for b in hours.content)
        check(not hours.is_error and "9:00 to 17:00 on monday" in text, f"[{version}] the rmcp tool answers: {text!r}")

        invoice = await client.call_tool("get_invoice", {"number": "INV-1"})
        check(
            (invoice.structured_content or {}).get("customer") == "Acme Corp",
            f"[{version}] an #[mcp_tool] answers with structuredContent",
        )
        bad = await client.call_tool("get_invoice", {"number": 7})
        check(bad.is_error, f"[{version}] a bad argument is still an isError result")

        steps = []

        async def on_progress(progress, total, message):
            steps.append(progress)

        await client.call_tool("audit_invoices", {"delay_ms": 10}, progress_callback=on_progress)
        check(steps == [1.0, 2.0], f"[{version}] progress through the router: {steps}")

        reminder = await client.call_tool("send_reminder", {"number": "INV-1"})
        check(
            (reminder.structured_content or {}).get("sent") is True,
            f"[{version}] elicitation through the router: {reminder.structured_content}",
        )

        # The toolbox's prompts and resources come first, then the handler's.
        prompts = await client.list_prompts()
        names = [p.name for p in prompts.prompts]
        check(names == ["chase_payment", "audit_checklist"], f"[{version}] both sides' prompts are listed: {names}")
        prompt = await client.get_prompt("audit_checklist")
        check("Audit the invoices" in prompt.messages[0].content.text, f"[{version}] the handler's prompt is served")
        chase = await client.get_prompt("chase_payment", {"number": "INV-1"})
        check(chase.messages[0].content.type == "resource", f"[{version}] the toolbox's prompt is served")
        resources = await client.list_resources()
        uris = [str(r.uri) for r in resources.resources]
        check(
            uris == ["terms://payment", "ui://invoices/view", "shop://terms"],
            f"[{version}] both sides' resources are listed: {uris}",
        )
        terms = await client.read_resource("shop://terms")
        check("30 days" in terms.contents[0].text, f"[{version}] the handler's resource is read")
        invoice = await client.read_resource("invoices://INV-2")
        check("Espresso" in invoice.contents[0].text, f"[{version}] the toolbox's template is read")


if __name__ == "__main__":
    run_at_every_version(run)
