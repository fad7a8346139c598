"""Broker peer on the official CloudEvents Python SDK (`cloudevents`) and maintained broker
clients: paho-mqtt (MQTT 5 and 3.1.1), nats-py (NATS), confluent-kafka (Kafka),
python-qpid-proton (AMQP 1.0).

Run by cloudevent-runtime/tests/interop_brokers.rs against brokers it started on 127.0.0.1;
`cargo xtask test` installs the SDK and the clients (versions pinned in xtask).

    broker_peer.py produce BROKER MODE ADDRESS TOPIC EVENTS_JSON CASES
        builds the fixture events named in CASES (comma-separated) with the SDK, writes them
        in MODE (binary | structured) and publishes them; prints `SENT <n>`
    broker_peer.py consume BROKER MODE ADDRESS TOPIC COUNT SECONDS
        subscribes, prints `READY`, reads COUNT messages (or gives up after SECONDS) and
        prints `READ <json>`: a list of reads as peer.py writes them

BROKER is mqtt5, mqtt311, nats, kafka or amqp. How each message is written and read:

- kafka: the SDK's Kafka binding (`cloudevents.core.bindings.kafka`), both modes.
- amqp: the SDK's AMQP binding (`cloudevents.core.bindings.amqp`: `to_binary_event`,
  `to_structured_event`, `from_amqp_event`), both modes. The SDK hands over a client-neutral
  `AMQPMessage` (dicts and bytes); this script carries it in a Proton message: the
  `content-type` property, the application properties in the Python types the SDK gave
  (Proton sends `str` as string, `bool` as boolean, `int` as long, `bytes` as binary), except
  that a Timestamp attribute, which the SDK gives as an `int` of milliseconds and documents as
  the AMQP timestamp type, is sent as a Proton `timestamp`; the application data as one data
  section. AMQP URL: amqp://guest:guest@ADDRESS, node `/queue/TOPIC` (RabbitMQ's AMQP 1.0
  plugin). Proton is Debian's `python3-qpid-proton` (built for the system Python 3.11,
  found in /usr/lib/python3/dist-packages, appended after this interpreter's own paths).
- structured (mqtt5, mqtt311, nats): the SDK's JSON event format (`JSONFormat`); MQTT 5 and
  NATS also set the content type `application/cloudevents+json` (MQTT binding 3.2,
  NATS binding 1.0.3-wip 3.2).
- nats binary: the SDK has no NATS binding; the NATS binding 1.0.3-wip 3.1 maps attributes to
  `ce-` headers as the HTTP binding does, so the SDK's HTTP binary writer and reader are used
  for the headers and the payload.
- mqtt5 binary: the SDK has no MQTT binding; attributes are User Properties named as the
  attribute, valued with the SDK's own string form of the value (MQTT binding 3.1.3.1),
  `datacontenttype` is the Content Type property (3.1.1); the SDK's HTTP binary writer
  renders the values and its reader reads them back.
"""

import json
import os
import sys
import time
from urllib.parse import quote, unquote

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from peer import event_json, sdk_event  # noqa: E402

from cloudevents.core.bindings import amqp as ce_amqp  # noqa: E402
from cloudevents.core.bindings import http as ce_http  # noqa: E402
from cloudevents.core.bindings import kafka as ce_kafka  # noqa: E402
from cloudevents.core.formats.json import JSONFormat  # noqa: E402

STRUCTURED = "application/cloudevents+json"


def fixtures(path, cases):
    with open(path, encoding="utf-8") as file:
        events = {fixture["case"]: fixture for fixture in json.load(file)["events"]}
    return [(case, sdk_event(events[case])) for case in cases.split(",")]


def host_port(address):
    host, port = address.rsplit(":", 1)
    return host, int(port)


# ---------------------------------------------------------------------------------------
# Writing: an SDK event -> (headers as [(name, str)], content type or None, payload bytes)


def write_generic(event, mode, broker):
    if mode == "structured":
        content_type = None if broker == "mqtt311" else STRUCTURED
        return [], content_type, JSONFormat().write(event)
    message = ce_http.to_binary_event(event)
    headers = list(message.headers.items())
    if broker == "nats":
        return headers, None, message.body
    content_type = None
    properties = []
    for name, value in headers:
        if name.lower() == "content-type":
            content_type = value
        elif name.lower().startswith("ce-"):
            properties.append((name[3:], unquote(value)))
    return properties, content_type, message.body


def read_generic(properties, content_type, payload, mode, broker):
    if mode == "structured":
        return JSONFormat().read(None, payload)
    if broker == "nats":
        headers = {name: value for name, value in properties}
    else:
        headers = {"ce-" + name: quote(value, safe="") for name, value in properties}
        if content_type is not None:
            headers["content-type"] = content_type
    return ce_http.from_binary_event(ce_http.HTTPMessage(headers=headers, body=payload or b""))


def reading(case, build):
    try:
        return {"case": case, "ok": True, "events": [event_json(build())]}
    except Exception as error:  # the SDK's refusal is a result to report, not a crash
        return {"case": case, "ok": False, "error": f"{type(error).__name__}: {error}"}


# ---------------------------------------------------------------------------------------
# MQTT (paho-mqtt)


def mqtt_client(broker, name):
    import paho.mqtt.client as mqtt

    protocol = mqtt.MQTTv5 if broker == "mqtt5" else mqtt.MQTTv311
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name, protocol=protocol)
    return client


def mqtt_produce(broker, mode, address, topic, events):
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    client = mqtt_client(broker, "py-producer")
    host, port = host_port(address)
    client.connect(host, port, keepalive=10)
    client.loop_start()
    for _case, event in events:
        properties_list, content_type, payload = write_generic(event, mode, broker)
        properties = None
        if broker == "mqtt5":
            properties = Properties(PacketTypes.PUBLISH)
            if content_type is not None:
                properties.ContentType = content_type
            if properties_list:
                properties.UserProperty = properties_list
        info = client.publish(topic, payload, qos=1, properties=properties)
        info.wait_for_publish(timeout=10)
    client.loop_stop()
    client.disconnect()
    return len(events)


def mqtt_consume(broker, mode, address, topic, count, seconds):
    import threading

    client = mqtt_client(broker, "py-consumer")
    received = []
    subscribed = threading.Event()
    done = threading.Event()

    def on_connect(client, userdata, flags, reason_code, properties):
        client.subscribe(topic, qos=1)

    def on_subscribe(client, userdata, mid, reason_codes, properties):
        subscribed.set()

    def on_message(client, userdata, message):
        properties = getattr(message, "properties", None)
        content_type = getattr(properties, "ContentType", None) if properties else None
        user = list(getattr(properties, "UserProperty", []) or []) if properties else []
        received.append((user, content_type, bytes(message.payload)))
        if len(received) >= count:
            done.set()

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    host, port = host_port(address)
    client.connect(host, port, keepalive=10)
    client.loop_start()
    if not subscribed.wait(seconds):
        sys.exit("no SUBACK")
    print("READY", flush=True)
    done.wait(seconds)
    client.loop_stop()
    client.disconnect()
    return [
        reading(None, lambda m=m: read_generic(m[0], m[1], m[2], mode, broker)) for m in received
    ]


# ---------------------------------------------------------------------------------------
# NATS (nats-py)


async def nats_produce(mode, address, topic, events):
    import nats

    client = await nats.connect(f"nats://{address}", connect_timeout=5)
    for _case, event in events:
        headers, content_type, payload = write_generic(event, mode, "nats")
        headers = dict(headers)
        if content_type is not None:
            headers["Content-Type"] = content_type
        await client.publish(topic, payload, headers=headers or None)
    await client.flush(timeout=10)
    await client.close()
    return len(events)


async def nats_consume(mode, address, topic, count, seconds):
    import asyncio

    import nats

    client = await nats.connect(f"nats://{address}", connect_timeout=5)
    subscription = await client.subscribe(topic)
    await client.flush(timeout=5)
    print("READY", flush=True)
    received = []
    deadline = time.monotonic() + seconds
    while len(received) < count and time.monotonic() < deadline:
        try:
            message = await subscription.next_msg(timeout=max(0.1, deadline - time.monotonic()))
        except asyncio.TimeoutError:
            break
        headers = list((message.headers or {}).items())
        received.append((headers, bytes(message.data)))
    await client.close()
    return [
        reading(None, lambda m=m: read_generic(m[0], None, m[1], mode, "nats")) for m in received
    ]


# ---------------------------------------------------------------------------------------
# Kafka (confluent-kafka, librdkafka of its wheel)


def kafka_produce(mode, address, topic, events):
    from confluent_kafka import Producer

    producer = Producer({"bootstrap.servers": address, "message.timeout.ms": 10000})
    write = ce_kafka.to_binary_event if mode == "binary" else ce_kafka.to_structured_event
    for _case, event in events:
        message = write(event)
        headers = [
            (name, value if isinstance(value, bytes) else str(value).encode("utf-8"))
            for name, value in message.headers.items()
        ]
        key = message.key
        if isinstance(key, str):
            key = key.encode("utf-8")
        producer.produce(topic, value=message.value, key=key, headers=headers)
    left = producer.flush(10)
    if left:
        sys.exit(f"{left} records not acknowledged within 10 s")
    return len(events)


def kafka_consume(mode, address, topic, count, seconds):
    from confluent_kafka import Consumer

    consumer = Consumer({
        "bootstrap.servers": address,
        "group.id": "python-" + topic,
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    })
    consumer.subscribe([topic])
    print("READY", flush=True)
    reads = []
    deadline = time.monotonic() + seconds
    while len(reads) < count and time.monotonic() < deadline:
        message = consumer.poll(0.2)
        if message is None or message.error():
            continue
        record = ce_kafka.KafkaMessage(
            headers={name: value for name, value in (message.headers() or [])},
            key=message.key(),
            value=message.value(),
        )
        reads.append(reading(None, lambda r=record: ce_kafka.from_kafka_event(r)))
    consumer.close()
    return reads


# ---------------------------------------------------------------------------------------
# AMQP 1.0 (python-qpid-proton, Debian's python3-qpid-proton)

# Debian builds python3-qpid-proton for the system Python 3.11 (no wheel on PyPI for this
# interpreter): its directory is appended, so this interpreter's own packages come first.
DEBIAN_PYTHON = "/usr/lib/python3/dist-packages"


def proton_modules():
    try:
        import proton  # noqa: F401
    except ImportError:
        if DEBIAN_PYTHON not in sys.path:
            sys.path.append(DEBIAN_PYTHON)
    try:
        import proton
        from proton.utils import BlockingConnection
    except ImportError as error:
        sys.exit(
            f"python-qpid-proton does not import ({error}): `cargo xtask test` installs Debian's "
            "python3-qpid-proton, built for the system Python 3.11; "
            f"this interpreter is {sys.version.split()[0]}"
        )

    return proton, BlockingConnection


def amqp_connection(address):
    _proton, BlockingConnection = proton_modules()
    return BlockingConnection(
        f"amqp://guest:guest@{address}", timeout=10, allowed_mechs="PLAIN",
        allow_insecure_mechs=True,
    )


def amqp_to_proton(event, sdk_message):
    """The SDK's AMQPMessage as a Proton message (see the module doc)."""
    proton, _ = proton_modules()
    from datetime import datetime

    message = proton.Message()
    for name, value in sdk_message.properties.items():
        if name != ce_amqp.CONTENT_TYPE_PROPERTY:
            sys.exit(f"the SDK set the message property {name!r}, which this script does not map")
        message.content_type = value
    timestamps = {
        ce_amqp.CE_PREFIX_UNDERSCORE + name
        for name, value in event.get_attributes().items()
        if isinstance(value, datetime)
    }
    message.properties = {
        name: proton.timestamp(value) if name in timestamps else value
        for name, value in sdk_message.application_properties.items()
    }
    message.body = sdk_message.application_data
    message.inferred = True  # bytes as a data section, not an amqp-value
    return message


def amqp_from_proton(message):
    """A received Proton message as the SDK's AMQPMessage."""
    import cproton

    properties = {}
    # Proton 0.37's `Message.content_type` turns an absent content-type into the symbol
    # 'None'; the C getter tells absent (None) from present.
    content_type = cproton.pn_message_get_content_type(message._msg)
    if content_type is not None:
        properties[ce_amqp.CONTENT_TYPE_PROPERTY] = content_type
    body = message.body
    if body is None:
        body = b""
    elif isinstance(body, memoryview):
        body = body.tobytes()
    return ce_amqp.AMQPMessage(
        properties=properties,
        application_properties=dict(message.properties or {}),
        application_data=body,
    )


def amqp_produce(mode, address, topic, events):
    write = ce_amqp.to_binary_event if mode == "binary" else ce_amqp.to_structured_event
    connection = amqp_connection(address)
    sender = connection.create_sender(f"/queue/{topic}")
    for _case, event in events:
        # Blocks until the broker settled the delivery (Proton raises if it is not accepted).
        sender.send(amqp_to_proton(event, write(event)), timeout=10)
    # RabbitMQ 3.x answers a closing detach with a non-closing one, which Proton waits on
    # until its timeout: the links end with the connection.
    connection.close()
    return len(events)


def amqp_consume(mode, address, topic, count, seconds):
    proton, _ = proton_modules()
    connection = amqp_connection(address)
    receiver = connection.create_receiver(f"/queue/{topic}", credit=count)
    print("READY", flush=True)
    received = []
    deadline = time.monotonic() + seconds
    while len(received) < count and time.monotonic() < deadline:
        try:
            message = receiver.receive(timeout=max(0.1, deadline - time.monotonic()))
        except proton.Timeout:
            break
        receiver.accept()
        received.append(message)
    connection.close()  # the link with it, as in amqp_produce
    return [
        reading(None, lambda m=m: ce_amqp.from_amqp_event(amqp_from_proton(m))) for m in received
    ]


def main():
    command, broker, mode, address, topic = sys.argv[1:6]
    if command == "produce":
        events = fixtures(sys.argv[6], sys.argv[7])
        if broker.startswith("mqtt"):
            sent = mqtt_produce(broker, mode, address, topic, events)
        elif broker == "nats":
            import asyncio

            sent = asyncio.run(nats_produce(mode, address, topic, events))
        elif broker == "amqp":
            sent = amqp_produce(mode, address, topic, events)
        else:
            sent = kafka_produce(mode, address, topic, events)
        print(f"SENT {sent}", flush=True)
    elif command == "consume":
        count, seconds = int(sys.argv[6]), float(sys.argv[7])
        if broker.startswith("mqtt"):
            reads = mqtt_consume(broker, mode, address, topic, count, seconds)
        elif broker == "nats":
            import asyncio

            reads = asyncio.run(nats_consume(mode, address, topic, count, seconds))
        elif broker == "amqp":
            reads = amqp_consume(mode, address, topic, count, seconds)
        else:
            reads = kafka_consume(mode, address, topic, count, seconds)
        print("READ " + json.dumps(reads, ensure_ascii=False), flush=True)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
