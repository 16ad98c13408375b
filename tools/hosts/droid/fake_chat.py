#!/usr/bin/env python3
"""A scripted OpenAI-compatible Chat Completions endpoint on loopback, for
driving Factory Droid offline (a custom model, `generic-chat-completion-api`).
Standard library only.

    python3 fake_chat.py --script script.json --log requests.jsonl --port PORT

Droid posts `POST /v1/chat/completions` (`stream: true`) with its tools.
script.json is a list of turns (or {"turns": [...], "aux_text": "..."}):
    {"text": "..."}                                   an answer, finish "stop"
    {"calls": [{"name": "Execute", "arguments": {...}}]}   tool calls, finish "tool_calls"
    {"http_status": 500}                              an API error
A request with a non-empty `tools` list is a main-loop request: its turn is
the number of assistant messages it already holds (so a retry gets the same
answer). Other requests (titles, summaries) get `aux_text`. Every request
is appended to the log with its body and the reply; the Authorization
header is never logged.
"""

import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Script:
    def __init__(self, path, log):
        with open(path) as f:
            script = json.load(f)
        if isinstance(script, list):
            script = {"turns": script}
        self.turns = script.get("turns", [])
        self.aux_text = script.get("aux_text", "ok")
        self.log = log
        self.lock = threading.Lock()
        self.seq = 0
        self.seen_tools = {}

    def reply_for(self, body):
        tools = body.get("tools") or []
        if not tools:
            return "aux", None, {"text": self.aux_text}
        turn = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        if turn < len(self.turns):
            return "main", turn, self.turns[turn]
        return "main", turn, {"text": "(script exhausted)"}

    def record(self, entry):
        with self.lock:
            self.seq += 1
            entry["seq"] = self.seq
            body = entry.get("body")
            if isinstance(body, dict) and isinstance(body.get("tools"), list):
                key = json.dumps(body["tools"], sort_keys=True)
                names = [t.get("function", {}).get("name") for t in body["tools"]]
                if key in self.seen_tools:
                    body["tools"] = {"$same_as_seq": self.seen_tools[key], "names": names}
                else:
                    self.seen_tools[key] = self.seq
            with open(self.log, "a") as f:
                f.write(json.dumps(entry) + "\n")


def message_of(turn, seq):
    if "calls" in turn:
        calls = []
        for i, call in enumerate(turn["calls"]):
            arguments = call.get("arguments", {})
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments)
            calls.append({"id": call.get("id", "call_%02d_%02d" % (seq, i)), "type": "function",
                          "function": {"name": call["name"], "arguments": arguments}})
        return {"role": "assistant", "content": turn.get("text"), "tool_calls": calls}, "tool_calls"
    return {"role": "assistant", "content": turn.get("text", "")}, "stop"


def make_handler(script):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send_json(self, status, value):
            data = json.dumps(value).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            entry = {"time": time.time(), "method": "GET", "path": self.path, "kind": "other"}
            if self.path.rstrip("/").endswith("/models"):
                entry["kind"] = "models"
                self.send_json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
            else:
                self.send_json(404, {"error": {"message": "not found"}})
            script.record(entry)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except ValueError:
                body = {"unparsed": raw.decode(errors="replace")}
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("authorization", "api-key")}
            entry = {"time": time.time(), "method": "POST", "path": self.path, "headers": headers}
            if not self.path.rstrip("/").endswith("/chat/completions"):
                entry["kind"] = "other"
                script.record(dict(entry, body=body))
                self.send_json(404, {"error": {"message": "not found"}})
                return
            kind, turn, reply = script.reply_for(body)
            entry.update(kind=kind, turn=turn, reply=reply)
            script.record(dict(entry, body=body))
            if "http_status" in reply:
                self.send_json(reply["http_status"], {"error": {"message": reply.get("error", "scripted error")}})
                return
            message, finish = message_of(reply, turn or 0)
            if body.get("stream"):
                self.stream(message, finish, body.get("model", "fake-model"))
            else:
                self.send_json(200, {"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                                     "model": body.get("model", "fake-model"),
                                     "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                                     "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})

        def stream(self, message, finish, model):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()

            def chunk(delta, finish_reason=None, usage=None):
                event = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
                         "model": model, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
                if usage is not None:
                    event["choices"] = []
                    event["usage"] = usage
                self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")

            chunk({"role": "assistant", "content": ""})
            if message.get("content"):
                chunk({"content": message["content"]})
            for i, call in enumerate(message.get("tool_calls") or []):
                chunk({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                       "function": {"name": call["function"]["name"], "arguments": ""}}]})
                chunk({"tool_calls": [{"index": i, "function": {"arguments": call["function"]["arguments"]}}]})
            chunk({}, finish)
            chunk({}, usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
            self.close_connection = True

    return Handler


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port", type=int, required=True)
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(Script(args.script, args.log)))
    print("fake chat endpoint on http://127.0.0.1:%d/v1" % args.port, file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
