/**
 * example_test.go of the generated module: an Example function per operation group (the operations' first tag, or
 * each operation when the description has no tags), calling one operation of the group the way a user would. go
 * test runs an Example with an `// Output:` line and compares what it prints; an Example cannot skip itself, so a
 * TestMain runs them only when the environment variable that names the service to call (a mock of it, say) is set.
 * Each has an Output line, so that each runs: a call that needs no value the service may not know (no required
 * parameter or body) prints the answer's status and whether it fits its types; a call with made-up values prints
 * that it was answered, by an answer that fits its types or by a *sdkruntime.ServiceError (an id the service does
 * not know, say), the same line either way.
 */
import type { Operation, Parameter } from "../../../generator/ir/types.js";
import { goDoc, goString } from "./escape.js";
import type { GoTypes } from "./go-type.js";
import type { GoOperationPlan } from "./operations.js";

/** An operation with the names of its method. */
export interface PlannedOperation {
  readonly op: Operation;
  readonly plan: GoOperationPlan;
}

/** The Go value of a required parameter in an example (its example, default or first allowed value), if scalar. */
function parameterValue(p: Parameter, types: GoTypes): string | undefined {
  const s = types.resolve(p.schema);
  if (s === undefined) return undefined;
  const given = [p.schema.examples?.[0], p.schema.default, s.examples?.[0], s.default].find((v) => v !== undefined && v !== null);
  switch (s.kind) {
    case "string":
      return goString(typeof given === "string" ? given : "example");
    case "integer":
      return String(typeof given === "number" && Number.isInteger(given) ? given : 1);
    case "number":
      return String(typeof given === "number" && Number.isFinite(given) ? given : 1);
    case "boolean":
      return String(typeof given === "boolean" ? given : true);
    case "enum": {
      const first = s.values.find((v) => typeof v === "string");
      return s.values.every((v) => typeof v === "string" || v === null) && first !== undefined ? goString(first) : undefined;
    }
    default:
      return undefined;
  }
}

interface ExampleCall {
  readonly planned: PlannedOperation;
  readonly group: string;
  /** The params struct's fields set, `Field: value` each; undefined when the method takes no params. */
  readonly fields?: readonly string[];
  readonly deterministic: boolean;
}

/** The call an example of a group makes: the first operation needing no input, else one whose inputs can be made up. */
function exampleCall(group: string, members: readonly PlannedOperation[], types: GoTypes): ExampleCall | undefined {
  const usable = members.filter(({ op, plan }) => !op.deprecated && !plan.binary);
  const free = usable.find(({ op }) => op.requestBody?.required !== true && required(op).length === 0);
  if (free !== undefined) return { planned: free, group, ...(free.plan.params && { fields: [] }), deterministic: true };
  for (const planned of usable) {
    if (planned.op.requestBody?.required === true) continue;
    const fields: string[] = [];
    for (const p of required(planned.op)) {
      const field = planned.plan.parameters.find((x) => x.in === p.in && x.name === p.name)?.field;
      const value = parameterValue(p, types);
      if (field === undefined || value === undefined) break;
      fields.push(`${field}: ${value}`);
    }
    if (fields.length === required(planned.op).length) return { planned, group, fields, deterministic: false };
  }
  return undefined;
}

/** The 2xx status an example prints, for a call that needs no made-up value; undefined for one that does. */
function statusPrinted(example: ExampleCall): string | undefined {
  return example.deterministic ? example.planned.op.responses.find((r) => /^2\d\d$/.test(r.status))?.status : undefined;
}

function required(op: Operation): Parameter[] {
  const all = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  return all.filter((p) => p.required || p.in === "path");
}

/** The text of example_test.go after its header. */
export function examplesFile(
  planned: readonly PlannedOperation[],
  types: GoTypes,
  names: { module: string; package: string; env: string; runtime: string },
): string {
  const groups = new Map<string, PlannedOperation[]>();
  const tagged = planned.some(({ op }) => op.tags.length > 0);
  for (const entry of planned) {
    const group = tagged ? (entry.op.tags[0] ?? "") : entry.op.id;
    groups.set(group, [...(groups.get(group) ?? []), entry]);
  }
  const calls = [...groups].flatMap(([group, members]) => exampleCall(group, members, types) ?? []);
  // The package's name unless the file's imports or variables use it (a package named testing, say).
  const pkg = ["context", "errors", "fmt", "os", "testing", "sdkruntime", "client", "res", "err", "serviceErr", "m"].includes(names.package)
    ? "sdk"
    : names.package;
  // A call with made-up values tells a service error apart from a failure to call: errors.As with the runtime's type.
  const madeUp = calls.some((c) => statusPrinted(c) === undefined);
  // gofmt sorts a group of imports by path.
  const modules = [
    ...(calls.length > 0 ? [{ path: names.module, line: `\t${pkg} ${goString(names.module)}` }] : []),
    ...(madeUp ? [{ path: names.runtime, line: `\tsdkruntime ${goString(names.runtime)}` }] : []),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const head = [
    `package ${names.package}_test`,
    "",
    "import (",
    ...(calls.length > 0 ? ['\t"context"'] : []),
    ...(madeUp ? ['\t"errors"'] : []),
    '\t"fmt"',
    '\t"os"',
    '\t"testing"',
    ...(modules.length > 0 ? ["", ...modules.map((m) => m.line)] : []),
    ")",
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
  const examples = calls.map((call) => exampleCode(call, pkg, tagged));
  return [head.join("\n"), ...examples].join("\n\n");
}

function exampleCode(example: ExampleCall, pkg: string, tagged: boolean): string {
  const { op, plan } = example.planned;
  const name = `ExampleClient_${plan.method}`;
  const lead = tagged
    ? `calls ${plan.method}, an operation of the tag ${goString(example.group)}.`
    : `calls ${plan.method} (${op.method.toUpperCase()} ${op.path}).`;
  const args = ["context.Background()"];
  if (plan.params !== undefined) {
    const fields = example.fields ?? [];
    // On one line: gofmt aligns the values of a literal's lines, which the widths of the names here cannot say.
    args.push(`&${pkg}.${plan.params}{${fields.join(", ")}}`);
  }
  const call = `\tres, err := client.${plan.method}(${args.join(", ")})`;
  const status = statusPrinted(example);
  const answer =
    status !== undefined
      ? [
          call,
          "\tif err != nil {",
          "\t\tfmt.Println(err)",
          "\t\treturn",
          "\t}",
          "\tfmt.Println(res.Meta.Status, res.Meta.Unfit == nil)",
          `\t// Output: ${status} true`,
        ]
      : [
          call,
          "\t// The service may answer with an error (for a made-up id it does not know): that is an answer too.",
          "\tvar serviceErr *sdkruntime.ServiceError",
          "\tif errors.As(err, &serviceErr) {",
          '\t\tfmt.Println("answered", serviceErr.Status >= 400)',
          "\t\treturn",
          "\t}",
          "\tif err != nil {",
          "\t\tfmt.Println(err)",
          "\t\treturn",
          "\t}",
          '\tfmt.Println("answered", res.Meta.Unfit == nil)',
          "\t// Output: answered true",
        ];
  return [
    goDoc(name, lead, undefined),
    `func ${name}() {`,
    `\tclient, err := ${pkg}.New(${pkg}.WithBaseURL(os.Getenv(exampleBaseURL)))`,
    "\tif err != nil {",
    "\t\tfmt.Println(err)",
    "\t\treturn",
    "\t}",
    ...answer,
    "}",
  ].join("\n");
}
