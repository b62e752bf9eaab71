import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  createNodeWebhookHandler,
  createWebhookHandler,
  type DeliveryInfo,
  type UnknownWebhookEvent,
  type WebhookErrorContext,
  type WebhookEventCallbacks,
  type WebhookHandlerOptions,
} from "../../runtime/webhooks/index.js";
import {
  type DocumentDeletedEvent,
  type DocumentProcessedEvent,
  deliveryHeaders,
  eventBody,
  fixture,
  KNOWN_EVENT_TYPES,
  SECRET,
  type TestEvent,
  SIGNING,
  signedAt,
} from "./helpers.js";

type Kind = "web" | "node";

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** Adapts a node request to a Web `Request`, as a Deno/Bun/edge runtime would hand it over. */
async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method ?? "GET",
    headers,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
}

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function start(kind: Kind, options: WebhookHandlerOptions<TestEvent, "event_type">): Promise<string> {
  if (kind === "node") {
    const handler = createNodeWebhookHandler(options);
    return listen(createServer((req, res) => void handler(req, res)));
  }
  const handler = createWebhookHandler(options);
  let origin = "";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const response = await handler(await toRequest(req, origin));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  const url = await listen(server);
  origin = new URL(url).origin;
  return url;
}

async function post(url: string, body: string | Uint8Array, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: "POST", headers, body: typeof body === "string" ? body : new Uint8Array(body) });
  return { status: response.status, body: await response.json() };
}

interface Recorder {
  events: unknown[];
  errors: [string, WebhookErrorContext][];
  options: WebhookHandlerOptions<TestEvent, "event_type">;
}

function recorder(kindOptions: Partial<WebhookHandlerOptions<TestEvent, "event_type">> = {}): Recorder {
  const events: unknown[] = [];
  const errors: [string, WebhookErrorContext][] = [];
  return {
    events,
    errors,
    options: {
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      on: {
        "document.processed": (event, delivery) => {
          expectTypeOf(event).toEqualTypeOf<DocumentProcessedEvent>();
          expectTypeOf(delivery).toEqualTypeOf<DeliveryInfo>();
          events.push(event);
        },
        "document.deleted": (event) => {
          expectTypeOf(event.data.delete_mode).toEqualTypeOf<"trash" | "instant" | undefined>();
          events.push(event);
        },
      },
      onUnknown: (event) => {
        expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
        events.push(event);
      },
      onError: (error, context) => errors.push([error instanceof Error ? error.name : String(error), context]),
      ...kindOptions,
    },
  };
}

const variants: [Kind, "node" | "webcrypto"][] = [
  ["web", "node"],
  ["web", "webcrypto"],
  ["node", "node"],
  ["node", "webcrypto"],
];

describe.each(variants)("%s handler over HTTP on 127.0.0.1 (HMAC via %s)", (kind, crypto) => {
  it("processes a valid delivery with the typed callback", async () => {
    const f = fixture("pretty-printed document.deleted delivery with trailing newline");
    // The clock of the fixture's signing time, inside the replay window of both deliveries.
    const r = recorder({ crypto, now: signedAt(f.body) });
    const url = await start(kind, r.options);
    const body = eventBody({ timestamp: new Date(signedAt(f.body)()).toISOString() });
    expect(await post(url, body, await deliveryHeaders(body))).toEqual({ status: 200, body: { status: "processed" } });
    expect(r.events).toEqual([JSON.parse(body)]);

    const headers = await deliveryHeaders(f.body);
    expect(headers["X-Service-Signature"]).toBe(f.signature);
    expect((await post(url, new TextEncoder().encode(f.body), headers)).status).toBe(200);
    expect((r.events[1] as DocumentDeletedEvent).data.delete_mode).toBe("trash");
  });

  it("answers 401 on a signature mismatch without calling any callback", async () => {
    const r = recorder({ crypto });
    const url = await start(kind, r.options);
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const tampered = body.replace('"pofid":"POF-1"', '"pofid":"POF-2"');
    expect(await post(url, tampered, headers)).toEqual({ status: 401, body: { error: "signature_mismatch" } });
    expect(await post(url, body, await deliveryHeaders(body, "wrong secret"))).toMatchObject({ status: 401 });
    const { "X-Service-Signature": _s, ...unsigned } = headers;
    expect(await post(url, body, unsigned)).toEqual({ status: 401, body: { error: "missing_header" } });
    expect(await post(url, body, { ...headers, "X-Service-Signature": headers["X-Service-Signature"]!.slice(0, -2) })).toEqual({
      status: 401,
      body: { error: "malformed_header" },
    });
    expect(r.events).toEqual([]);
    expect(r.errors.map(([name, context]) => [name, context.stage, context.status])).toEqual([
      ["SignatureMismatchError", "verify", 401],
      ["SignatureMismatchError", "verify", 401],
      ["MissingHeaderError", "verify", 401],
      ["MalformedHeaderError", "verify", 401],
    ]);
    // The rejected copies did not claim the event id: the genuine delivery is still processed.
    expect(await post(url, body, headers)).toEqual({ status: 200, body: { status: "processed" } });
  });

  it("answers 400 for a correctly signed body that is not a valid event", async () => {
    const r = recorder({ crypto });
    const url = await start(kind, r.options);
    for (const body of ["not json", "[]", '{"event_type":"document.processed"}']) {
      const headers = { ...(await deliveryHeaders(body)), "X-Service-Event-ID": "9f86d081884c7d659a2feaa0c55ad015" };
      expect(await post(url, body, headers)).toEqual({ status: 400, body: { error: "invalid_payload" } });
    }
    expect(r.events).toEqual([]);
  });

  it("answers 409 to a copy that arrives while the first runs, and duplicate only after it succeeded", async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const url = await start(kind, {
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      crypto,
      on: {
        "document.processed": async () => {
          calls++;
          await gate;
        },
      },
    });
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    const first = post(url, body, headers);
    while (calls === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    // Not acknowledged while the first copy runs: if it failed, a 2xx here would lose the event.
    expect(await post(url, body, headers)).toEqual({ status: 409, body: { error: "in_progress" } });
    release();
    expect(await first).toEqual({ status: 200, body: { status: "processed" } });
    expect(await post(url, body, headers)).toEqual({ status: 200, body: { status: "duplicate" } });
    expect(calls).toBe(1);
  });

  it("answers 500 when the callback throws and processes the retry", async () => {
    let attempts = 0;
    const errors: string[] = [];
    const url = await start(kind, {
      secret: SECRET,
      knownEventTypes: KNOWN_EVENT_TYPES,
      signing: SIGNING,
      crypto,
      on: {
        "document.processed": () => {
          attempts++;
          if (attempts === 1) throw new Error("downstream unavailable");
        },
      },
      onError: (error) => errors.push((error as Error).message),
    });
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    expect(await post(url, body, headers)).toEqual({ status: 500, body: { error: "callback_failed" } });
    expect(await post(url, body, headers)).toEqual({ status: 200, body: { status: "processed" } });
    expect(attempts).toBe(2);
    expect(errors).toEqual(["downstream unavailable"]);
  });

  it("hands an unknown event type to onUnknown and acknowledges events without a callback", async () => {
    const f = fixture("event type not in the description (future event)");
    const r = recorder({ crypto, now: signedAt(f.body) });
    const url = await start(kind, r.options);
    expect(await post(url, f.body, await deliveryHeaders(f.body))).toEqual({ status: 200, body: { status: "processed" } });
    expect(r.events).toMatchObject([{ known: false, eventType: "document.archived_forever", event: JSON.parse(f.body) }]);

    const other = eventBody({
      event_type: "job.progress",
      event_id: "11111111111111111111111111111111",
      timestamp: new Date(signedAt(f.body)()).toISOString(),
      data: { percent: 50 },
    });
    expect(await post(url, other, await deliveryHeaders(other))).toEqual({ status: 200, body: { status: "ignored" } });
    expect(r.events).toHaveLength(1);
  });

  it("refuses other methods and oversized bodies", async () => {
    const r = recorder({ crypto, maxBodyBytes: 64 });
    const url = await start(kind, r.options);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const body = eventBody();
    expect(await post(url, body, await deliveryHeaders(body))).toEqual({ status: 413, body: { error: "body_too_large" } });
    expect(r.events).toEqual([]);
  });
});

describe("node handler body sources", () => {
  it("uses a raw Buffer body left by express.raw() and refuses an already parsed body with one typed error", async () => {
    const r = recorder();
    const handler = createNodeWebhookHandler(r.options);
    const url = await listen(
      createServer((req, res) => {
        void (async () => {
          const chunks: Buffer[] = [];
          for await (const chunk of req) chunks.push(chunk as Buffer);
          const raw = Buffer.concat(chunks);
          // /raw imitates express.raw(), /json imitates express.json().
          (req as { body?: unknown }).body = req.url === "/raw" ? raw : JSON.parse(raw.toString("utf8"));
          await handler(req, res);
        })();
      }),
    );
    const body = eventBody();
    const headers = await deliveryHeaders(body);
    expect(await post(new URL("/raw", url).href, body, headers)).toEqual({ status: 200, body: { status: "processed" } });
    expect(await post(new URL("/json", url).href, body, headers)).toEqual({ status: 500, body: { error: "body_not_raw" } });
    expect(r.errors.map(([name, context]) => [name, context.stage, context.status])).toEqual([["RawBodyRequiredError", "request", 500]]);
    expect(r.events).toHaveLength(1);
  });
});

describe("callback typing", () => {
  it("narrows each callback to its event type", () => {
    type Callbacks = WebhookEventCallbacks<TestEvent, "event_type">;
    expectTypeOf<Parameters<NonNullable<Callbacks["document.processed"]>>[0]>().toEqualTypeOf<DocumentProcessedEvent>();
    expectTypeOf<Parameters<NonNullable<Callbacks["document.deleted"]>>[0]>().toEqualTypeOf<DocumentDeletedEvent>();
    expectTypeOf<keyof Callbacks>().toEqualTypeOf<(typeof KNOWN_EVENT_TYPES)[number]>();
    const callbacks: Callbacks = {
      // @ts-expect-error: a callback for a name that is not an event type
      "document.unknown": () => {},
    };
    expect(callbacks).toBeDefined();
  });
});
