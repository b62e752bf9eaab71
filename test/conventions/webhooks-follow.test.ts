// The webhook helpers follow the description: a copy of the service's description whose signature header and one
// subscription field are renamed gives a client that verifies deliveries signed under the new header and reports
// the new field, with the same runtime. And the runtime's sources hold none of the webhook names the description
// states: they reach it through the generated model only.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { generate, writeFiles } from "../../generator/generate.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import {
  type ClientOptions,
  type Runtime,
  SubscriptionCheckError,
  type SubscriptionRules,
  type WebhookSigningModel,
} from "../../targets/typescript/runtime/index.js";
import {
  MissingHeaderError,
  type VerifiedEvent,
  type WebhookHeaders,
  type WebhookOutcome,
} from "../../targets/typescript/runtime/webhooks/index.js";

const runtimeDir = fileURLToPath(new URL("../../targets/typescript/runtime/", import.meta.url));
const OLD_SIGNATURE = "X-Service-Signature";
const NEW_SIGNATURE = "X-Acme-Body-Signature";
const OLD_FIELD = "max_retries";
const NEW_FIELD = "attempt_limit";

interface GeneratedClient {
  createClient(options: ClientOptions): Runtime;
  subscribeWebhook(client: Runtime, body: Record<string, unknown>): Promise<unknown>;
  subscriptionRules: Omit<SubscriptionRules, "allowLoopback">;
}

interface GeneratedWebhooks {
  webhookSigning: WebhookSigningModel;
  verify(rawBody: string, headers: WebhookHeaders, secret: string): Promise<VerifiedEvent<{ event_type: string }>>;
  signWebhook(body: string, secret: string): Promise<string>;
  createWebhookProcessor(options: {
    secret: string;
    on: Record<string, () => void>;
  }): (rawBody: string, headers: WebhookHeaders) => Promise<WebhookOutcome>;
}

const SECRET = "whsec_follow_rename";
const EVENT_ID = "0123456789abcdef0123456789abcdef";
const delivery = JSON.stringify({
  event_type: "job.completed",
  event_id: EVENT_ID,
  // Signed now: the receivers' replay window (300 s by default) refuses older deliveries.
  timestamp: new Date().toISOString(),
  subscription_id: 7,
  data: {},
});

let base: string;
let client: GeneratedClient;
let hooks: GeneratedWebhooks;
let server: Server;
let origin: string;
let received = 0;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "conventions-webhooks-follow-"));
  const text = await readFile(releaseFile(currentRelease()), "utf8");
  // The header parameter and the signing names; the subscription bodies' property and the field names.
  const renamed = text.replaceAll(OLD_SIGNATURE, NEW_SIGNATURE).replaceAll(OLD_FIELD, NEW_FIELD);
  expect(renamed).not.toContain(OLD_SIGNATURE);
  expect(renamed).not.toContain(OLD_FIELD);
  const source = join(base, "renamed.yaml");
  await writeFile(source, renamed);
  const out = join(base, "client");
  const { files } = await generate(source, { languages: ["typescript"], outputs: [], ...withLocalRuntime(out) });
  await writeFiles(out, files);
  client = (await import(pathToFileURL(join(out, "index.ts")).href)) as GeneratedClient;
  hooks = (await import(pathToFileURL(join(out, "webhooks.ts")).href)) as GeneratedWebhooks;
  server = createServer((req, res) => {
    received++;
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end('{"status":"success","processing_time":"1ms"}');
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  if (base) await rm(base, { recursive: true, force: true });
});

describe("a renamed signature header", () => {
  it("reaches the regenerated model", () => {
    expect(hooks.webhookSigning.signature.header).toBe(NEW_SIGNATURE);
  });

  it("is where the regenerated client's verify reads the signature, with the same runtime", async () => {
    const headers = { [NEW_SIGNATURE]: await hooks.signWebhook(delivery, SECRET), "X-Service-Event-ID": EVENT_ID };
    const verified = await hooks.verify(delivery, headers, SECRET);
    expect(verified).toMatchObject({ known: true, eventId: EVENT_ID, eventType: "job.completed" });
  });

  it("is required: a delivery signed under the old header name is refused as unsigned", async () => {
    const headers = { [OLD_SIGNATURE]: await hooks.signWebhook(delivery, SECRET), "X-Service-Event-ID": EVENT_ID };
    const error = await hooks.verify(delivery, headers, SECRET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingHeaderError);
    expect(error).toMatchObject({ header: NEW_SIGNATURE, status: 401 });
  });

  it("is what the regenerated receiver checks", async () => {
    const processDelivery = hooks.createWebhookProcessor({ secret: SECRET, on: {} });
    const signed = await hooks.signWebhook(delivery, SECRET);
    expect(await processDelivery(delivery, { [NEW_SIGNATURE]: signed, "X-Service-Event-ID": EVENT_ID })).toMatchObject({ status: 200 });
    expect(await processDelivery(delivery, { [OLD_SIGNATURE]: signed, "X-Service-Event-ID": EVENT_ID })).toMatchObject({ status: 401 });
  });
});

describe("a renamed subscription field", () => {
  it("reaches the regenerated rules", () => {
    expect(client.subscriptionRules.fields.maxRetries).toBe(NEW_FIELD);
  });

  it("is the field the regenerated client's check reports, before anything is sent", async () => {
    received = 0;
    const api = client.createClient({ baseUrl: `${origin}/latest`, token: "svc_sk_follow" });
    const body = { name: "n", url: "https://hooks.example.com/h", events: ["job.completed"], [NEW_FIELD]: 99 };
    // The check throws before a request exists, so the call itself throws.
    const error = await Promise.resolve()
      .then(() => client.subscribeWebhook(api, body))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SubscriptionCheckError);
    expect((error as SubscriptionCheckError).problems).toEqual([
      { field: NEW_FIELD, code: "out_of_range", message: expect.stringMatching(/^must be between 0 and 10$/) },
    ]);
    expect(received).toBe(0);
  });

  it("leaves the old name to the service: the open body is not checked under it", async () => {
    received = 0;
    const api = client.createClient({ baseUrl: `${origin}/latest`, token: "svc_sk_follow" });
    const body = { name: "n", url: "https://hooks.example.com/h", events: ["job.completed"], [OLD_FIELD]: 99 };
    await client.subscribeWebhook(api, body);
    expect(received).toBe(1);
  });
});

/** The texts of a source file's code: string and template parts, regular expressions and names; no comments. */
function codeTexts(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node) ||
      ts.isIdentifier(node) ||
      ts.isPrivateIdentifier(node)
    ) {
      out.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Header names are matched whatever their case (so are they by HTTP); field names as written. */
const mentions = (text: string, name: string): boolean =>
  name.includes("-") ? text.toLowerCase().includes(name.toLowerCase()) : text.includes(name);

describe("the runtime's sources", () => {
  it("hold none of the webhook header names, body fields or subscription fields the description states", async () => {
    const document = parse(await readFile(releaseFile(currentRelease()), "utf8")) as Record<string, Record<string, unknown>>;
    const conventions = document["x-paperoffice-conventions"] ?? {};
    const names = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value === "string") names.add(value);
      else if (typeof value === "object" && value !== null) Object.values(value).forEach(collect);
    };
    collect(conventions.webhooks);
    collect(conventions.webhookSubscription);
    // Names with a hyphen, an underscore or an equals sign are not words code uses for itself (url, events, name are).
    const specific = [...names].filter((n) => /[-_=]/.test(n));
    expect(specific).toEqual(expect.arrayContaining([OLD_SIGNATURE, "X-Service-Event-ID", "event_type", "event_id", OLD_FIELD, "sha256="]));

    const found: string[] = [];
    for (const dir of [runtimeDir, join(runtimeDir, "webhooks")]) {
      for (const file of (await readdir(dir)).filter((f) => f.endsWith(".ts"))) {
        for (const text of codeTexts(file, await readFile(join(dir, file), "utf8"))) {
          for (const name of specific) if (mentions(text, name)) found.push(`${file}: ${name} in ${JSON.stringify(text)}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
