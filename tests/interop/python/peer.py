"""Interop peer on the official CloudEvents Python SDK (`cloudevents`, pinned in xtask).

Run by cloudevent-runtime/tests/interop_sdks.rs; `cargo xtask test` installs the SDK.

    peer.py emit EVENTS_JSON      messages the SDK writes for the fixture events, as JSON
    peer.py parse                 messages on stdin (same shape) -> what the SDK read, as JSON
    peer.py echo                  messages on stdin -> each read by the SDK and written again by
                                  the SDK (a relay on the SDK) in the same kind, or in the kind
                                  its "to" names, as messages; {"case", "kind", "error"} where
                                  the SDK refuses
    peer.py serve SECONDS COUNT   HTTP server on 127.0.0.1, first stdout line `PORT <n>`; answers
                                  each POST with what the SDK read; stops after COUNT requests
                                  or SECONDS seconds, whichever comes first

A message is {"case", "kind", "headers": [[name, value-or-null]], "key", "body": base64|null};
`kind` is http-binary, http-structured, kafka-binary or kafka-structured (the SDK has no batch
format). A read is {"case", "kind", "ok": true, "events": [event]} or {"ok": false, "error"};
an event is {"attributes": {...}, "data": {"json"|"text"|"base64": ...} | null}.
"""

import base64
import json
import sys
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, HTTPServer

from dateutil.parser import isoparse

from cloudevents.core.bindings import http as ce_http
from cloudevents.core.bindings import kafka as ce_kafka
from cloudevents.core.v1.event import CloudEvent


def sdk_event(fixture):
    attributes = dict(fixture["attributes"])
    if "time" in attributes:
        attributes["time"] = isoparse(attributes["time"])
    data = fixture["data"]
    if data is None:
        payload = None
    elif "json" in data:
        payload = data["json"]
    elif "text" in data:
        payload = data["text"]
    else:
        payload = base64.b64decode(data["base64"])
    return CloudEvent(attributes, payload)


def b64(raw):
    return None if raw is None else base64.b64encode(raw).decode("ascii")


def text(value):
    return value.decode("utf-8") if isinstance(value, bytes) else value


WRITERS = {
    "http-binary": ce_http.to_binary_event,
    "http-structured": ce_http.to_structured_event,
    "kafka-binary": ce_kafka.to_binary_event,
    "kafka-structured": ce_kafka.to_structured_event,
}


def write(case, kind, event):
    message = WRITERS[kind](event)
    if kind.startswith("kafka"):
        return {
            "case": case,
            "kind": kind,
            "headers": [[name, text(value)] for name, value in message.headers.items()],
            "key": text(message.key),
            "body": b64(message.value),
        }
    return {
        "case": case,
        "kind": kind,
        "headers": [[name, value] for name, value in message.headers.items()],
        "key": None,
        "body": b64(message.body),
    }


def emit(path):
    with open(path, encoding="utf-8") as file:
        fixtures = json.load(file)["events"]
    messages = []
    for fixture in fixtures:
        for kind in WRITERS:
            messages.append(write(fixture["case"], kind, sdk_event(fixture)))
    json.dump(messages, sys.stdout, ensure_ascii=False)


def jsonable(value):
    if isinstance(value, datetime):
        stamp = value.isoformat()
        return stamp[:-6] + "Z" if stamp.endswith("+00:00") else stamp
    return value


def event_json(event):
    attributes = {name: jsonable(value) for name, value in event.get_attributes().items()}
    data = event.get_data()
    if data is None:
        shown = None
    elif isinstance(data, (bytes, bytearray)):
        shown = {"base64": b64(bytes(data))}
    elif isinstance(data, str):
        shown = {"text": data}
    else:
        shown = {"json": data}
    return {"attributes": attributes, "data": shown}


def sdk_read(message):
    body = None if message.get("body") is None else base64.b64decode(message["body"])
    if message["kind"].startswith("kafka"):
        headers = {
            name: None if value is None else value.encode("utf-8")
            for name, value in message["headers"]
        }
        key = message.get("key")
        record = ce_kafka.KafkaMessage(
            headers=headers, key=None if key is None else key.encode("utf-8"), value=body
        )
        return ce_kafka.from_kafka_event(record)
    headers = {name: value for name, value in message["headers"]}
    record = ce_http.HTTPMessage(headers=headers, body=body or b"")
    return ce_http.from_http_event(record)


def read(message):
    try:
        events = [sdk_read(message)]
        return {
            "case": message.get("case"),
            "kind": message["kind"],
            "ok": True,
            "events": [event_json(event) for event in events],
        }
    except Exception as error:  # the SDK's refusal is a result to report, not a crash
        return {
            "case": message.get("case"),
            "kind": message["kind"],
            "ok": False,
            "error": f"{type(error).__name__}: {error}",
        }


def parse():
    messages = json.load(sys.stdin)
    json.dump([read(message) for message in messages], sys.stdout, ensure_ascii=False)


def echo():
    out = []
    for message in json.load(sys.stdin):
        try:
            kind = message.get("to") or message["kind"]
            out.append(write(message.get("case"), kind, sdk_read(message)))
        except Exception as error:  # the SDK's refusal is a result to report, not a crash
            out.append({
                "case": message.get("case"),
                "kind": message["kind"],
                "error": f"{type(error).__name__}: {error}",
            })
    json.dump(out, sys.stdout, ensure_ascii=False)


def serve(seconds, count):
    served = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length)
            headers = [[name, value] for name, value in self.headers.items()]
            content_type = self.headers.get("content-type") or ""
            kind = "http-structured" if content_type.startswith("application/cloudevents") else "http-binary"
            answer = read({"case": self.path, "kind": kind, "headers": headers, "body": b64(body)})
            answer["received_headers"] = headers
            reply = json.dumps(answer, ensure_ascii=False).encode("utf-8")
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)
            served.append(self.path)
            if len(served) >= count:
                threading.Thread(target=self.server.shutdown, daemon=True).start()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    timer = threading.Timer(seconds, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever(poll_interval=0.05)
    timer.cancel()


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "emit":
        emit(sys.argv[2])
    elif command == "parse":
        parse()
    elif command == "echo":
        echo()
    elif command == "serve":
        serve(float(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
