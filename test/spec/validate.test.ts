import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkDescription, loadDescription } from "../../generator/spec/load.js";
import { SpecError } from "../../generator/spec/problems.js";
import { listReleases, releaseFile } from "../support/service-releases.js";
import { parseDescription } from "../../generator/spec/read.js";

const releases = listReleases();

describe.each(releases)("release %s", (id) => {
  it("is valid OpenAPI 3.1 with valid x-paperoffice-variants, and info.version is its id", async () => {
    const loaded = await loadDescription(releaseFile(id));
    expect(loaded.openapi).toBe("3.1");
    expect((loaded.document.info as { version: string }).version).toBe(id);
  });

  it("lints with Redocly CLI at zero errors", async () => {
    const run = promisify(execFile);
    const { stdout, stderr } = await run("npx", ["--no-install", "redocly", "lint", releaseFile(id), "--format=json"], {
      env: { ...process.env, NODE_NO_WARNINGS: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string; stderr: string }) => error);
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as { totals: { errors: number }; problems: { message: string }[] };
    expect(report.totals.errors, `${stderr}\n${report.problems.map((p) => p.message).join("\n")}`).toBe(0);
  });
});

/** Loads the current description, lets `mutate` break a copy, and returns the problems reported. */
async function problemsAfter(mutate: (doc: Json) => void): Promise<string[]> {
  const file = releaseFile(releases.at(-1)!);
  const text = await readFile(file, "utf8");
  const document = parseDescription(file, text);
  mutate(document);
  try {
    await checkDescription({ source: "broken.yaml", text, document });
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).problems.map((p) => `${p.pointer}: ${p.message}`);
  }
  return [];
}

// biome-ignore lint/suspicious/noExplicitAny: the mutations reach into arbitrary places of a parsed document
type Json = Record<string, any>;
const variants = (doc: Json) => doc.paths["/job/add/{pipeline}"].post["x-paperoffice-variants"];
const EXT = "/paths/~1job~1add~1{pipeline}/post/x-paperoffice-variants";

describe("a broken copy of the description fails with the JSON pointer of the problem", () => {
  it("a dangling $ref", async () => {
    const problems = await problemsAfter((doc) => {
      doc.paths["/job/get/{job_id}"].get.responses["200"].content["application/json"].schema.$ref = "#/components/schemas/Nope";
    });
    expect(problems).toEqual([
      '/paths/~1job~1get~1{job_id}/get/responses/200/content/application~1json/schema/$ref: points at "#/components/schemas/Nope", which does not exist',
    ]);
  });

  it("an external $ref, refused before anything follows it", async () => {
    const problems = await problemsAfter((doc) => {
      doc.paths["/job/get/{job_id}"].get.responses["200"] = { $ref: "elsewhere.yaml#/responses/ok" };
    });
    expect(problems).toEqual([
      '/paths/~1job~1get~1{job_id}/get/responses/200/$ref: external reference "elsewhere.yaml#/responses/ok" is not supported; bundle the description first',
    ]);
  });

  it("an unknown discriminator value", async () => {
    const problems = await problemsAfter((doc) => {
      variants(doc).pipelines[1].variants[2].discriminator.value = "pdf_ai_splitter";
    });
    expect(problems).toEqual([
      `${EXT}/pipelines/1/variants/2/discriminator/value: "pdf_ai_splitter" is not an allowed value of /components/schemas/WorkflowPdfAiSplitRequest/allOf/2/properties/template (allowed: pdf_ai_split)`,
    ]);
  });

  it("a variant pointing at a missing schema", async () => {
    const problems = await problemsAfter((doc) => {
      variants(doc).pipelines[0].variants[0].request.$ref = "#/components/schemas/Missing";
    });
    expect(problems).toEqual([
      `${EXT}/pipelines/0/variants/0/request/$ref: points at "#/components/schemas/Missing", which does not exist`,
    ]);
  });

  it("an extension that does not match its JSON Schema", async () => {
    const problems = await problemsAfter((doc) => {
      variants(doc).pipelines[0].payloadAfterPolling = "results";
      variants(doc).pipelines[2].variants[0].colour = "red";
    });
    expect(problems).toContain(`${EXT}/pipelines/0/payloadAfterPolling: x-paperoffice-variants must be equal to one of the allowed values`);
    expect(problems).toContain(`${EXT}/pipelines/2/variants/0: x-paperoffice-variants must NOT have additional properties ("colour")`);
  });

  it("a pipeline slug in dot notation", async () => {
    const problems = await problemsAfter((doc) => {
      variants(doc).pipelines[2].slug = "pdfstudio.unlock";
    });
    expect(problems).toContain(
      `${EXT}/pipelines/2/slug: x-paperoffice-variants must match pattern "^[a-z0-9]+(?:_[a-z0-9]+)*(?:___[a-z0-9]+(?:_[a-z0-9]+)*)?$"`,
    );
  });

  it("a duplicate variant name and a value that chooses two variants", async () => {
    const problems = await problemsAfter((doc) => {
      const workflow = variants(doc).pipelines[1];
      workflow.variants[1].name = "accounting_datev";
      workflow.variants[1].discriminator.value = "accounting_datev";
    });
    expect(problems).toContain(`${EXT}/pipelines/1/variants/1/name: variant "accounting_datev" is listed twice in pipeline "workflow"`);
    expect(problems).toContain(
      `${EXT}/pipelines/1/variants/1/discriminator: idp_collection=accounting_datev chooses two variants of this pipeline`,
    );
  });

  it("an exactly-one-of group that the request schema does not enforce, and a JSON-text field not declared as JSON", async () => {
    const problems = await problemsAfter((doc) => {
      const datev = variants(doc).pipelines[1].variants[0];
      datev.exactlyOne = [["file_1", "model"]];
      datev.jsonStrings = ["idp_fields", "pofid"];
    });
    expect(problems).toEqual([
      `${EXT}/pipelines/1/variants/0/exactlyOne/0: "model" is required by #/components/schemas/WorkflowAccountingDatevRequest, so it cannot be one of an "exactly one of" group`,
      `${EXT}/pipelines/1/variants/0/exactlyOne/0: #/components/schemas/WorkflowAccountingDatevRequest has no oneOf of required [file_1, model] to enforce this group`,
      `${EXT}/pipelines/1/variants/0/exactlyOne: #/components/schemas/WorkflowAccountingDatevRequest requires exactly one of [file_1, pofid]; list the group here`,
      `${EXT}/pipelines/1/variants/0/jsonStrings/1: /components/schemas/WorkflowAccountingDatevRequest/allOf/2/properties/pofid must declare contentMediaType: application/json`,
    ]);
  });

  it("priced lanes that differ from the lane enum", async () => {
    const problems = await problemsAfter((doc) => {
      delete variants(doc).pricing.laneMultipliers.instant;
    });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(
      /^\/paths\/~1job~1add~1\{pipeline\}\/post\/x-paperoffice-variants\/pipelines\/0\/variants\/0\/request\/\$ref: lanes of /,
    );
  });

  it("a webhook subscription mark with a value other than create or update", async () => {
    const problems = await problemsAfter((doc) => {
      doc.paths["/webhooks/subscribe"].post["x-paperoffice-webhook-subscription"] = "replace";
    });
    expect(problems).toEqual([
      '/paths/~1webhooks~1subscribe/post/x-paperoffice-webhook-subscription: x-paperoffice-webhook-subscription must be "create" or "update", found "replace"',
    ]);
  });

  it("a webhook subscription mark on an operation without a JSON request body", async () => {
    const problems = await problemsAfter((doc) => {
      doc.paths["/webhooks/list"].get["x-paperoffice-webhook-subscription"] = "update";
    });
    expect(problems).toEqual([
      "/paths/~1webhooks~1list/get/x-paperoffice-webhook-subscription: x-paperoffice-webhook-subscription needs a JSON request body; the operation has no request body",
    ]);
  });

  it("an OpenAPI schema violation is reported with its pointer", async () => {
    const problems = await problemsAfter((doc) => {
      doc.paths["/webhooks/list"].get.responses = "none";
    });
    expect(problems.some((p) => p.startsWith("/paths/~1webhooks~1list/get/responses"))).toBe(true);
  });

  it("an OpenAPI schema violation in an edited copy of a text already found valid (the check's cache follows the document)", async () => {
    const file = releaseFile(releases.at(-1)!);
    const text = await readFile(file, "utf8");
    await checkDescription({ source: "valid.yaml", text, document: parseDescription(file, text) });
    const problems = await problemsAfter((doc) => {
      doc.paths["/webhooks/list"].get.responses = "none";
    });
    expect(problems.some((p) => p.startsWith("/paths/~1webhooks~1list/get/responses"))).toBe(true);
  });
});
