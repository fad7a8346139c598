"""Avro interop peer on `fastavro` (pinned in xtask), an Avro implementation independent of ours.

Run by cloudevent-runtime/tests/avro_interop.rs; `cargo xtask test` installs fastavro.
The schema is ours (cloudevent-runtime/src/format/avro/cloudevents.avsc, transcribed from the
CloudEvents Avro Event Format 1.0.2), parsed here by fastavro.

    avro_peer.py SCHEMA emit      events fastavro writes, one JSON line each:
                                  {"case", "avro": base64, "event": description}
    avro_peer.py SCHEMA read      JSON lines {"case", "avro": base64} on stdin -> one JSON line
                                  each: {"case", "ok": true, "event": description,
                                  "avro": base64 of the record written back} or
                                  {"case", "ok": false, "error"}

A description is {"attributes": {name: [avro_type, value]}, "data": null | {"bytes": base64} |
{"string": text} | {"json": value}}: avro_type is boolean, int, string or bytes (value base64);
attributes whose value is null are left out (unset); "json" is data in the schema's own
representation of a JSON value (boolean, double, map, array of CloudEventData), given here as
the plain JSON value, with integral doubles as integers.
"""

import base64
import io
import json
import sys

import fastavro


def b64(raw):
    return base64.b64encode(raw).decode("ascii")


# The schema's representation of a JSON value (CE-Avro 3), written independently of the Rust
# side: a top-level object is a map whose object members are CloudEventData records; a
# record's `value` map holds its members; below a record, an object is a map of records and
# an array an array of records.


def record(obj):
    return {"value": {k: inner(v) for k, v in obj.items()}}


def inner(v):
    if isinstance(v, dict):
        if all(isinstance(x, dict) for x in v.values()):
            return {k: record(x) for k, x in v.items()}
        raise ValueError("an object below a record holds only objects")
    if isinstance(v, list):
        return [record(x) for x in v]
    return v


def to_avro_data(v):
    if isinstance(v, dict):
        return {k: (record(x) if isinstance(x, dict) else x) for k, x in v.items()}
    if isinstance(v, list):
        return [record(x) for x in v]
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    return v


def plain(v):
    """A value read back, as plain JSON: records unwrapped, integral doubles as integers."""
    if isinstance(v, dict):
        if set(v.keys()) == {"value"} and isinstance(v["value"], dict):
            # Ambiguous only for an object with one member named `value`; the cases avoid it.
            return {k: plain(x) for k, x in v["value"].items()}
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, float) and v.is_integer() and abs(v) <= 2**53:
        return int(v)
    return v


def typed(value):
    if isinstance(value, bool):
        return ["boolean", value]
    if isinstance(value, int):
        return ["int", value]
    if isinstance(value, str):
        return ["string", value]
    return ["bytes", b64(value)]


def describe(datum):
    attributes = {k: typed(v) for k, v in datum["attribute"].items() if v is not None}
    data = datum["data"]
    if data is None:
        described = None
    elif isinstance(data, bytes):
        described = {"bytes": b64(data)}
    elif isinstance(data, str):
        described = {"string": data}
    else:
        described = {"json": plain(data)}
    return {"attributes": attributes, "data": described}


def write(schema, datum):
    out = io.BytesIO()
    fastavro.schemaless_writer(out, schema, datum)
    return out.getvalue()


def core(case):
    return {
        "specversion": "1.0",
        "id": "py-" + case,
        "source": "https://orders.example.com/checkout",
        "type": "com.example.order.created",
    }


def cases():
    every = core("every-attribute")
    every.update(
        {
            "datacontenttype": "application/json",
            "dataschema": "https://schemas.example.com/orders/created/v1.json",
            "subject": "order-1",
            "time": "2026-03-28T14:22:31.123456Z",
            "express": True,
            "priority": -2147483648,
            "hops": 2147483647,
            "region": "eu-west-1 \u00e9\u4e2d",
            "checksum": b"\x00\x01\xfe\xff",
            "unset": None,
        }
    )
    yield "every-attribute", every, '{"order_id":"order-1","total_cents":1299}'
    binary = core("binary")
    binary["datacontenttype"] = "application/octet-stream"
    yield "binary", binary, bytes(range(256))
    text = core("text")
    text["datacontenttype"] = "text/plain; charset=utf-8"
    yield "text", text, "h\u00e9llo \u2603\nline 2"
    yield "json-object", core("json-object"), to_avro_data(
        {"n": 1.5, "i": 42, "s": "x", "b": False, "z": None, "o": {"k": "v", "list": [{"x": 1}]}}
    )
    yield "json-array", core("json-array"), to_avro_data([{"a": 1}, {"b": "c"}, {}])
    yield "json-boolean", core("json-boolean"), True
    yield "json-double", core("json-double"), -2.25
    yield "json-string", core("json-string"), "just a string"
    yield "no-data", core("no-data"), None
    yield "empty-bytes", core("empty-bytes"), b""


def main():
    schema = fastavro.parse_schema(json.load(open(sys.argv[1], encoding="utf-8")))
    command = sys.argv[2]
    if command == "emit":
        for case, attributes, data in cases():
            datum = {"attribute": attributes, "data": data}
            raw = write(schema, datum)
            print(json.dumps({"case": case, "avro": b64(raw), "event": describe(datum)}))
    elif command == "read":
        for line in sys.stdin:
            message = json.loads(line)
            try:
                raw = base64.b64decode(message["avro"])
                stream = io.BytesIO(raw)
                datum = fastavro.schemaless_reader(stream, schema, None)
                if stream.tell() != len(raw):
                    raise ValueError(f"{len(raw) - stream.tell()} bytes left after the record")
                answer = {
                    "case": message["case"],
                    "ok": True,
                    "event": describe(datum),
                    "avro": b64(write(schema, datum)),
                }
            except Exception as error:  # noqa: BLE001 - reported to the test, which fails
                answer = {"case": message["case"], "ok": False, "error": repr(error)}
            print(json.dumps(answer))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
