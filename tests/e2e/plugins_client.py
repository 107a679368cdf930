"""End-to-end check of tools that change while serving, with the official Python MCP SDK (mcp 2.x).

Usage: plugins_client.py SERVER_BINARY   (the plugins example)

At each protocol version, over stdio: installing a plugin adds its tool and removing it takes it
away, and the client hears of each change: at 2026-07-28 as an event on its
`subscriptions/listen` stream (which also evicts the SDK's cached `tools/list`, cached for the
server's `ttlMs`), at 2025-x as `notifications/tools/list_changed` on its session.

Prints one line per check and `N passed, 0 failed` at the end; exits non-zero on any failure.
"""

import anyio
from mcp.client.subscriptions import ToolsListChanged

from checks import check
from stdio_session import connect, run_at_every_version

BASE = ["install_plugin", "remove_plugin"]


def method_of(message):
    return getattr(getattr(message, "root", message), "method", None)


async def announced(notices, count):
    # Notifications reach the message handler in a task of their own: wait for it.
    with anyio.move_on_after(10):
        while len(notices) < count:
            await anyio.sleep(0.01)
    return len(notices) == count


async def names(client):
    return sorted(tool.name for tool in (await client.list_tools()).tools)


async def run(server, version):
    notices = []

    async def on_message(message):
        if method_of(message) == "notifications/tools/list_changed":
            notices.append(message)

    async with connect(server, version, message_handler=on_message) as client:
        check(await names(client) == BASE, f"[{version}] only the plugin tools at first")

        if version == "2026-07-28":
            async with client.listen(tools_list_changed=True) as changes:
                check(changes.honored.tools_list_changed is True, f"[{version}] the subscription is acknowledged")
                installed = await client.call_tool("install_plugin", {"plugin": "weather"})
                check(not installed.is_error, f"[{version}] install_plugin answers")
                with anyio.fail_after(10):
                    event = await changes.__anext__()
                check(isinstance(event, ToolsListChanged), f"[{version}] the install is announced on the stream: {event!r}")
                listed = await names(client)
                check(listed == sorted(BASE + ["forecast"]), f"[{version}] the new tool is listed (the cached list was dropped): {listed}")
                forecast = await client.call_tool("forecast", {"city": "Oslo"})
                text = forecast.content[0].text
                check("sunny in Oslo tomorrow" in text, f"[{version}] the new tool is called: {text!r}")
                await client.call_tool("remove_plugin", {"plugin": "weather"})
                with anyio.fail_after(10):
                    event = await changes.__anext__()
                check(isinstance(event, ToolsListChanged), f"[{version}] the removal is announced on the stream")
                check(await names(client) == BASE, f"[{version}] the removed tool is gone from the list")
        else:
            installed = await client.call_tool("install_plugin", {"plugin": "dice"})
            check(not installed.is_error, f"[{version}] install_plugin answers")
            check(await announced(notices, 1), f"[{version}] the install is announced on the session: {len(notices)} notice(s)")
            listed = await names(client)
            check(listed == sorted(BASE + ["roll_dice"]), f"[{version}] the new tool is listed: {listed}")
            dice = await client.call_tool("roll_dice", {"count": 3})
            check(dice.structured_content == {"result": 9}, f"[{version}] the new tool is called: {dice.structured_content}")
            await client.call_tool("remove_plugin", {"plugin": "dice"})
            check(await announced(notices, 2), f"[{version}] the removal is announced on the session")
            check(await names(client) == BASE, f"[{version}] the removed tool is gone from the list")

        again = await client.call_tool("remove_plugin", {"plugin": "dice"})
        text = again.content[0].text
        check(again.is_error and "is not installed" in text, f"[{version}] removing what is not installed is an isError result: {text!r}")


if __name__ == "__main__":
    run_at_every_version(run)
