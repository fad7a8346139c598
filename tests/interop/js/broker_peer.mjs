// Broker peer on the official CloudEvents JavaScript SDK (`cloudevents`, its MQTT binding) with
// the maintained MQTT client `mqtt` (MQTT.js), and with the AMQP 1.0 client `rhea`, all pinned
// in package.json. Run by cloudevent-runtime/tests/interop_brokers.rs against the mosquitto
// and RabbitMQ it started on 127.0.0.1; `cargo xtask test` runs `npm ci` here.
//
//   node broker_peer.mjs produce BROKER MODE ADDRESS TOPIC EVENTS_JSON CASES   -> `SENT <n>`
//   node broker_peer.mjs consume BROKER MODE ADDRESS TOPIC COUNT SECONDS        -> `READY`, then
//                                                                                `READ <json>`
// BROKER is mqtt5 or amqp.
//
// AMQP (the SDK has no AMQP binding; this mapping is the script's): structured mode is the
// SDK's JSON event format (`HTTP.structured(event).body` written, `HTTP.toEvent` with the
// structured content type read) in one data section with `content-type`
// `application/cloudevents+json`. Binary mode (CE AMQP binding 3.1): each attribute of the
// SDK's event but `datacontenttype` is an application property `cloudEvents:<name>` in its
// native AMQP type (3.1.3.2: a string as string, a Boolean as boolean, an Integer as long,
// which rhea is told explicitly: it would send a positive number as `uint`), `datacontenttype`
// is the `content-type` property, the data is one data section (JSON text for an object,
// UTF-8 for a string, the bytes for binary data). Read back: `cloudEvents:` and `cloudEvents_`
// properties are the attributes, the data is parsed as JSON when the content type is JSON,
// text when it is text, else kept as bytes, and `new CloudEvent(...)` builds the event.
//
// Writing: `MQTT.binary` / `MQTT.structured` give the User Properties (`headers`), the Content
// Type and the body; the client sends each property value as its string and the body as JSON
// text (an object), UTF-8 text (a string) or the bytes. Reading: the PUBLISH's Content Type,
// User Properties and payload go to `MQTT.toEvent`, the payload as UTF-8 text when the content
// type is JSON or text (as a user of MQTT.js would hand it over), else as bytes.

import { readFileSync } from "node:fs";
import { CloudEvent, HTTP, MQTT } from "cloudevents";
import mqtt from "mqtt";
import rhea from "rhea";

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

// ---------------------------------------------------------------------------------------
// AMQP 1.0 (rhea)

const STRUCTURED = "application/cloudevents+json";

function amqpValue(value) {
  if (typeof value === "number" && Number.isInteger(value)) return rhea.types.wrap_long(value);
  if (ArrayBuffer.isView(value)) return rhea.types.wrap_binary(payloadBytes(value));
  return value; // a string or a Boolean: rhea's own type is the binding's
}

function toAmqp(event, mode) {
  if (mode === "structured") {
    const body = HTTP.structured(event).body;
    return { content_type: STRUCTURED, body: rhea.message.data_section(Buffer.from(body, "utf8")) };
  }
  const message = { application_properties: {} };
  for (const [name, value] of Object.entries(event)) {
    if (name === "data" || name === "data_base64" || value === undefined || value === null) continue;
    if (name === "datacontenttype") {
      message.content_type = value;
    } else {
      message.application_properties[`cloudEvents:${name}`] = amqpValue(value);
    }
  }
  message.body = rhea.message.data_section(payloadBytes(event.data));
  return message;
}

function bodyBytes(body) {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (body.typecode === 0x75) {
    return body.multiple ? Buffer.concat(body.content) : Buffer.from(body.content);
  }
  throw new Error(`the body is not data sections: ${JSON.stringify(body)}`);
}

function fromAmqp(message) {
  const contentType = message.content_type;
  const bytes = bodyBytes(message.body);
  if (contentType && contentType.toLowerCase().startsWith("application/cloudevents")) {
    return HTTP.toEvent({ headers: { "content-type": contentType }, body: bytes.toString("utf8") });
  }
  const attributes = {};
  for (const [name, value] of Object.entries(message.application_properties || {})) {
    const match = /^cloudEvents[:_](.+)$/.exec(name);
    if (match) attributes[match[1]] = value;
  }
  if (contentType) attributes.datacontenttype = contentType;
  if (bytes.length > 0) {
    if (contentType && /json/i.test(contentType)) {
      attributes.data = JSON.parse(bytes.toString("utf8"));
    } else if (contentType && /^text\//i.test(contentType)) {
      attributes.data = bytes.toString("utf8");
    } else {
      attributes.data = new Uint8Array(bytes);
    }
  }
  return new CloudEvent(attributes);
}

function amqpConnect(address) {
  const [host, port] = address.split(":");
  const container = rhea.create_container({ id: "js-peer" });
  return container.connect({
    host,
    port: Number(port),
    username: "guest",
    password: "guest",
    reconnect: false,
    idle_time_out: 10000,
  });
}

async function amqpProduce(mode, address, topic, path, cases) {
  const fixtures = JSON.parse(readFileSync(path, "utf8")).events;
  const events = cases.split(",").map((name) => sdkEvent(fixtures.find((f) => f.case === name)));
  const connection = amqpConnect(address);
  const sender = connection.open_sender(`/queue/${topic}`);
  await once(sender, "sendable");
  let settled = 0;
  const done = new Promise((resolve, reject) => {
    sender.on("accepted", () => {
      settled += 1;
      if (settled === events.length) resolve();
    });
    sender.on("rejected", (context) => reject(new Error(`rejected: ${JSON.stringify(context.delivery.remote_state)}`)));
    sender.on("released", () => reject(new Error("released")));
  });
  for (const event of events) sender.send(toAmqp(event, mode));
  await done;
  // RabbitMQ 3.x answers a closing detach with a non-closing one: the link ends with the
  // connection.
  connection.close();
  process.stdout.write(`SENT ${events.length}\n`);
}

async function amqpConsume(mode, address, topic, count, seconds) {
  const connection = amqpConnect(address);
  const receiver = connection.open_receiver({ source: `/queue/${topic}`, credit_window: count, autoaccept: true });
  const reads = [];
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });
  receiver.on("message", (context) => {
    try {
      reads.push({ case: null, ok: true, events: [eventJson(fromAmqp(context.message))] });
    } catch (error) {
      reads.push({ case: null, ok: false, error: String(error) });
    }
    if (reads.length >= count) finish();
  });
  await once(receiver, "receiver_open");
  process.stdout.write("READY\n");
  const timer = setTimeout(finish, seconds * 1000);
  await done;
  clearTimeout(timer);
  connection.close();
  process.stdout.write(`READ ${JSON.stringify(reads)}\n`);
}

const [command, broker, mode, address, topic, a, b] = process.argv.slice(2);
if (broker !== "mqtt5" && broker !== "amqp") {
  console.error(`broker ${broker}: the JavaScript peer runs MQTT 5 and AMQP 1.0 only`);
  process.exit(2);
}
if (command === "produce") {
  await (broker === "amqp" ? amqpProduce : produce)(mode, address, topic, a, b);
} else if (command === "consume") {
  await (broker === "amqp" ? amqpConsume : consume)(mode, address, topic, Number(a), Number(b));
} else {
  console.error("usage: see the header of broker_peer.mjs");
  process.exit(2);
}
process.exit(0);
