// The Go modules of the matrix's Go shapes (test/matrix/descriptions/go-*.yaml): recursion through allOf, and nullable
// fields in OpenAPI 3.0's and 3.1's forms, and unions. Each is gofmt-clean and clean under go vet and staticcheck, and a Go test
// program (e2e/*_e2e_test.go, in a module beside the generated one) calls it over HTTP on 127.0.0.1: a reference in
// an allOf is the named type, a PATCH sends an explicit null and leaves unset fields out, and a required nullable
// field answered null reads as null; a union is constructed, sent, decoded and switched on, and a value of no member
// is an error naming it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../../generator/generate.js";
import { REPO_ROOT, ensureGoTools } from "../../../scripts/setup/go-tools.mjs";
import { goEmitter } from "../emit/index.js";
import { expectGoClean, goTestE2e, writeE2eModule, writeGoWorkspace } from "./go-module.js";

const LIMIT = 600_000;
const DESCRIPTIONS = join(REPO_ROOT, "test", "matrix", "descriptions");

/** Each description with the module the Go test program imports and the program. */
const CASES = [
  { description: "go-allof-recursion", module: "example.com/allof-sdk-go", package: "allof", program: "allof_e2e_test.go" },
  { description: "go-nullable-30", module: "example.com/nullable-sdk-go", package: "nullable", program: "nullable_e2e_test.go" },
  { description: "go-nullable-31", module: "example.com/nullable-sdk-go", package: "nullable", program: "nullable_e2e_test.go" },
  { description: "go-unions", module: "example.com/unions-sdk-go", package: "unions", program: "unions_e2e_test.go" },
] as const;

describe("Go modules of the Go shapes", () => {
  let base = "";
  let staticcheck = "";
  const types = new Map<string, string>();

  beforeAll(async () => {
    staticcheck = (await ensureGoTools()).staticcheck ?? "";
    base = await mkdtemp(join(tmpdir(), "go-shapes-"));
    for (const c of CASES) {
      const { files } = await generate(join(DESCRIPTIONS, `${c.description}.yaml`), {
        emitters: [goEmitter({ module: c.module, package: c.package })],
      });
      types.set(c.description, String(files.find((f) => f.path === "go/types.go")?.content ?? ""));
      const dir = join(base, c.description);
      await writeGoWorkspace(dir, files, ["e2e"]);
      await writeE2eModule(dir, c.program, [`${c.module} v0.0.0`]);
    }
  }, LIMIT);

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  it("an allOf of one reference and a description is that named type, with the description as the field's doc", () => {
    const code = types.get("go-allof-recursion")!;
    expect(code).toContain(
      '\t// Condition is "condition".\n\t//\n\t// The condition the property depends on.\n\tCondition *Property `json:"condition,omitempty"`',
    );
    expect(code).toContain('\tBindings []Property `json:"bindings,omitempty"`');
    expect(code).toContain('\t// Owner is "owner".\n\t//\n\t// Who owns the leaf.\n\tOwner *Owner `json:"owner,omitempty"`');
    // An allOf that adds a property is a struct of its own, declared once however often the recursion meets it.
    expect(code.match(/^type PropertyWeighted struct/gm)).toHaveLength(1);
    expect(code).toContain('\tWeighted *PropertyWeighted `json:"weighted,omitempty"`');
  });

  it.each(["go-nullable-30", "go-nullable-31"])("%s: nullable fields are sdkruntime.Nullable, omitzero when optional", (description) => {
    const code = types.get(description)!;
    for (const line of [
      '\tDue sdkruntime.Nullable[string] `json:"due"`',
      '\tOwner sdkruntime.Nullable[Person] `json:"owner"`',
      '\tNote sdkruntime.Nullable[string] `json:"note,omitzero"`',
      '\tRank sdkruntime.Nullable[int64] `json:"rank,omitzero"`',
      '\tState sdkruntime.Nullable[TaskState] `json:"state,omitzero"`',
      '\tTags sdkruntime.Nullable[[]string] `json:"tags,omitzero"`',
      '\tParent sdkruntime.Nullable[Task] `json:"parent,omitzero"`',
      '\tTitle *string `json:"title,omitempty"`',
    ]) {
      expect(code).toContain(line);
    }
  });

  it.each(CASES.map((c) => c.description))(
    "%s is gofmt-clean and passes go vet and staticcheck",
    async (description) => {
      await expectGoClean(join(base, description), staticcheck);
    },
    LIMIT,
  );

  it.each(CASES.map((c) => c.description))(
    "%s: the Go test program passes against a local server",
    async (description) => {
      const outcome = await goTestE2e(join(base, description));
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).not.toContain("--- FAIL");
      expect(outcome.output).toContain(
        description === "go-allof-recursion"
          ? "--- PASS: TestAnAllOfOfOneReferenceIsTheNamedType"
          : description === "go-unions"
            ? "--- PASS: TestAValueOfNoMemberIsAnErrorNamingTheUnion"
            : "--- PASS: TestRequiredNullableFieldsReadNullAsNull",
      );
    },
    LIMIT,
  );

  it("inline objects nested deeper than the emitter goes fail with the schema's pointer, not a stack overflow", async () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 260; i++) deep = { type: "object", properties: { next: deep } };
    const description = {
      openapi: "3.0.3",
      info: { title: "Go Deep", version: "1.0.0" },
      paths: {},
      components: { schemas: { "Deep/One": deep } },
    };
    const file = join(base, "deep.json");
    await writeFile(file, JSON.stringify(description));
    await expect(generate(file, { emitters: [goEmitter()] })).rejects.toThrow(
      /^go: the schema #\/components\/schemas\/Deep~1One nests inline objects more than 200 deep \(/,
    );
  });
});
