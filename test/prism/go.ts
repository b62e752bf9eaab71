// Calling every operation of a generated Go client with its fixture arguments. The test writes a Go program from
// the IR's operations and the generator's plan of the Go names (methods, params structs and their fields): one
// function per operation that fills the params struct from the fixture (each value decoded from its JSON into the
// field, as a Go user's value of the field's type) and calls the method. It is built once, then run against the
// recording proxy of proxy.ts, each call naming itself in a header.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import type { IR, Operation } from "../../generator/ir/types.js";
import { goString } from "../../targets/go/emit/escape.js";
import type { GoOperationPlan } from "../../targets/go/emit/operations.js";
import { goNames, goOperationPlans, RUNTIME_MODULE, RUNTIME_VERSION } from "../../targets/go/emit/view.js";
import { GO_RUNTIME, goRun } from "../../targets/go/test/go-module.js";
import { type CallFixture, type CallOutcome, givenParameters, preferredStatus } from "./calls.js";
import { CALL_HEADER, recordingProxy } from "./proxy.js";

const run = promisify(execFile);

/** A fixture file (`{ $file }`). */
interface FixtureFile {
  readonly name: string;
  readonly contentType: string;
  readonly text: string;
}

const fileOf = (value: unknown): FixtureFile | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as { $file?: FixtureFile }).$file : undefined;

const goFile = (f: FixtureFile): string =>
  `&sdkruntime.File{Name: ${goString(f.name)}, ContentType: ${goString(f.contentType)}, Content: strings.NewReader(${goString(f.text)})}`;

/** `if err := set(&<target>, <json>); err != nil { return err }`: a fixture value decoded into a field. */
const setField = (target: string, value: unknown, what: string): string =>
  `\t\tif err := set(&${target}, ${goString(JSON.stringify(value))}); err != nil {\n\t\t\treturn fmt.Errorf("fixture %s: %w", ${goString(what)}, err)\n\t\t}`;

/** The function of one call: the params struct filled from the fixture, then the method. */
function callFunction(op: Operation, plan: GoOperationPlan, fixture: CallFixture): string {
  const lines: string[] = [];
  const args = ["ctx"];
  if (plan.params !== undefined) {
    lines.push(`\t\tin := &sdk.${plan.params}{}`);
    args.push("in");
    const given = givenParameters(fixture);
    for (const p of plan.parameters) {
      const value = given[p.in][p.name];
      if (value !== undefined) lines.push(setField(`in.${p.field}`, value, `${p.in} parameter ${p.name}`));
    }
    const body = fixture.request.body;
    if (plan.body !== undefined && body !== undefined) {
      const field = `in.${plan.body.field}`;
      if (plan.body.kind === "raw") {
        // A raw body (text or a file) is an io.Reader of its bytes.
        const file = fileOf(body);
        const text = file !== undefined ? file.text : typeof body === "string" ? body : JSON.stringify(body);
        lines.push(`\t\t${field} = strings.NewReader(${goString(text)})`);
      } else if (plan.body.kind === "form" && plan.body.files.length > 0 && typeof body === "object" && body !== null) {
        // The files of a form travel in their own fields (never as JSON); the other fields are decoded as JSON.
        const rest: Record<string, unknown> = { ...(body as Record<string, unknown>) };
        for (const f of plan.body.files) delete rest[f.property];
        lines.push(setField(field, rest, "body"));
        for (const f of plan.body.files) {
          const value = (body as Record<string, unknown>)[f.property];
          if (value === undefined) continue;
          const files = (Array.isArray(value) ? value : [value]).map(fileOf).filter((x) => x !== undefined);
          if (files.length === 0) continue;
          lines.push(`\t\t${field}.${f.field} = ${f.many ? `[]*sdkruntime.File{${files.map(goFile).join(", ")}}` : goFile(files[0]!)}`);
        }
      } else {
        lines.push(setField(field, body, "body"));
      }
    }
  }
  if (plan.binary) args.push("io.Discard");
  args.push("opts...");
  lines.push(`\t\t_, err := c.${plan.method}(${args.join(", ")})`);
  lines.push("\t\treturn err");
  const prefer = preferredStatus(op);
  return `\t{id: ${goString(op.id)}, prefer: ${goString(prefer ?? "")}, run: func(ctx context.Context, c *sdk.Client, opts []sdk.CallOption) error {\n${lines.join("\n")}\n\t}},`;
}

/** The program: the calls, run `width` at a time, each outcome printed as one JSON list. */
function program(
  ir: IR,
  plans: readonly GoOperationPlan[],
  fixtures: ReadonlyMap<string, CallFixture>,
  module: string,
  options: string,
): string {
  const byId = new Map(plans.map((p) => [p.operationId, p]));
  const calls = ir.operations.map((op) => {
    const plan = byId.get(op.id);
    // An operation without a method of its own (a pipeline's submission) has no call: the test reports it unsent.
    if (plan === undefined) return `\t{id: ${goString(op.id)}},`;
    return callFunction(op, plan, fixtures.get(op.id)!);
  });
  return `// Code written by the Prism contract test: every operation called once with its fixture arguments.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk ${goString(module)}
	sdkruntime ${goString(RUNTIME_MODULE)}
)

var (
	_ = io.Discard
	_ = strings.NewReader
	_ sdkruntime.File
)

type call struct {
	id     string
	prefer string
	run    func(ctx context.Context, c *sdk.Client, opts []sdk.CallOption) error
}

type outcome struct {
	OperationID   string \`json:"operationId"\`
	Failure       string \`json:"failure,omitempty"\`
	FailureStatus int    \`json:"failureStatus,omitempty"\`
}

// set decodes a fixture value, given as JSON, into a field.
func set(dst any, text string) error { return json.Unmarshal([]byte(text), dst) }

var calls = []call{
${calls.join("\n")}
}

func main() {
	width, _ := strconv.Atoi(os.Args[2])
	client, err := sdk.New(sdk.WithBaseURL(os.Args[1]), sdk.WithMaxRetries(0), sdk.WithTimeout(60*time.Second)${options === "" ? "" : `, ${options}`})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := make([]outcome, len(calls))
	gate := make(chan struct{}, width)
	var wg sync.WaitGroup
	for i, k := range calls {
		out[i].OperationID = k.id
		if k.run == nil {
			continue
		}
		wg.Add(1)
		gate <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-gate }()
			opts := []sdk.CallOption{sdkruntime.CallHeader(${goString(CALL_HEADER)}, strconv.Itoa(i))}
			if k.prefer != "" {
				opts = append(opts, sdkruntime.CallHeader("Prefer", "code="+k.prefer))
			}
			if err := k.run(context.Background(), client, opts); err != nil {
				out[i].Failure = fmt.Sprintf("%T: %v", err, err)
				var malformed *sdkruntime.MalformedResponseError
				if errors.As(err, &malformed) {
					out[i].Failure += fmt.Sprintf(" (%v; body %q)", malformed.Err, malformed.Body)
				}
				var service *sdkruntime.ServiceError
				if errors.As(err, &service) {
					out[i].FailureStatus = service.Status
				}
			}
		}()
	}
	wg.Wait()
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
`;
}

export interface GoRun {
  /** The folder the generated files were written to (the Go module is below go/ of it). */
  readonly out: string;
  /** Go expressions of further client options (credentials), in the package `sdk`. */
  readonly options?: string;
  readonly prisms: readonly string[];
  readonly dispatcher: unknown;
}

/** The driver program, built once in a workspace with the generated module and the runtime module: its path. */
export async function buildGoDriver(ir: IR, fixtures: ReadonlyMap<string, CallFixture>, { out, options = "" }: GoRun): Promise<string> {
  const module = goNames(ir.info.title).module;
  const driver = join(out, "go-driver");
  await mkdir(driver, { recursive: true });
  await writeFile(join(driver, "main.go"), program(ir, goOperationPlans(ir), fixtures, module, options));
  await writeFile(
    join(driver, "go.mod"),
    `module example.com/prismdriver\n\ngo 1.22\n\nrequire (\n\t${module} v0.0.0\n\t${RUNTIME_MODULE} ${RUNTIME_VERSION}\n)\n`,
  );
  const runtime = relative(out, GO_RUNTIME).split("\\").join("/");
  await writeFile(join(out, "go.work"), `go 1.22\n\nuse (\n\t./go\n\t./go-driver\n\t${runtime}\n)\n`);
  const binary = join(driver, "prism-driver");
  const built = await goRun(driver, "go", ["build", "-o", binary, "."], { GOWORK: join(out, "go.work") }, 900_000);
  if (built.code !== 0) throw new Error(`the Go driver does not build:\n${built.output.slice(0, 20_000)}`);
  return binary;
}

/** Every operation called once through the Go client, with Prism's answers to each of its requests. */
export async function callGoOperations(binary: string, { prisms, dispatcher }: GoRun): Promise<CallOutcome[]> {
  const proxy = await recordingProxy(prisms, dispatcher);
  try {
    const { stdout } = await run(binary, [proxy.url, "8"], { maxBuffer: 256 * 1024 * 1024, timeout: 600_000 });
    const results = JSON.parse(stdout) as { operationId: string; failure?: string; failureStatus?: number }[];
    return results.map((r, i) => ({ ...r, exchanges: proxy.exchanges.get(i) ?? [] }));
  } finally {
    await proxy.close();
  }
}
