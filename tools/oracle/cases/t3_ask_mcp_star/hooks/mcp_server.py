#!/usr/bin/env python3
"""A one-tool MCP server on stdio (newline-delimited JSON-RPC): `echo`
touches mcp_ran.marker in the current folder and answers its text."""
import json
import sys

def reply(rid, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}) + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    method, rid = msg.get("method"), msg.get("id")
    if rid is None:
        continue
    if method == "initialize":
        reply(rid, {"protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-06-18"),
                    "capabilities": {"tools": {}}, "serverInfo": {"name": "oracle", "version": "1"}})
    elif method == "tools/list":
        reply(rid, {"tools": [{"name": "echo", "description": "Echo a text",
                               "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                                               "required": ["text"]}}]})
    elif method == "tools/call":
        open("mcp_ran.marker", "w").close()
        text = msg.get("params", {}).get("arguments", {}).get("text", "")
        reply(rid, {"content": [{"type": "text", "text": "echo: " + text}]})
    else:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}}) + "\n")
        sys.stdout.flush()
