// The name planners: every generated name against the runtime's exports, the output's own names and each other.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PY_CLIENT_IMPORTS, PY_CLIENT_MEMBERS, PY_ERRORS_NAMES, PY_TYPES_NAMES, planPythonNames } from "../../targets/python/emit/names.js";
import { RUNTIME_EXPORTS } from "../../targets/typescript/emit/runtime-exports.js";
import { MAX_FILE_NAME, planTsNames } from "../../targets/typescript/emit/names.js";
import { pythonView } from "../../targets/python/emit/view.js";
import { goErrorNames } from "../../targets/go/emit/view.js";
import { buildIR } from "../../generator/ir/build.js";
import { uniqueIdentifiers } from "../../generator/ir/names.js";
import type { IR } from "../../generator/ir/types.js";
import { checkDescription, loadDescription } from "../../generator/spec/load.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };

async function irOf(
  operationIds: readonly string[],
  errorCodes: readonly (string | { readonly code: string; readonly description: string })[] = [],
  schemaNames: readonly string[] = [],
): Promise<IR> {
  const paths = Object.fromEntries(operationIds.map((id, i) => [`/p${i}`, { get: { operationId: id, responses: ok } }]));
  // Error codes are the consts of a oneOf with their HTTP status.
  const schemas = {
    ErrorCode: {
      oneOf: errorCodes.map((e) =>
        typeof e === "string" ? { const: e, "x-http-status": 400 } : { const: e.code, "x-http-status": 400, description: e.description },
      ),
    },
    ...Object.fromEntries(schemaNames.map((name) => [name, { type: "object" }])),
  };
  const document = { openapi: "3.1.0", info: { title: "names", version: "1" }, paths, components: { schemas } };
  return buildIR(await checkDescription({ source: "names.json", text: JSON.stringify(document), document }));
}

describe("error-code names across languages", () => {
  it("give one code one stem: the class in TypeScript and Python, `Err` and the stem without `Error` in Go", async () => {
    const codes = [
      "INTERNAL_ERROR",
      { code: "BEARERTOKEN_EXPIRED", description: "The bearer token expired." },
      "NOT_FOUND",
      "RATE_LIMIT_EXCEEDED",
      "INVALID_REQUEST",
      "SERVICE",
    ];
    const ir = await irOf(["op"], codes);
    const table = ["INTERNAL_ERROR", "BEARERTOKEN_EXPIRED", "NOT_FOUND", "RATE_LIMIT_EXCEEDED", "INVALID_REQUEST", "SERVICE"].map(
      (code) => [code, planTsNames(ir).errorClass(code), planPythonNames(ir).errorClass(code), goErrorNames(ir).get(code)],
    );
    expect(table).toEqual([
      ["INTERNAL_ERROR", "InternalError", "InternalError", "ErrInternal"],
      ["BEARERTOKEN_EXPIRED", "BearerTokenExpiredError", "BearerTokenExpiredError", "ErrBearerTokenExpired"],
      ["NOT_FOUND", "NotFoundCodeError", "NotFoundCodeError", "ErrNotFoundCode"],
      ["RATE_LIMIT_EXCEEDED", "RateLimitExceededError", "RateLimitExceededError", "ErrRateLimitExceeded"],
      ["INVALID_REQUEST", "InvalidRequestError", "InvalidRequestError", "ErrInvalidRequest"],
      ["SERVICE", "ServiceCodeError", "ServiceCodeError", "ErrServiceCode"],
    ]);
  });
});

describe("the TypeScript name planner", () => {
  it.each([
    { given: ["createClient"], want: ["createClient2"] },
    { given: ["isBrowser"], want: ["isBrowser2"] },
    { given: ["serviceModel"], want: ["serviceModel2"] },
    { given: ["get", "getOperation"], want: ["get", "getOperation"] },
    { given: ["get-item", "GetItem", "getItem"], want: ["getItem3", "getItem2", "getItem"] },
    { given: ["checkSubscription"], want: ["checkSubscription2"] },
  ])("operations $given are named $want", async ({ given, want }) => {
    const ir = await irOf(given);
    const names = planTsNames(ir);
    expect(given.map((id) => names.operation(ir.operations.find((o) => o.id === id)!))).toEqual(want);
  });

  it("keeps an operation's private constant apart from another operation's function", async () => {
    const ir = await irOf(["get", "getOperation"]);
    const names = planTsNames(ir);
    const [get, getOperation] = ["get", "getOperation"].map((id) => ir.operations.find((o) => o.id === id)!);
    const all = [names.operation(get!), names.operation(getOperation!), names.spec(get!), names.spec(getOperation!)];
    expect(new Set(all).size).toBe(4);
  });

  it.each([
    // A class of the error tree (the service base, a status class) gets `Code` before `Error`, as in every language.
    { given: "SERVICE", want: "ServiceCodeError" },
    { given: "NOT_FOUND", want: "NotFoundCodeError" },
    { given: "RATE_LIMIT", want: "RateLimitCodeError" },
    { given: "INTERNAL_SERVER_ERROR", want: "InternalServerCodeError" },
    // Another runtime name gets the lowest free number.
    { given: "SDK", want: "SdkError2" },
    { given: "ABORTED", want: "AbortedError2" },
    { given: "invalid-request", want: "InvalidRequestError" },
    // A last word `error` is not said twice.
    { given: "INTERNAL_ERROR", want: "InternalError" },
    { given: "GATEWAY_ERROR", want: "GatewayError" },
    { given: "ERROR", want: "ErrorError" },
    { given: "SERVICE_ERROR", want: "ServiceCodeError" },
    // Without words of the description to split it by, a run-together word stays one.
    { given: "BEARERTOKEN_EXPIRED", want: "BearertokenExpiredError" },
    { given: "NOTFOUND", want: "NotfoundError" },
  ])("error code $given gets class $want", async ({ given, want }) => {
    const ir = await irOf(["op"], [given]);
    expect(planTsNames(ir).errorClass(given)).toBe(want);
  });

  it.each([
    // Split by the words of another code's description; the code quoted in capitals is not prose.
    { given: "BEARERTOKEN_EXPIRED", text: "No bearer token; see BEARERTOKEN_EXPIRED.", want: "BearerTokenExpiredError" },
    // Split by another code's words.
    { given: "NOTALLOWED", text: "", others: ["NOT_FOUND", "PAGE_ALLOWED"], want: "NotAllowedError" },
    // Split, then a class of the error tree: `Code` before `Error`.
    { given: "NOTFOUND", text: "", others: ["NOT_ALLOWED", "PAGE_FOUND"], want: "NotFoundCodeError" },
    // A word the text has whole stays whole, even where it could be split.
    { given: "FORBIDDEN", text: "Forbidden for the bidden.", want: "ForbiddenError" },
    // Pieces shorter than three letters do not split a word.
    { given: "INVALID_INTO", text: "in to it", want: "InvalidIntoError" },
    // Only a split into known words entirely: `overrun` is not `over` + `run` when `run` is unknown.
    { given: "QUOTA_OVERRUN", text: "over the quota", want: "QuotaOverrunError" },
    { given: "APIKEY_REVOKED", text: "The api key was revoked.", want: "ApiKeyRevokedError" },
  ])("error code $given beside the text $text gets class $want", async ({ given, text, others = [], want }) => {
    const ir = await irOf(["op"], [given, ...others, ...(text === "" ? [] : [{ code: "OTHER", description: text }])]);
    expect(planTsNames(ir).errorClass(given)).toBe(want);
  });

  it("names an error-code union per tag and set of codes", async () => {
    const op = (id: string, tags: readonly string[], codes: readonly string[]) => ({
      operationId: id,
      ...(tags.length > 0 && { tags }),
      responses: {
        ...ok,
        ...(codes.length > 0 && {
          "400": {
            description: "error",
            content: { "application/json": { schema: { type: "object", properties: { code: { enum: codes } } } } },
          },
        }),
      },
    });
    const operations = [
      op("listA", ["alpha"], ["X", "Y"]),
      op("getA", ["alpha"], ["X", "Y"]),
      op("addA", ["alpha"], ["X"]),
      op("getB", ["beta"], ["X", "Y"]),
      op("untagged", [], ["Y"]),
      op("quiet", ["alpha"], []),
    ];
    const paths = Object.fromEntries(operations.map((o, i) => [`/p${i}`, { get: o }]));
    const schemas = { ErrorCode: { oneOf: ["X", "Y"].map((code) => ({ const: code, "x-http-status": 400 })) } };
    const document = { openapi: "3.1.0", info: { title: "names", version: "1" }, paths, components: { schemas } };
    const ir = buildIR(await checkDescription({ source: "names.json", text: JSON.stringify(document), document }));
    const names = planTsNames(ir);
    const byId = Object.fromEntries(ir.operations.map((o) => [o.id, names.errorUnion(o)]));
    const codes = Object.fromEntries(names.errorUnions().map((u) => [u.name, u.codes]));
    expect({ byId, codes }).toEqual({
      byId: {
        listA: "AlphaErrorCode",
        getA: "AlphaErrorCode",
        addA: "AddAErrorCode",
        getB: "BetaErrorCode",
        untagged: "UntaggedErrorCode",
        quiet: undefined,
      },
      codes: { AlphaErrorCode: ["X", "Y"], AddAErrorCode: ["X"], BetaErrorCode: ["X", "Y"], UntaggedErrorCode: ["Y"] },
    });
  });

  it.each([
    { given: "../../x", want: /^x$/ },
    { given: "a/b\\c", want: /^aBC$/ },
    { given: "x".repeat(300), want: new RegExp(`^x{${MAX_FILE_NAME - 9}}_[0-9a-f]{8}$`) },
  ])("operationId $given.length chars makes file name $want", async ({ given, want }) => {
    const ir = await irOf([given]);
    const file = planTsNames(ir).fileName(ir.operations[0]!);
    expect(file).toMatch(want);
    expect(file.length).toBeLessThanOrEqual(MAX_FILE_NAME);
  });

  it("gives names that differ only in case different file names", async () => {
    const ir = await irOf(["a".repeat(100), `${"a".repeat(99)}A`]);
    const names = planTsNames(ir);
    const files = ir.operations.map((o) => names.fileName(o).toLowerCase());
    expect(new Set(files).size).toBe(2);
  });

  it("names a schema whose name another export has <Name>Schema", async () => {
    // The error codes' schema is named ErrorCode, as errors.ts's union of the codes is.
    const ir = await irOf(["op"], ["X"]);
    expect(planTsNames(ir).schema("ErrorCode")).toBe("ErrorCodeSchema");
  });

  it.each([
    { given: "ExactBody", want: "ExactBodySchema" },
    { given: "JobPayloadOf", want: "JobPayloadOfSchema" },
    { given: "UnknownFields", want: "UnknownFieldsSchema" },
    { given: "JobRequests", want: "JobRequestsSchema" },
    { given: "Omit", want: "OmitSchema" },
    { given: "Error", want: "ErrorSchema" },
    // The old name of the job options' type is free again.
    { given: "OptionsUnlessUnknown", want: "OptionsUnlessUnknown" },
  ])("a schema $given, beside the names the output declares itself, is $want", async ({ given, want }) => {
    const ir = await irOf(["op"], [], [given]);
    expect(planTsNames(ir).schema(given)).toBe(want);
  });

  it.each([
    // A pipeline's one variant without a discriminator is the pipeline's body, named once.
    { slug: "service_voice___tts", variant: "default", want: ["ServiceVoiceTtsRequest", "ServiceVoiceTtsRequest"] },
    {
      slug: "service_dataripper___redact_image",
      variant: "default",
      want: ["ServiceDataripperRedactImageRequest", "ServiceDataripperRedactImageRequest"],
    },
    // One chosen by a discriminator keeps its own name beside the pipeline's union.
    {
      slug: "service_aiocr___generate",
      variant: "us_tax_forms",
      want: ["ServiceAiocrGenerateUsTaxFormsRequest", "ServiceAiocrGenerateRequest"],
    },
    { slug: "workflow", variant: "pdf_ai_split", want: ["WorkflowPdfAiSplitRequest", "WorkflowRequest"] },
  ])("pipeline $slug, variant $variant: request types $want", async ({ slug, variant, want }) => {
    const ir = buildIR(await loadDescription(releaseFile(currentRelease())));
    const names = planTsNames(ir);
    const pipeline = ir.operations.flatMap((o) => o.variants?.pipelines ?? []).find((p) => p.slug === slug)!;
    const v = pipeline.variants.find((x) => x.name === variant)!;
    expect([names.variantRequest(pipeline, v), names.pipelineRequest(pipeline)]).toEqual(want);
  });

  it("is deterministic", async () => {
    const ids = ["get", "getOperation", "createClient", "get-item", "GetItem", "getItem"];
    const [a, b] = await Promise.all([irOf(ids, ["SERVICE"]), irOf([...ids].reverse(), ["SERVICE"])]);
    const plan = (ir: IR) => {
      const names = planTsNames(ir);
      return Object.fromEntries(ir.operations.map((o) => [o.id, [names.operation(o), names.spec(o), names.params(o), names.fileName(o)]]));
    };
    expect(plan(a)).toEqual(plan(b));
  });
});

describe("uniqueIdentifiers", () => {
  it.each([
    { given: ["GetItem", "get-item", "getItem"], want: { GetItem: "getItem2", "get-item": "getItem3", getItem: "getItem" } },
    { given: ["b", "a"], want: { a: "a", b: "b" } },
  ])("$given", ({ given, want }) => {
    const camel = (s: string) => s.replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase()).replace(/^./, (c) => c.toLowerCase());
    expect(Object.fromEntries(uniqueIdentifiers(given, camel))).toEqual(want);
  });
});

describe("the lists the planners reserve", () => {
  it("RUNTIME_EXPORTS is exactly what runtime/index.ts exports", () => {
    const program = ts.createProgram([`${root}targets/typescript/runtime/index.ts`], {
      noEmit: true,
      strict: true,
      module: ts.ModuleKind.NodeNext,
    });
    const checker = program.getTypeChecker();
    const file = program.getSourceFile(`${root}targets/typescript/runtime/index.ts`)!;
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).map((s) => s.name);
    expect([...RUNTIME_EXPORTS].sort()).toEqual(exported.sort());
  });

  const template = (name: string) => readFileSync(`${root}targets/python/templates/${name}.hbs`, "utf8");
  const topLevel = (text: string) => [
    ...[...text.matchAll(/^(?:class|def) ([A-Za-z_]\w*)(?![\w{])/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/^([A-Za-z_]\w*)(?![\w{])\s*(?::[^=\n]*)?=/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/^import ([\w.]+)(?: as (\w+))?$/gm)].map((m) => m[2] ?? m[1]!.split(".")[0]!),
    ...[...text.matchAll(/^from \. import (\w+) as (\w+)$/gm)].map((m) => m[2]!),
    // `from pydantic import Field`, `from x import (A, B as C)` over several lines: each name as it is bound.
    ...[...text.matchAll(/^from (?!__future__ )[\w.]+ import (?:\(([^)]*)\)|(.+))$/gm)].flatMap((m) =>
      (m[1] ?? m[2]!)
        .split(",")
        .map((part) => part.trim().replace(/^.*\s+as\s+/, ""))
        .filter((name) => /^\w+$/.test(name)),
    ),
  ];

  it("the Python lists hold every top-level name the templates declare", () => {
    const errors = topLevel(template("errors.py")).filter((n) => !n.includes("{"));
    for (const name of errors) expect(PY_ERRORS_NAMES, `errors.py: ${name}`).toContain(name);
    const types = ["types.py", "types-base.py", "types-module.py", "models.py", "models-base.py", "models-module.py"].flatMap((t) =>
      topLevel(template(t)).filter((n) => n !== "annotations" && !n.includes("{")),
    );
    expect(types).toContain("JsonValue");
    for (const name of types) expect(PY_TYPES_NAMES, `types package: ${name}`).toContain(name);
    const client = template("client.py");
    const imports = [
      ...[...client.matchAll(/^import ([\w.]+)(?: as (\w+))?$/gm)].map((m) => m[2] ?? m[1]!.split(".")[0]!),
      ...[...client.matchAll(/^from \. import \w+ as (\w+)$/gm)].map((m) => m[1]!),
    ];
    expect(imports.length).toBeGreaterThan(0);
    for (const name of imports) expect(PY_CLIENT_IMPORTS, `client.py imports ${name}`).toContain(name);
    const publicMethods = [...client.matchAll(/^ {4}def ([a-z]\w*)\(/gm)].map((m) => m[1]!).filter((n) => !n.includes("{"));
    const clientClass = client.slice(client.indexOf("class Client"));
    for (const name of publicMethods.filter((n) => clientClass.includes(`def ${n}(`)))
      expect(PY_CLIENT_MEMBERS, `Client.${name}`).toContain(name);
  });

  it("the Python view keeps error classes clear of errors.py's own names", async () => {
    const ir = await irOf(["op"], ["SERVICE", "SDK", "DEADLINE_EXCEEDED", "SERVICE_CONNECTION"]);
    const view = pythonView(ir).data as { errors: { className: string }[] };
    const classes = view.errors.map((e) => e.className);
    for (const c of classes) expect(PY_ERRORS_NAMES).not.toContain(c);
    expect(new Set(classes).size).toBe(classes.length);
  });
});
