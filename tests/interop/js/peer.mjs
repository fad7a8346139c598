// Interop peer on the official CloudEvents JavaScript SDK (`cloudevents`, pinned in
// package.json). Run by cloudevent-runtime/tests/interop_sdks.rs; `cargo xtask test` runs
// `npm ci` here.
//
//   node peer.mjs emit EVENTS_JSON      messages the SDK writes for the fixture events, as JSON
//   node peer.mjs parse                 messages on stdin (same shape) -> what the SDK read
//   node peer.mjs echo                  messages on stdin -> each read by the SDK and written
//                                       again by the SDK (a relay on the SDK) in the same
//                                       kind, or in the kind its `to` names; {case, kind,
//                                       error} where the SDK refuses
//   node peer.mjs serve SECONDS COUNT   HTTP server on 127.0.0.1, first stdout line `PORT <n>`;
//                                       answers each POST with what the SDK read; stops after
//                                       COUNT requests or SECONDS seconds
//
// A message is {case, kind, headers: [[name, value|null]], key, body: base64|null}; kind is
// http-binary, http-structured, http-batch, kafka-binary or kafka-structured. A read is
// {case, kind, ok: true, events: [event]} or {ok: false, error}; an event is
// {attributes: {...}, data: {json|text|base64: ...} | null}.

import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { CloudEvent, CONSTANTS, HTTP, Kafka } from "cloudevents";

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

// The SDK leaves header values as the attribute's JavaScript value (a number, a boolean, or
// undefined for an unset content type); a Kafka or HTTP client sends them as their string.
function headerList(headers) {
  return Object.entries(headers)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => [name, String(value)]);
}

// The body as the bytes a client would send: the SDK leaves a JSON object unserialized in a
// binary-mode Kafka message, so it is serialized here as any producer would have to.
function bodyBytes(body) {
  if (body === undefined || body === null) return null;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(JSON.stringify(body), "utf8");
}

function b64(bytes) {
  return bytes === null ? null : bytes.toString("base64");
}

const WRITERS = {
  "http-binary": HTTP.binary,
  "http-structured": HTTP.structured,
  "kafka-binary": Kafka.binary,
  "kafka-structured": Kafka.structured,
};

function write(name, kind, event) {
  const message = WRITERS[kind](event);
  if (kind.startsWith("kafka")) {
    const key = message.key === undefined || message.key === null ? null : String(message.key);
    return { case: name, kind, headers: headerList(message.headers), key, body: b64(bodyBytes(message.value)) };
  }
  return { case: name, kind, headers: headerList(message.headers), key: null, body: b64(bodyBytes(message.body)) };
}

function emit(path) {
  const fixtures = JSON.parse(readFileSync(path, "utf8")).events;
  const messages = [];
  for (const fixture of fixtures) {
    for (const kind of Object.keys(WRITERS)) {
      messages.push(write(fixture.case, kind, sdkEvent(fixture)));
    }
  }
  // The SDK reads batches (HTTP.toEvent) but writes none: the batch is its events' own JSON
  // (CloudEvent#toJSON) in an array, as a user of the SDK would write it.
  const batch = fixtures.filter((f) => f.case !== "integer-out-of-range").map(sdkEvent);
  messages.push({
    case: "batch",
    kind: "http-batch",
    headers: [["content-type", `${CONSTANTS.MIME_CE_BATCH}; charset=utf-8`]],
    key: null,
    body: b64(Buffer.from(JSON.stringify(batch), "utf8")),
  });
  process.stdout.write(JSON.stringify(messages));
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
    data = { base64: bodyBytes(event.data).toString("base64") };
  } else if (typeof event.data === "string") {
    data = { text: event.data };
  } else {
    data = { json: event.data };
  }
  return { attributes, data };
}

function sdkRead(message) {
  const body = message.body === null || message.body === undefined ? null : Buffer.from(message.body, "base64");
  const headers = {};
  for (const [name, value] of message.headers) headers[name.toLowerCase()] = value;
  if (message.kind.startsWith("kafka")) {
    // As kafkajs hands a message over: Buffer value, string headers.
    return Kafka.toEvent({ key: message.key ?? undefined, headers, value: body ?? undefined });
  }
  // As a Node server hands a body over: text, bytes for application/octet-stream, nothing
  // for an empty body.
  const type = headers["content-type"] ?? "";
  let httpBody;
  if (body === null || body.length === 0) httpBody = undefined;
  else if (type.startsWith(CONSTANTS.MIME_OCTET_STREAM)) httpBody = body;
  else httpBody = body.toString("utf8");
  return HTTP.toEvent({ headers, body: httpBody });
}

function read(message) {
  try {
    const read = sdkRead(message);
    const events = Array.isArray(read) ? read : [read];
    return { case: message.case, kind: message.kind, ok: true, events: events.map(eventJson) };
  } catch (error) {
    return { case: message.case, kind: message.kind, ok: false, error: `${error.name}: ${error.message}` };
  }
}

function parse() {
  const input = readFileSync(0, "utf8");
  process.stdout.write(JSON.stringify(JSON.parse(input).map(read)));
}

function echo() {
  const out = JSON.parse(readFileSync(0, "utf8")).map((message) => {
    try {
      return write(message.case, message.to ?? message.kind, sdkRead(message));
    } catch (error) {
      return { case: message.case, kind: message.kind, error: `${error.name}: ${error.message}` };
    }
  });
  process.stdout.write(JSON.stringify(out));
}

function serve(seconds, count) {
  let served = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const headers = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        headers.push([request.rawHeaders[i], request.rawHeaders[i + 1]]);
      }
      const type = request.headers["content-type"] ?? "";
      const kind = type.startsWith(CONSTANTS.MIME_CE_BATCH)
        ? "http-batch"
        : type.startsWith(CONSTANTS.MIME_CE)
          ? "http-structured"
          : "http-binary";
      const answer = read({ case: request.url, kind, headers, body: body.toString("base64") });
      answer.received_headers = headers;
      const reply = Buffer.from(JSON.stringify(answer), "utf8");
      response.writeHead(200, { "content-type": "application/json", "content-length": reply.length });
      response.end(reply);
      served += 1;
      if (served >= count) server.close();
    });
  });
  server.keepAliveTimeout = 100;
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(`PORT ${server.address().port}\n`);
  });
  setTimeout(() => process.exit(0), seconds * 1000).unref();
  server.on("close", () => process.exit(0));
}

const [command, ...args] = process.argv.slice(2);
if (command === "emit") emit(args[0]);
else if (command === "parse") parse();
else if (command === "echo") echo();
else if (command === "serve") serve(Number(args[0]), Number(args[1]));
else {
  process.stderr.write("usage: node peer.mjs emit EVENTS_JSON | parse | echo | serve SECONDS COUNT\n");
  process.exit(2);
}
