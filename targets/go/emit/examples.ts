/**
 * example_test.go of the generated module: an Example function per method of the Client that calls the service
 * (ExampleClient_<Method>, as go doc and pkg.go.dev attach it), calling it the way a user would with the values of
 * the operation's fixture (generator/emit/fixtures): the params struct with the required parameters, the body as a
 * typed literal; a paged read's iterator in a range loop, a download into a bytes.Buffer, a pipeline's Submit, Start
 * and Wait with the struct of its first variant. go test runs an Example with an `// Output:` line and compares what
 * it prints; an Example cannot skip itself, so a TestMain runs them only when the environment variable that names
 * the service to call (a mock of it, say) is set. A call that names nothing the service may not know gets an Output
 * line with the answer's status and whether it fits its types: one without a required parameter (an id, a path) and
 * without a body open to fields the description does not show, and a job of a variant whose parameters are shown. A
 * call whose only made-up values are its required parameters prints that it was answered, by an answer that fits its
 * types or by the service's 404 for an id it does not hold. The others (a body open to fields not shown, a variant
 * whose parameters are not shown) are compiled (go vet, go test) and not run.
 */
import { exampleBody, fixtureCases } from "../../../generator/emit/fixtures/index.js";
import type { FixtureValue } from "../../../generator/emit/fixtures/sample.js";
import { requestBodyContent } from "../../../generator/emit/operation-files.js";
import type { IR, Operation, Parameter } from "../../../generator/ir/types.js";
import { goDoc, goString } from "./escape.js";
import { goLiteral, qualified, rawLiteral } from "./example-value.js";
import type { GoTypes } from "./go-type.js";
import type { GoOperationPlan } from "./operations.js";
import type { GoPipelinePlan } from "./pipelines.js";

/** An operation with the names of its method. */
export interface PlannedOperation {
  readonly op: Operation;
  readonly plan: GoOperationPlan;
}

/** The submission operation and the names of its pipelines. */
export interface PlannedPipelines {
  readonly op: Operation;
  readonly plans: readonly GoPipelinePlan[];
}

/** The names the file is written with. */
export interface ExampleNames {
  readonly module: string;
  readonly package: string;
  readonly env: string;
  readonly runtimeModule: string;
}

interface Example {
  readonly name: string;
  readonly lead: string;
  /** The lines between the client's creation and the end, indented once. */
  readonly lines: readonly string[];
  readonly output?: string;
}

/** Names the example file declares or imports: a package named so is imported as sdk. */
const TAKEN = ["bytes", "context", "errors", "fmt", "json", "os", "strings", "testing", "sdkruntime"];
const LOCALS = ["client", "res", "err", "m", "info", "buf", "job", "item", "items", "page", "body", "serviceErr", "exampleBaseURL"];

const FAIL = ["\tif err != nil {", "\t\tfmt.Println(err)", "\t\treturn", "\t}"];

/** The Go value of a required parameter the fixture does not give (a header, a cookie), if scalar. */
function parameterValue(p: Parameter, types: GoTypes): string | undefined {
  const s = types.resolve(p.schema);
  if (s === undefined) return undefined;
  const given = [p.schema.examples?.[0], p.schema.default, s.examples?.[0], s.default].find((v) => v !== undefined && v !== null);
  switch (s.kind) {
    case "string":
      return goString(typeof given === "string" ? given : "example");
    case "integer":
      return String(typeof given === "number" && Number.isSafeInteger(given) ? given : 1);
    case "boolean":
      return String(typeof given === "boolean" ? given : true);
    default:
      return undefined;
  }
}

function required(op: Operation): Parameter[] {
  const all = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  return all.filter((p) => p.required || p.in === "path");
}

/**
 * The statements before the call (a body that no literal can say) and the params struct's literal: the required
 * parameters and the body of the operation's first fixture case, the body a typed literal where one can say it.
 */
function paramsOf(ir: IR, op: Operation, plan: GoOperationPlan, types: GoTypes, pkg: string): { before: string[]; params?: string } {
  if (plan.params === undefined) return { before: [] };
  const fixture = fixtureCases(ir, op)[0];
  const fields: string[] = [];
  const before: string[] = [];
  const scope = { types, pkg };
  for (const p of required(op)) {
    const planned = plan.parameters.find((x) => x.in === p.in && x.name === p.name);
    if (planned === undefined) continue;
    const given = p.in === "path" ? fixture?.request.path[p.name] : p.in === "query" ? fixture?.request.query[p.name] : undefined;
    const value = given === undefined ? parameterValue(p, types) : goLiteral(given, p.schema, planned.type, scope);
    if (value !== undefined) fields.push(`${planned.field}: ${value}`);
  }
  const body = fixture === undefined ? undefined : exampleBody(ir, op, fixture);
  if (plan.body !== undefined && body !== undefined) {
    const literal = goLiteral(body, requestBodyContent(op)?.schema, plan.body.type, scope);
    const pointer = plan.body.type.startsWith("*");
    const decoded = literal === undefined ? unmarshalled(body, pointer ? plan.body.type.slice(1) : plan.body.type, pkg) : undefined;
    if (literal !== undefined) fields.push(`${plan.body.field}: ${literal}`);
    else if (decoded !== undefined) {
      before.push(...decoded);
      fields.push(`${plan.body.field}: ${pointer ? "&body" : "body"}`);
    }
  }
  // On one line: gofmt aligns the values of a literal's lines, which the widths of the names here cannot say.
  return { before, params: `&${pkg}.${plan.params}{${fields.join(", ")}}` };
}

/**
 * `body`, a `code`, decoded from the value's JSON: the fallback where no literal says the value (a null in a list of
 * structs, a value of no member of its union), which the type's UnmarshalJSON reads as it reads the service's JSON.
 * Undefined when the value holds a file, which JSON cannot say.
 */
function unmarshalled(value: FixtureValue, code: string, pkg: string): string[] | undefined {
  // An interface (a raw body's io.Reader) has nothing to decode into.
  if (rawLiteral(value) === undefined || code === "io.Reader") return undefined;
  return [
    `\tvar body ${qualified(code, pkg)}`,
    `\tif err := json.Unmarshal([]byte(${goString(JSON.stringify(value))}), &body); err != nil {`,
    ...FAIL.slice(1),
  ];
}

/** The examples of one operation's method, and of its paged read's iterator. */
function operationExamples(ir: IR, { op, plan }: PlannedOperation, types: GoTypes, pkg: string): Example[] {
  const { before, params } = paramsOf(ir, op, plan, types, pkg);
  const ctx = "context.Background()";
  const args = [ctx, ...(params === undefined ? [] : [params])];
  const status = op.responses.find((r) => /^2\d\d$/.test(r.status))?.status;
  // A body open to fields the description does not show (an id, say) may need one the example cannot know.
  const content = requestBodyContent(op);
  const open = content !== undefined && types.objectOf(content.schema)?.additionalProperties === true;
  const deterministic = required(op).length === 0 && !open && status !== undefined;
  // A call whose only unknowns are its required parameters (an id the service may not hold) runs too: an answer that
  // fits its types and the service's 404 for an id it does not hold print the same line.
  const madeUp = !deterministic && !open && status !== undefined;
  /** The call's lines and Output: `result` names what the call returns, `fits` says whether the answer fits its types. */
  const answer = (call: string, result: string, fits: string): Pick<Example, "lines" | "output"> =>
    madeUp
      ? {
          lines: [
            ...before,
            call,
            "\t// The service answers an id it does not hold with its 404: that is an answer too.",
            "\tvar serviceErr *sdkruntime.ServiceError",
            "\tif errors.As(err, &serviceErr) {",
            '\t\tfmt.Println("answered", serviceErr.Status == 404)',
            "\t\treturn",
            "\t}",
            ...FAIL,
            `\tfmt.Println("answered", ${fits})`,
          ],
          output: "answered true",
        }
      : {
          lines: [...before, call, ...FAIL, `\tfmt.Println(${result}.Meta.Status, ${fits})`],
          ...(deterministic && { output: `${status} true` }),
        };
  const route = `${op.method.toUpperCase()} ${op.path}`;
  const out: Example[] = [];
  if (plan.binary) {
    out.push({
      name: plan.method,
      lead: `calls ${plan.method} (${route}), writing what it downloads into a buffer.`,
      ...answer(
        `\tvar buf bytes.Buffer\n\tinfo, err := client.${plan.method}(${[...args, "&buf"].join(", ")})`,
        "info",
        "int64(buf.Len()) == info.Written",
      ),
    });
    return out;
  }
  out.push({
    name: plan.method,
    lead: `calls ${plan.method} (${route}).`,
    ...answer(`\tres, err := client.${plan.method}(${args.join(", ")})`, "res", "res.Meta.Unfit == nil"),
  });
  if (plan.paginate !== undefined) {
    out.push({
      name: plan.paginate,
      lead: `reads every item of ${plan.method}, page after page, in a range loop (Go 1.23 or later).`,
      lines: [
        ...before,
        "\titems := 0",
        `\tfor item, err := range client.${plan.paginate}(${args.join(", ")}) {`,
        ...FAIL.map((l) => `\t${l}`),
        "\t\t_ = item // a value of the page's item type",
        "\t\titems++",
        "\t}",
        // How many the service holds is its own business: reaching here says no error ended the iteration.
        '\tfmt.Println("every item read:", items >= 0)',
      ],
      ...(deterministic && { output: "every item read: true" }),
    });
  }
  if (plan.paginatePages !== undefined) {
    out.push({
      name: plan.paginatePages,
      lead: `reads the pages of ${plan.method} in a range loop (Go 1.23 or later), here the first one only.`,
      lines: [
        ...before,
        `	for page, err := range client.${plan.paginatePages}(${args.join(", ")}) {`,
        ...FAIL.map((l) => `	${l}`),
        "		fmt.Println(page.Meta.Status, len(page.Items) <= page.Limit)",
        "		break",
        "	}",
      ],
      ...(deterministic && { output: `${status} true` }),
    });
  }
  return out;
}

/** Submit, Start and Wait of each pipeline, with the body of its first variant's fixture. */
function pipelineExamples(ir: IR, planned: PlannedPipelines, types: GoTypes, pkg: string): Example[] {
  const { op } = planned;
  const cases = fixtureCases(ir, op);
  return planned.plans.flatMap((p) => {
    // The first variant whose parameters are shown, else the first: an open one may need what the example cannot know.
    const variants = op.variants?.pipelines.find((x) => x.slug === p.slug)?.variants ?? [];
    const variant = variants.find((v) => !v.open) ?? variants[0];
    const fixture = cases.find((c) => c.pipeline === p.slug && c.variant === variant?.name);
    const struct = p.variants.find((v) => v.name === variant?.name)?.struct;
    if (fixture === undefined || variant === undefined || struct === undefined) return [];
    const value = exampleBody(ir, op, fixture);
    // The variant's struct writes its discriminator itself.
    const own =
      value !== null && typeof value === "object" && !Array.isArray(value) && !("$file" in value)
        ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== variant.discriminator?.property))
        : {};
    const literal = goLiteral(own, variant.request, struct, { types, pkg });
    const before = (literal === undefined ? unmarshalled(own, struct, pkg) : undefined) ?? [
      `\tbody := ${literal ?? `${qualified(struct, pkg)}{}`}`,
    ];
    const print = "\tfmt.Println(res.Meta.Status, res.Meta.Unfit == nil)";
    const status = op.responses.find((r) => /^2\d\d$/.test(r.status))?.status;
    const output = variant.open || status === undefined ? {} : { output: `${status} true` };
    const slug = goString(p.slug);
    const start = [`\tjob, err := client.${p.start}(context.Background(), body)`, ...FAIL];
    const examples: Example[] = [
      {
        name: p.submit,
        lead: `submits a job of the pipeline ${slug} (the variant ${goString(variant.name)}) and waits for its result.`,
        lines: [...before, `\tres, err := client.${p.submit}(context.Background(), body)`, ...FAIL, print],
        ...output,
      },
      {
        name: p.start,
        lead: `starts a job of the pipeline ${slug} (the variant ${goString(variant.name)}) and waits for it with its handle.`,
        lines: [...before, ...start, "\tres, err := job.Wait(context.Background())", ...FAIL, print],
        ...output,
      },
    ];
    if (p.wait !== undefined) {
      examples.push({
        name: p.wait,
        lead: `waits for a job of the pipeline ${slug} by its id, as another process may; the variant's zero value types the payload.`,
        lines: [
          ...before,
          ...start,
          `\tres, err := client.${p.wait}(context.Background(), job.JobID, ${qualified(struct, pkg)}{})`,
          ...FAIL,
          print,
        ],
        ...output,
      });
    }
    return examples;
  });
}

/** The standard-library and runtime imports the examples' code uses. */
function importsOf(code: string, names: ExampleNames, pkg: string, any: boolean): string[] {
  const std = ["bytes", "context", "encoding/json", "errors", "fmt", "os", "strings", "testing"].filter((path) => {
    const word = path.split("/").at(-1)!;
    return ["fmt", "os", "testing"].includes(path) || new RegExp(`\\b${word}\\.`).test(code);
  });
  // gofmt sorts a group of imports by path: the module's own path may sort after the runtime's.
  const own = [
    ...(any ? [{ path: names.module, line: `\t${pkg} ${goString(names.module)}` }] : []),
    ...(/\bsdkruntime\./.test(code) ? [{ path: names.runtimeModule, line: `\tsdkruntime ${goString(names.runtimeModule)}` }] : []),
  ]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((o) => o.line);
  return ["import (", ...std.map((p) => `\t${goString(p)}`), ...(own.length > 0 ? ["", ...own] : []), ")"];
}

/** The text of example_test.go after its header. */
export function examplesFile(
  ir: IR,
  planned: readonly PlannedOperation[],
  pipelines: PlannedPipelines | undefined,
  types: GoTypes,
  names: ExampleNames,
): string {
  // The package's name unless the file's imports or variables use it (a package named testing, say).
  const pkg = [...TAKEN, ...LOCALS].includes(names.package) ? "sdk" : names.package;
  const examples = [
    ...planned.flatMap((entry) => operationExamples(ir, entry, types, pkg)),
    ...(pipelines === undefined ? [] : pipelineExamples(ir, pipelines, types, pkg)),
  ];
  const code = examples.map((e) => exampleCode(e, pkg));
  const ranged = examples.some((e) => e.lines.some((l) => l.includes(":= range ")));
  const head = [
    // A range over an iterator needs Go 1.23; the module's go line says less, which the file's constraint raises.
    ...(ranged ? ["//go:build go1.23", ""] : []),
    `package ${names.package}_test`,
    "",
    ...importsOf(code.join("\n"), names, pkg, examples.length > 0),
    "",
    goDoc(
      "exampleBaseURL",
      "is the environment variable naming the service the examples call, a mock of it say. go test runs an example with an Output line and compares what it prints, and an example cannot skip itself: without it, TestMain runs none.",
      undefined,
    ),
    `const exampleBaseURL = ${goString(names.env)}`,
    "",
    goDoc("TestMain", "runs the tests and examples when exampleBaseURL is set, and says why it runs none otherwise.", undefined),
    "func TestMain(m *testing.M) {",
    '\tif os.Getenv(exampleBaseURL) == "" {',
    '\t\tfmt.Println("examples not run: " + exampleBaseURL + " is not set")',
    "\t\tos.Exit(0)",
    "\t}",
    "\tos.Exit(m.Run())",
    "}",
  ];
  return [head.join("\n"), ...code].join("\n\n");
}

function exampleCode(example: Example, pkg: string): string {
  const name = `ExampleClient_${example.name}`;
  return [
    goDoc(name, example.lead, undefined),
    `func ${name}() {`,
    `\tclient, err := ${pkg}.New(${pkg}.WithBaseURL(os.Getenv(exampleBaseURL)))`,
    ...FAIL,
    ...example.lines,
    ...(example.output === undefined ? [] : [`\t// Output: ${example.output}`]),
    "}",
  ].join("\n");
}
