// The Example functions of the generated Go module of the current release (example_test.go): one per method of the
// Client that calls the service, all gofmt, go vet and staticcheck clean; go test runs them against the mock, each
// one with an Output line prints what it says and the mock sees no invalid request or answer; without the variable
// naming the service they are not run, and go test still passes.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envPrefix } from "../../../generator/emit/env-names.js";
import { generate } from "../../../generator/generate.js";
import type { IR } from "../../../generator/ir/types.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { ensureGoTools, REPO_ROOT } from "../../../scripts/setup/go-tools.mjs";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";
import { goEmitter } from "../emit/index.js";
import { goOperationPlans } from "../emit/view.js";
import { expectGoClean, generateGo, goRun, writeGoWorkspace } from "./go-module.js";

const LIMIT = 300_000;
const PREFIX = envPrefix("Document Automation Service");

/** The exported methods of Client a Go file of the module declares. */
const clientMethods = (code: string): string[] => [...code.matchAll(/^func \(c \*Client\) ([A-Z]\w*)\(/gm)].map((m) => m[1]!);

describe("Example functions of the generated Go module", () => {
  let dir = "";
  let mock: MockServer | undefined;
  let source = "";
  let methods: string[] = [];
  let ir: IR | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "go-examples-"));
    await writeGoWorkspace(dir, await generateGo(releaseFile(currentRelease())));
    source = await readFile(join(dir, "go", "example_test.go"), "utf8");
    // The methods that call the service: those of operations.go and jobs.go (WithOptions is the client's own).
    const declared = await Promise.all(["operations.go", "jobs.go"].map((f) => readFile(join(dir, "go", f), "utf8")));
    methods = declared.flatMap(clientMethods);
    ({ ir } = await generate(releaseFile(currentRelease()), { emitters: [] }));
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
  }, LIMIT);

  afterAll(async () => {
    await mock?.stop();
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  });

  const examples = (): string[] => [...source.matchAll(/^func Example(\w+)\(\) \{$/gm)].map((m) => m[1]!);

  it("has one Example per method of the client that calls the service, named ExampleClient_<Method>", () => {
    const plans = goOperationPlans(ir!);
    const pipelines = ir!.operations.flatMap((o) => o.variants?.pipelines ?? []);
    // Every operation's method and paged iterators, and Submit and Start of every pipeline, are among them.
    expect(plans.length).toBeGreaterThan(1);
    expect(pipelines.length).toBeGreaterThan(1);
    const fromIr = plans.flatMap((p) => [p.method, ...(p.paginate === undefined ? [] : [p.paginate, `${p.paginate}Pages`])]);
    expect(methods).toEqual(expect.arrayContaining(fromIr));
    expect(methods.filter((m) => /^Submit/.test(m))).toHaveLength(pipelines.length);
    expect(methods.filter((m) => /^Start/.test(m))).toHaveLength(pipelines.length);
    expect(examples().sort()).toEqual(methods.map((m) => `Client_${m}`).sort());
  });

  it("calls each method with a params struct, the body a typed literal, a paged read in a range loop", () => {
    const bodies = [...source.matchAll(/^\tbody := .+$|Body: .+$/gm)].length;
    expect(bodies).toBeGreaterThan(0);
    expect(source).not.toContain("json.Unmarshal");
    const paged = goOperationPlans(ir!).filter((p) => p.paginate !== undefined);
    expect(paged.length).toBeGreaterThan(0);
    for (const p of paged) expect(source).toContain(`for item, err := range client.${p.paginate}(`);
    for (const p of goOperationPlans(ir!).filter((x) => x.binary)) expect(source).toMatch(new RegExp(`client\\.${p.method}\\(.*, &buf\\)`));
  });

  it(
    "compiles: gofmt, go vet and staticcheck clean, and go test builds them",
    async () => {
      await expectGoClean(dir, (await ensureGoTools()).staticcheck ?? "");
      const outcome = await goRun(join(dir, "go"), "go", ["test", "-count=1", "-run", "^$", "./..."], { GOWORK: join(dir, "go.work") });
      expect(outcome.code, outcome.output).toBe(0);
    },
    LIMIT,
  );

  it(
    "runs them against the mock, each with an Output line passing, with no invalid request or answer",
    async () => {
      const withOutput = source.split(/^func /m).filter((f) => f.startsWith("Example") && f.includes("// Output:")).length;
      expect(withOutput).toBeGreaterThan(examples().length / 2);
      const outcome = await goRun(join(dir, "go"), "go", ["test", "-count=1", "-v", "-run", "^Example", "./..."], {
        GOWORK: join(dir, "go.work"),
        [`${PREFIX}_EXAMPLE_BASE_URL`]: mock!.url,
        [`${PREFIX}_TOKEN`]: "svc_sk_go_examples",
      });
      expect(outcome.code, outcome.output).toBe(0);
      const passed = outcome.output.split("\n").filter((l) => l.startsWith("--- PASS: Example"));
      expect(passed, outcome.output).toHaveLength(withOutput);
      expect(mock!.stats.invalidResponses).toEqual([]);
      // Every answer a success, or the 404 of an id an example made up: no request was refused as invalid (400) or
      // unauthorized.
      const refused = Object.keys(mock!.stats.responses).filter((status) => !status.startsWith("2") && status !== "404");
      expect(refused, JSON.stringify(mock!.stats.errors)).toEqual([]);
      const madeUp = source.split(/^func /m).filter((f) => f.includes("// Output: answered true")).length;
      expect(madeUp, "Examples with made-up ids, run too").toBeGreaterThan(0);
      // Each operation group (the first tag) has an Example go test runs: one of its operations' methods has Output.
      const run = new Set(
        source
          .split(/^func /m)
          .filter((f) => f.includes("// Output:"))
          .map((f) => /^ExampleClient_(\w+)\(/.exec(f)?.[1]),
      );
      const plans = new Map(goOperationPlans(ir!).map((p) => [p.operationId, p]));
      const groups = new Map<string, boolean>();
      for (const op of ir!.operations) {
        const group = op.tags[0] ?? op.id;
        // The submission operation's methods are its pipelines' Submit, Start and Wait.
        const names = [
          plans.get(op.id)?.method,
          ...(op.variants === undefined ? [] : methods.filter((m) => /^(Submit|Start|Wait)/.test(m))),
        ];
        groups.set(group, (groups.get(group) ?? false) || names.some((n) => n !== undefined && run.has(n)));
      }
      expect(groups.size).toBeGreaterThan(1);
      expect(
        [...groups].filter(([, ran]) => !ran).map(([g]) => g),
        "groups with no Example run",
      ).toEqual([]);
    },
    LIMIT,
  );

  it(
    "runs none, and passes, without the variable naming the service",
    async () => {
      const outcome = await goRun(join(dir, "go"), "go", ["test", "-count=1", "-v", "./..."], {
        GOWORK: join(dir, "go.work"),
        [`${PREFIX}_EXAMPLE_BASE_URL`]: "",
      });
      expect(outcome.code, outcome.output).toBe(0);
      expect(outcome.output).toContain(`examples not run: ${PREFIX}_EXAMPLE_BASE_URL is not set`);
    },
    LIMIT,
  );
});

// A description whose body needs each kind of literal: a union's member (by discriminator, and a scalar member
// through Ptr), a nullable field (sdkruntime.Value or Null), an enum, a list, a map, a property no struct tag can
// name (in Extra); and the matrix's recursion through allOf, whose fixture has a null in a list of structs that no
// literal can say, decoded by json.Unmarshal instead. Both modules stay gofmt, go vet and staticcheck clean.
const LITERALS = `openapi: 3.1.0
info: { title: Example Literals, version: 1.0.0 }
servers: [{ url: "http://127.0.0.1:1" }]
paths:
  /things:
    post:
      operationId: putThing
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: "#/components/schemas/Thing" } } }
      responses:
        "200": { description: the thing, content: { application/json: { schema: { $ref: "#/components/schemas/Thing" } } } }
components:
  schemas:
    Cat:
      type: object
      required: [kind, lives]
      properties: { kind: { type: string, enum: [cat] }, lives: { type: integer } }
    Dog:
      type: object
      required: [kind, name]
      properties: { kind: { type: string, enum: [dog] }, name: { type: string } }
    Pet:
      oneOf: [{ $ref: "#/components/schemas/Cat" }, { $ref: "#/components/schemas/Dog" }]
      discriminator: { propertyName: kind }
    Thing:
      type: object
      required: [pet, ref, note, size, tags, counts, "odd, name"]
      properties:
        pet: { $ref: "#/components/schemas/Pet" }
        ref: { oneOf: [{ type: string }, { type: integer }] }
        note: { type: [string, "null"] }
        size: { type: string, enum: [small, large] }
        tags: { type: array, items: { type: string } }
        counts: { type: object, additionalProperties: { type: integer } }
        "odd, name": { type: string }
`;

// A raw (octet-stream) body whose schema is an object, as a converted Swagger 2 `type: file` gives (Azure's Data Lake
// description): its example sends the fixture's JSON text through a reader, which compiles.
const RAW_OBJECT = `openapi: 3.0.0
info: { title: Raw Object, version: 1.0.0 }
servers: [{ url: "http://127.0.0.1:1" }]
paths:
  /blobs/{name}:
    patch:
      operationId: putBlob
      parameters: [{ name: name, in: path, required: true, schema: { type: string } }]
      requestBody:
        content: { application/octet-stream: { schema: { type: object } } }
      responses:
        "200": { description: stored }
`;

// A read by id, whose example names the runtime's ServiceError: with a module path that sorts after the runtime's.
const BY_ID = `openapi: 3.1.0
info: { title: Pets, version: 1.0.0 }
servers: [{ url: "http://127.0.0.1:1" }]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } } }
`;

describe("Example functions' literals", () => {
  let base = "";

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), "go-example-literals-"));
    await writeFile(join(base, "literals.yaml"), LITERALS);
    await writeFile(join(base, "raw-object.yaml"), RAW_OBJECT);
    await writeFile(join(base, "by-id.yaml"), BY_ID);
  });

  afterAll(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  const exampleOf = async (source: string, name: string): Promise<{ dir: string; code: string }> => {
    const dir = join(base, name);
    await writeGoWorkspace(dir, await generateGo(source));
    return { dir, code: await readFile(join(dir, "go", "example_test.go"), "utf8") };
  };

  it(
    "write a body as a typed literal: a union's member, Ptr, a nullable value, an enum, a list, a map and Extra",
    async () => {
      const { dir, code } = await exampleOf(join(base, "literals.yaml"), "literals");
      const call = code.split("\n").find((l) => l.includes("client.PutThing("));
      expect(call).toMatch(
        /Pet: &exampleliterals\.Pet\{Of(Cat: &exampleliterals\.Cat\{Kind: "cat", Lives: -?\d+\}|Dog: &exampleliterals\.Dog\{Kind: "dog", Name: "[^"]*"\})\}/,
      );
      expect(call).toMatch(
        /Ref: &exampleliterals\.ThingRef\{Of(String: exampleliterals\.Ptr\[string\]\("[^"]*"\)|Int: exampleliterals\.Ptr\[int64\]\(-?\d+\))\}/,
      );
      expect(call).toMatch(/Note: sdkruntime\.(Value\[string\]\("[^"]*"\)|Null\[string\]\(\))/);
      expect(call).toMatch(/Size: "(small|large)"/);
      expect(call).toMatch(/Tags: \[\]string\{/);
      expect(call).toMatch(/Counts: map\[string\]int64\{/);
      expect(call).toMatch(/Extra: map\[string\]json\.RawMessage\{"odd, name": json\.RawMessage\("\\"odd, name-[^"\\]*\\""\)\}/);
      expect(code).not.toContain("json.Unmarshal");
      await expectGoClean(dir, (await ensureGoTools()).staticcheck ?? "");
    },
    LIMIT,
  );

  it(
    "send a raw body whose schema is an object as a reader of its JSON text, and compile",
    async () => {
      const { dir, code } = await exampleOf(join(base, "raw-object.yaml"), "raw-object");
      const call = code.split("\n").find((l) => l.includes("client.PutBlob("));
      expect(call).toMatch(/Body: strings\.NewReader\("/);
      expect(code).not.toContain("json.Unmarshal");
      await expectGoClean(dir, (await ensureGoTools()).staticcheck ?? "");
    },
    LIMIT,
  );

  it(
    "import the module and the runtime in gofmt's order, a module path sorting after the runtime's too",
    async () => {
      const dir = join(base, "late-module");
      const { files } = await generate(join(base, "by-id.yaml"), {
        emitters: [goEmitter({ module: "github.com/pets-inc/pets-sdk-go" })],
      });
      await writeGoWorkspace(dir, files);
      const code = await readFile(join(dir, "go", "example_test.go"), "utf8");
      expect(code).toContain("sdkruntime.ServiceError");
      await expectGoClean(dir, (await ensureGoTools()).staticcheck ?? "");
    },
    LIMIT,
  );

  it(
    "fall back to json.Unmarshal of the fixture's JSON where no literal can say the value, and still compile",
    async () => {
      const { dir, code } = await exampleOf(join(REPO_ROOT, "test", "matrix", "descriptions", "go-allof-recursion.yaml"), "recursion");
      expect(code).toMatch(
        /^\tvar body goallofrecursion\.PutPropertyParamsBody\n\tif err := json\.Unmarshal\(\[\]byte\("\{.*\}"\), &body\); err != nil \{$/m,
      );
      expect(code).toContain("&goallofrecursion.PutPropertyParams{Body: &body}");
      await expectGoClean(dir, (await ensureGoTools()).staticcheck ?? "");
    },
    LIMIT,
  );
});
