// Broker peer on the official CloudEvents JavaScript SDK (`cloudevents`, its MQTT binding) and
// the maintained MQTT client `mqtt` (MQTT.js), both pinned in package.json. Run by
// cloudevent-runtime/tests/interop_brokers.rs against the mosquitto it started on 127.0.0.1;
// `cargo xtask test` runs `npm ci` here.
//
//   node broker_peer.mjs produce mqtt5 MODE ADDRESS TOPIC EVENTS_JSON CASES   -> `SENT <n>`
//   node broker_peer.mjs consume mqtt5 MODE ADDRESS TOPIC COUNT SECONDS        -> `READY`, then
//                                                                               `READ <json>`
//
// Writing: `MQTT.binary` / `MQTT.structured` give the User Properties (`headers`), the Content
// Type and the body; the client sends each property value as its string and the body as JSON
// text (an object), UTF-8 text (a string) or the bytes. Reading: the PUBLISH's Content Type,
// User Properties and payload go to `MQTT.toEvent`, the payload as UTF-8 text when the content
// type is JSON or text (as a user of MQTT.js would hand it over), else as bytes.

import { readFileSync } from "node:fs";
import { CloudEvent, MQTT } from "cloudevents";
import mqtt from "mqtt";

function sdkEvent(fixture) {
  const data = fixture.data;
  const event = { ...fixture.attributes };
  if (data === null) {
    // no data member at all
  } else if ("json" in data) {
    event.data = data.json;
  } else if ("text" in data) {
    event.data = data.text;
  } else {
    event.data = Buffer.from(data.base64, "base64");
  }
  return new CloudEvent(event);
}

function eventJson(event) {
  const attributes = {};
  for (const [name, value] of Object.entries(event)) {
    if (name === "data" || name === "data_base64" || value === undefined) continue;
    attributes[name] = value;
  }
  let data = null;
  if (event.data_base64) {
    data = { base64: event.data_base64 };
  } else if (event.data === undefined || event.data === null) {
    data = null;
  } else if (ArrayBuffer.isView(event.data)) {
    data = { base64: Buffer.from(event.data.buffer, event.data.byteOffset, event.data.byteLength).toString("base64") };
  } else if (typeof event.data === "string") {
    data = { text: event.data };
  } else {
    data = { json: event.data };
  }
  return { attributes, data };
}

function payloadBytes(body) {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (typeof body === "string") return Buffer.from(body, "utf8");
  return Buffer.from(JSON.stringify(body), "utf8");
}

function connect(address) {
  const [host, port] = address.split(":");
  return mqtt.connect({ host, port: Number(port), protocolVersion: 5, connectTimeout: 5000, reconnectPeriod: 0 });
}

function once(client, name) {
  return new Promise((resolve, reject) => {
    client.once(name, resolve);
    client.once("error", reject);
  });
}

async function produce(mode, address, topic, path, cases) {
  const fixtures = JSON.parse(readFileSync(path, "utf8")).events;
  const events = cases.split(",").map((name) => sdkEvent(fixtures.find((f) => f.case === name)));
  const client = connect(address);
  await once(client, "connect");
  for (const event of events) {
    const message = mode === "binary" ? MQTT.binary(event) : MQTT.structured(event);
    const userProperties = {};
    for (const [name, value] of Object.entries(message.headers)) {
      if (value !== undefined && value !== null) userProperties[name] = String(value);
    }
    // MQTT.js hangs on an empty User Properties object: none is sent then.
    const properties = Object.keys(userProperties).length ? { userProperties } : {};
    const contentType = message.PUBLISH["Content Type"];
    if (contentType) properties.contentType = contentType;
    await client.publishAsync(topic, payloadBytes(message.body), { qos: 1, properties });
  }
  await client.endAsync();
  process.stdout.write(`SENT ${events.length}\n`);
}

async function consume(mode, address, topic, count, seconds) {
  const client = connect(address);
  await once(client, "connect");
  const reads = [];
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });
  client.on("message", (_topic, payload, packet) => {
    const properties = packet.properties || {};
    const contentType = properties.contentType;
    const textual = contentType && /json|^text\//i.test(contentType);
    const message = {
      PUBLISH: { "Content Type": contentType },
      headers: properties.userProperties || {},
      body: textual || mode === "structured" ? payload.toString("utf8") : payload,
    };
    try {
      reads.push({ case: null, ok: true, events: [eventJson(MQTT.toEvent(message))] });
    } catch (error) {
      reads.push({ case: null, ok: false, error: String(error) });
    }
    if (reads.length >= count) finish();
  });
  await client.subscribeAsync(topic, { qos: 1 });
  process.stdout.write("READY\n");
  const timer = setTimeout(finish, seconds * 1000);
  await done;
  clearTimeout(timer);
  await client.endAsync();
  process.stdout.write(`READ ${JSON.stringify(reads)}\n`);
}

const [command, broker, mode, address, topic, a, b] = process.argv.slice(2);
if (broker !== "mqtt5") {
  console.error(`broker ${broker}: the JavaScript peer runs MQTT 5 only`);
  process.exit(2);
}
if (command === "produce") {
  await produce(mode, address, topic, a, b);
} else if (command === "consume") {
  await consume(mode, address, topic, Number(a), Number(b));
} else {
  console.error("usage: see the header of broker_peer.mjs");
  process.exit(2);
}
process.exit(0);
