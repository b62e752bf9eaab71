// What every client sends, decided once: the content a request body goes as (JSON first, else multipart, else
// urlencoded, else the first content as it is), and the header parameters OpenAPI says are ignored (Accept,
// Content-Type, Authorization), which the IR leaves out while any other, User-Agent too, stays.
import { describe, expect, it } from "vitest";
import { requestBodyContent } from "../../generator/emit/operation-files.js";
import { buildIR } from "../../generator/ir/build.js";
import type { IR } from "../../generator/ir/types.js";
import { checkDescription } from "../../generator/spec/load.js";

async function irOf(operation: Record<string, unknown>): Promise<IR> {
  const responses = { "204": { description: "done" } };
  const document = {
    openapi: "3.0.3",
    info: { title: "rules", version: "1" },
    paths: { "/x": { post: { operationId: "op", responses, ...operation } } },
  };
  return buildIR(await checkDescription({ source: "rules.json", text: JSON.stringify(document), document }));
}

const bodyOf = (...types: string[]) => ({
  requestBody: { content: Object.fromEntries(types.map((t) => [t, { schema: { type: "object" } }])) },
});

describe("requestBodyContent", () => {
  it.each([
    [["multipart/form-data", "application/x-www-form-urlencoded", "application/json"], "application/json"],
    [["application/x-www-form-urlencoded", "application/merge-patch+json"], "application/merge-patch+json"],
    [["application/vnd.a+json", "application/json"], "application/json"],
    [["application/x-www-form-urlencoded", "multipart/form-data"], "multipart/form-data"],
    [["text/plain", "application/x-www-form-urlencoded"], "application/x-www-form-urlencoded"],
    [["text/plain", "application/octet-stream"], "application/octet-stream"],
  ])("of %j is %s", async (types, chosen) => {
    const ir = await irOf(bodyOf(...types));
    expect(requestBodyContent(ir.operations[0]!)?.mediaType).toBe(chosen);
  });

  it("is undefined without a body", async () => {
    expect(requestBodyContent((await irOf({})).operations[0]!)).toBeUndefined();
  });
});

describe("header parameters", () => {
  it("leaves out Accept, Content-Type and Authorization in any case, and keeps User-Agent", async () => {
    const header = (name: string) => ({ name, in: "header", schema: { type: "string" } });
    const ir = await irOf({
      parameters: [header("User-Agent"), header("accept"), header("Content-Type"), header("AUTHORIZATION"), header("X-Trace")],
    });
    expect(ir.operations[0]?.parameters.header.map((p) => p.name)).toEqual(["User-Agent", "X-Trace"]);
  });
});
