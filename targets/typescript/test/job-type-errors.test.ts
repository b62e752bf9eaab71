// What tsc says about a job submission that does not compile: a misspelt field is named in the message (the call is
// reported against the signature over every pipeline, whose body is the pipeline's discriminated union, so that the
// excess-property check picks the variant by its discriminator), and an argument after the options is one too many.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ts } from "../emit/typescript.js";
import { REPO_ROOT } from "../../../test/support/readme-examples.js";

/** Each case's call, checked in a file of its own line; its diagnostics flattened to one text each. */
const CASES = {
  misspeltTemplateField: `addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1", naming_instructions: "x" });`,
  misspeltSharedField: `addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1", client_wiat: false });`,
  misspeltCollectionField: `startAddJob(client, "workflow", { idp_collection: "accounting_datev", model: "basic", pofid: "POF-1", idp_feilds: [] });`,
  misspeltVoiceField: `addJob(client, "service_voice___tts", { text: "Hallo", voice: "anna", gendre: "male" });`,
  fifthArgument: `addJob(client, "workflow", { template: "pdf_ai_split", pofid: "POF-1", extra: 1 }, undefined, "unknown field: extra");`,
} as const;

let dir: string;
const messages = new Map<string, string[]>();

beforeAll(async () => {
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, ".tmp", "job-type-errors-"));
  const index = join(REPO_ROOT, "generated", "index.js");
  const files: string[] = [];
  for (const [name, code] of Object.entries(CASES)) {
    const file = join(dir, `${name}.ts`);
    const header = `import { addJob, createClient, startAddJob } from ${JSON.stringify(index)};\nconst client = createClient({ baseUrl: "https://api.example.com/latest", token: "svc_sk_test" });\nvoid addJob;\nvoid startAddJob;\n`;
    await writeFile(file, `${header}${code}\n`);
    files.push(file);
  }
  const config = ts.readConfigFile(join(REPO_ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  for (const [name] of Object.entries(CASES)) {
    const source = program.getSourceFile(join(dir, `${name}.ts`));
    const diagnostics = source === undefined ? [] : [...program.getSemanticDiagnostics(source), ...program.getSyntacticDiagnostics(source)];
    messages.set(
      name,
      diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    );
  }
}, 120_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("a job submission's type errors", () => {
  it.each([
    { name: "misspeltTemplateField", field: "naming_instructions", meant: "naming_instruction" },
    { name: "misspeltSharedField", field: "client_wiat", meant: "client_wait" },
    { name: "misspeltCollectionField", field: "idp_feilds", meant: "idp_fields" },
    { name: "misspeltVoiceField", field: "gendre", meant: "gender" },
  ] as const)("names the misspelt field of $name ($field) and the one it may mean", ({ name, field, meant }) => {
    const found = messages.get(name) ?? [];
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(`'${field}' does not exist in type`);
    expect(found[0]).toContain(`Did you mean to write '${meant}'?`);
    // The message is about the body, not about another pipeline's slug.
    expect(found[0]).not.toMatch(/Argument of type '"workflow"'|Argument of type '"service_voice___tts"'/);
  });

  it("refuses an argument after the options, even one that spells the unknown-field marker", () => {
    const found = messages.get("fifthArgument") ?? [];
    expect(found).toEqual(["Expected 3-4 arguments, but got 5."]);
  });
});
