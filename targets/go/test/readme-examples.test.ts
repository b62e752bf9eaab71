// The generated Go README's local route and example are code: for the service's module (generated/go) and two other
// APIs' (test/support/readme-examples.ts), a fresh module runs the README's ```sh commands (its placeholders filled
// in with the folders) with the Go proxy off, and the README's ```go example, written into that module, passes
// go vet. The published route names the configured module path, and a placeholder path is said to be one.
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { codeBlocks, FOREIGN_DESCRIPTIONS, REPO_ROOT } from "../../../test/support/readme-examples.js";
import { emitGo } from "../emit/index.js";
import { GO_RUNTIME, goRun, type Outcome } from "./go-module.js";

const CASES = ["service", ...Object.keys(FOREIGN_DESCRIPTIONS)];

let dir: string;
const readmes = new Map<string, string>();
const outcomes = new Map<string, { readonly local: Outcome[]; readonly vet: Outcome }>();

/** The README's shell lines as commands, with the folders it leaves to the reader filled in. */
function commands(readme: string, folders: { module: string; runtime: string }): string[][] {
  const route = codeBlocks(readme, "sh").find((b) => b.code.includes("go mod edit"));
  return (route?.code ?? "")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) =>
      line.replaceAll("<folder of this module>", folders.module).replaceAll("<folder of the runtime module>", folders.runtime).split(/\s+/),
    );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "readme-go-"));
  await cp(join(REPO_ROOT, "generated", "go"), join(dir, "service", "go"), { recursive: true });
  for (const [name, source] of Object.entries(FOREIGN_DESCRIPTIONS))
    await writeFiles(join(dir, name), (await generate(source, { emitters: [emitGo] })).files);
  for (const name of CASES) {
    const readme = readFileSync(join(dir, name, "go", "README.md"), "utf8");
    readmes.set(name, readme);
    const consumer = join(dir, name, "consumer");
    await mkdir(consumer);
    await writeFile(join(consumer, "go.mod"), "module example.com/readme-consumer\n\ngo 1.22\n");
    await writeFile(join(consumer, "example.go"), `${codeBlocks(readme, "go")[0]?.code ?? ""}\n`);
    // Outside any go.work, with the proxy off: only the README's replace directives can resolve the modules.
    const env = { GOWORK: "off", GOFLAGS: "-mod=mod" };
    const local: Outcome[] = [];
    for (const [command = "", ...args] of commands(readme, { module: join(dir, name, "go"), runtime: GO_RUNTIME }))
      local.push(await goRun(consumer, command, args, env));
    outcomes.set(name, { local, vet: await goRun(consumer, "go", ["vet", "./..."], env) });
  }
}, 600_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe.each(CASES)("the Go README of %s", (name) => {
  it("gives a local route that resolves the module and the runtime with the proxy off", () => {
    const { local = [] } = outcomes.get(name) ?? {};
    expect(local.length).toBeGreaterThan(0);
    for (const outcome of local) expect(outcome, outcome.output).toMatchObject({ code: 0 });
  });

  it("has an example that calls the first operation and passes go vet in that module", () => {
    const example = codeBlocks(readmes.get(name) ?? "", "go")[0]?.code ?? "";
    const operations = readFileSync(join(dir, name, "go", "operations.go"), "utf8");
    const first = /^func \(c \*Client\) (\w+)\(/m.exec(operations)?.[1];
    expect(example).toContain(`client.${first}(ctx`);
    const { vet } = outcomes.get(name) ?? {};
    expect(vet, vet?.output).toMatchObject({ code: 0 });
  });

  it("says that the default module path is a placeholder go get cannot fetch", () => {
    expect(readmes.get(name)).toContain("The module path is a placeholder below example.com");
    expect(codeBlocks(readmes.get(name) ?? "", "sh").some((b) => b.code.startsWith("go get"))).toBe(false);
  });
});

describe("the Go README of a module with a configured path", () => {
  it("gives go get of that path as the published route, beside the local route", async () => {
    const { files } = await generate(FOREIGN_DESCRIPTIONS.bodies ?? "", {
      languages: ["go"],
      outputs: [],
      targets: { go: { module: "github.com/acme/bodies-go" } },
    });
    const readme = files.find((f) => f.path === "go/README.md")?.content ?? "";
    const blocks = codeBlocks(readme, "sh").map((b) => b.code);
    // The description's version 1.0.0 is the module's v1.0.0.
    expect(blocks[0]).toBe("go get github.com/acme/bodies-go@v1.0.0");
    expect(blocks[1]).toContain("-replace=github.com/acme/bodies-go=<folder of this module>");
    expect(readme).not.toContain("placeholder");
  });
});
