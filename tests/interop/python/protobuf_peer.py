"""The Python `protobuf` runtime as an independent Protobuf peer for
cloudevent-runtime/tests/interop_protobuf.rs.

The test compiles our copy of the CloudEvents schema (cloudevent-runtime/proto/cloudevents.proto)
with `python3 -m grpc_tools.protoc` into a temporary directory and runs this script with that
directory first on sys.path:

  protobuf_peer.py decode-event  < bytes   prints the CloudEvent as JSON (MessageToDict)
  protobuf_peer.py decode-batch  < bytes   prints the CloudEventBatch as JSON
  protobuf_peer.py encode-batch  > bytes   writes a CloudEventBatch built here, one event per
                                           attribute type and data form
"""

import json
import sys

from google.protobuf import any_pb2, json_format, timestamp_pb2

import cloudevents_pb2 as pb


def attr(event, name, **value):
    entry = event.attributes[name]
    for key, val in value.items():
        if key == "ce_timestamp":
            entry.ce_timestamp.CopyFrom(val)
        else:
            setattr(entry, key, val)


def base(event_id):
    event = pb.CloudEvent()
    event.id = event_id
    event.source = "https://orders.example.com/checkout"
    event.spec_version = "1.0"
    event.type = "com.example.order.created"
    return event


def build_batch():
    time = timestamp_pb2.Timestamp(seconds=1774707751, nanos=500000000)

    text = base("py-text")
    attr(text, "datacontenttype", ce_string="text/plain")
    attr(text, "subject", ce_string="order-1")
    attr(text, "time", ce_timestamp=time)
    attr(text, "dataschema", ce_uri="https://schemas.example.com/orders/v1.json")
    attr(text, "flag", ce_boolean=True)
    attr(text, "hop", ce_integer=-2147483648)
    attr(text, "region", ce_string="eu")
    attr(text, "blob", ce_bytes=b"\x00\xff")
    attr(text, "origin", ce_uri="https://example.com/a")
    attr(text, "dataref", ce_uri_ref="/blobs/1")
    attr(text, "seen", ce_timestamp=timestamp_pb2.Timestamp(seconds=0, nanos=1000))
    text.text_data = "hello"

    json_event = base("py-json")
    attr(json_event, "datacontenttype", ce_string="application/json")
    json_event.text_data = '{"orderId":"order-1"}'

    binary = base("py-binary")
    attr(binary, "datacontenttype", ce_string="application/octet-stream")
    binary.binary_data = b"\x01\x02\x03"

    proto = base("py-proto")
    attr(proto, "datacontenttype", ce_string="application/protobuf")
    packed = any_pb2.Any()
    packed.Pack(timestamp_pb2.Timestamp(seconds=42))
    proto.proto_data.CopyFrom(packed)

    bare = base("py-bare")

    return pb.CloudEventBatch(events=[text, json_event, binary, proto, bare])


def main():
    mode = sys.argv[1]
    if mode == "encode-batch":
        sys.stdout.buffer.write(build_batch().SerializeToString())
        return
    data = sys.stdin.buffer.read()
    message = pb.CloudEvent() if mode == "decode-event" else pb.CloudEventBatch()
    message.ParseFromString(data)
    print(json.dumps(json_format.MessageToDict(message, preserving_proto_field_name=True), sort_keys=True))


if __name__ == "__main__":
    main()
