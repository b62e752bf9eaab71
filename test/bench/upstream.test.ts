// The changes proposed to dependencies (scripts/bench/upstream.ts) still apply to the installed versions and change
// no result. openapi-fetch: a call through the changed module sends what the installed one sends (method, URL,
// headers, body) and reads the answer alike; with middleware registered, fetch still gets a Request.
// openapi-typescript: createRef and scanDiscriminators give the same pointers, discriminators and changed document.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import installed from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { applyEdits, changedOpenapiFetchText, changedOpenapiTypescriptUtils } from "../../scripts/bench/upstream.js";

type CreateClient = typeof installed;

interface Sent {
  readonly input: string;
  readonly method: string;
  readonly url: string;
  readonly headers: [string, string][];
  readonly body: string;
}

/** A fetch that records what it is asked to send (read as fetch itself reads it) and answers with `answer`. */
function recorder(answer: () => Response) {
  const sent: Sent[] = [];
  const fetch = async (input: Request | string, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push({
      input: typeof input === "string" ? "url" : "Request",
      method: request.method,
      url: request.url,
      headers: [...request.headers].sort(([a], [b]) => a.localeCompare(b)),
      body: await request.text(),
    });
    return answer();
  };
  return { sent, fetch };
}

let dir: string;
let changed: CreateClient;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "upstream-"));
  const file = join(dir, "openapi-fetch.changed.mjs");
  await writeFile(file, await changedOpenapiFetchText());
  changed = ((await import(pathToFileURL(file).href)) as { default: CreateClient }).default;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("applyEdits", () => {
  it("says which text is missing or found more than once", () => {
    expect(applyEdits("a b a", [{ find: "b", put: "c" }], "x")).toBe("a c a");
    expect(() => applyEdits("a b", [{ find: "z", put: "c" }], "the file")).toThrow('the file: not found: "z"');
    expect(() => applyEdits("a b a", [{ find: "a", put: "c" }], "the file")).toThrow('the file: found more than once: "a"');
  });
});

describe("openapi-fetch as the proposal changes it", () => {
  const calls = async (createClient: CreateClient, withMiddleware: boolean) => {
    const { sent, fetch } = recorder(() => Response.json({ id: "job_1", tags: ["a"] }));
    const client = createClient<never>({ baseUrl: "http://127.0.0.1:9/v1/", fetch, headers: { Authorization: "Bearer t" } });
    if (withMiddleware)
      client.use({
        onRequest: ({ request }) => {
          request.headers.set("X-Seen", "yes");
          return request;
        },
      });
    const loose = client as unknown as {
      GET(path: string, init: object): Promise<{ data?: unknown; error?: unknown }>;
      POST(path: string, init: object): Promise<{ data?: unknown; error?: unknown }>;
      HEAD(path: string, init: object): Promise<{ data?: unknown; error?: unknown }>;
    };
    const answers = [
      await loose.GET("/job/get/{job_id}", { params: { path: { job_id: "a b/c" }, query: { limit: 5, tags: ["x", "y"] } } }),
      await loose.POST("/job/add", { body: { pipeline: "ocr", pages: [1, 2] }, headers: { "Idempotency-Key": "k1" } }),
      await loose.HEAD("/job/get/{job_id}", { params: { path: { job_id: "j" } } }),
    ];
    return { sent, answers: answers.map((a) => ({ data: a.data, error: a.error })) };
  };

  it("sends the same requests and reads the same answers, without a Request of its own when no middleware is registered", async () => {
    const before = await calls(installed, false);
    const after = await calls(changed, false);
    expect(after.sent.map(({ input, ...rest }) => rest)).toEqual(before.sent.map(({ input, ...rest }) => rest));
    expect(after.answers).toEqual(before.answers);
    expect(before.sent.map((s) => s.input)).toEqual(["Request", "Request", "Request"]);
    expect(after.sent.map((s) => s.input)).toEqual(["url", "url", "url"]);
    expect(after.sent[1]!.body).toBe('{"pipeline":"ocr","pages":[1,2]}');
  });

  it("still hands fetch a Request, changed by the middleware, when middleware is registered", async () => {
    const before = await calls(installed, true);
    const after = await calls(changed, true);
    expect(after.sent).toEqual(before.sent);
    expect(after.sent.map((s) => s.input)).toEqual(["Request", "Request", "Request"]);
    expect(after.sent[0]!.headers).toContainEqual(["x-seen", "yes"]);
  });
});

describe("openapi-typescript as the proposal changes it", () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  type Utils = {
    createRef(parts: readonly unknown[]): string;
    scanDiscriminators(document: unknown, options: object): unknown;
  };
  let copy: string;
  let before: Utils;
  let after: Utils;

  beforeAll(async () => {
    // Inside the repository, so that the copy's own dependencies resolve to its node_modules.
    await mkdir(join(root, ".tmp"), { recursive: true });
    copy = await mkdtemp(join(root, ".tmp", "upstream-ots-"));
    const pkg = join(copy, "node_modules", "openapi-typescript");
    await cp(join(root, "node_modules", "openapi-typescript"), pkg, { recursive: true });
    await writeFile(join(pkg, "dist", "lib", "utils.cjs"), await changedOpenapiTypescriptUtils());
    const require = createRequire(import.meta.url);
    before = require(join(root, "node_modules", "openapi-typescript", "dist", "lib", "utils.cjs")) as Utils;
    after = require(join(pkg, "dist", "lib", "utils.cjs")) as Utils;
  });

  afterAll(async () => {
    await rm(copy, { recursive: true, force: true });
  });

  it("makes the same pointers, the same parts again included", () => {
    const cases: unknown[][] = [
      ["#/paths/~1job~1get~1{job_id}", "get", "responses", "200"],
      ["#/components/schemas/a~1b", "properties", "x~y", 0, "items"],
      ["paths", "/users/{id}", "parameters", 3],
      ["#/paths/~1job~1get~1{job_id}", "get", "responses", "200"],
      ["components", "", undefined, null, "schemas", "percent%20name"],
      ["#/components/schemas/%7Bencoded%7D", 3, "3"],
      // Pointers that parsing and escaping change: empty segments, a trailing slash, `~` not followed by 0 or 1, a
      // document before `#`, a second `#/`.
      ["#/a//b", "c/"],
      ["#/a/b/", "~"],
      ["#/a~2b", "x~0~1"],
      ["other.yaml#/components/schemas/X", "y"],
      ["#/a/b#/c", "#"],
      ["#/", "#/", "a#/b"],
      [1, 2, "#/x/~0~1"],
    ];
    for (const parts of cases) expect(after.createRef(parts), JSON.stringify(parts)).toBe(before.createRef(parts));
  });

  it("finds the same discriminators and changes the document alike", async () => {
    const { readFileSync, readdirSync } = await import("node:fs");
    const releases = join(root, "spec", "releases");
    const last = readdirSync(releases)
      .filter((f) => f.endsWith(".yaml"))
      .sort()
      .at(-1)!;
    const text = readFileSync(join(releases, last), "utf8");
    // The service's description, and a small one with a oneOf mapping, allOf children and an inline allOf in a path.
    const small = {
      openapi: "3.1.0",
      paths: {
        "/pets": {
          get: {
            responses: {
              "200": {
                content: { "application/json": { schema: { allOf: [{ $ref: "#/components/schemas/Pet" }, { type: "object" }] } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Pet: {
            type: "object",
            discriminator: { propertyName: "kind", mapping: { cat: "#/components/schemas/Cat" } },
            oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }],
          },
          Cat: { allOf: [{ $ref: "#/components/schemas/Pet" }, { type: "object", properties: { purrs: { type: "boolean" } } }] },
          Dog: { type: "object", properties: { kind: { type: "string" } } },
          Kitten: { allOf: [{ $ref: "#/components/schemas/Cat" }] },
        },
      },
    };
    for (const document of [parse(text) as unknown, small, small.components]) {
      const a = structuredClone(document);
      const b = structuredClone(document);
      const found = before.scanDiscriminators(a, { silent: true });
      expect(after.scanDiscriminators(b, { silent: true })).toEqual(found);
      expect(b).toEqual(a);
      if (document === small)
        expect(Object.keys((found as { objects: object }).objects).sort()).toEqual([
          "#/components/schemas/Cat",
          "#/components/schemas/Kitten",
          "#/components/schemas/Pet",
          "#/paths/~1pets/get/responses/200/content/application~1json/schema",
        ]);
    }
  });
});
