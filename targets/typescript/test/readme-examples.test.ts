// The generated TypeScript README's examples are code: every ```ts block of the service's README (generated/) and of
// two other APIs' READMEs (test/support/readme-examples.ts) type-checks under the repository's strict options, in
// the layout the README states (modules beside index.ts). The README also says how its files import the runtime as
// they really do: by a relative path when typescript.runtimeSources is set, else by the runtime's package name.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { codeBlocks, FOREIGN_DESCRIPTIONS, REPO_ROOT } from "../../../test/support/readme-examples.js";
import { withLocalRuntime } from "../local-runtime.js";

const run = promisify(execFile);
const GENERATED = join(REPO_ROOT, "generated");
const CASES = ["service", ...Object.keys(FOREIGN_DESCRIPTIONS)];

let dir: string;
/** tsc's diagnostics by case, as `README.md:<line>:<column> <message>`; errors outside the examples under "other". */
const diagnostics = new Map<string, string[]>();
const readmes = new Map<string, string>();
const indexes = new Map<string, string>();

/** The runtime's module specifier the README says its files import, from its Install section. */
const statedRuntime = (readme: string) => /import the runtime by (?:a relative path|its package name), `([^`]+)`/.exec(readme)?.[1];
/** The runtime's module specifier index.ts imports `Runtime` from. */
const importedRuntime = (index: string) => /^import \{[^}]*\bRuntime\b[^}]*\} from "([^"]+)";$/m.exec(index)?.[1];

beforeAll(async () => {
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, ".tmp", "readme-ts-"));
  readmes.set("service", readFileSync(join(GENERATED, "README.md"), "utf8"));
  indexes.set("service", readFileSync(join(GENERATED, "index.ts"), "utf8"));
  for (const [name, source] of Object.entries(FOREIGN_DESCRIPTIONS)) {
    const out = join(dir, name);
    const { files } = await generate(source, { ...withLocalRuntime(out), languages: ["typescript"] });
    await writeFiles(out, files);
    readmes.set(name, files.find((f) => f.path === "README.md")?.content ?? "");
    indexes.set(name, files.find((f) => f.path === "index.ts")?.content ?? "");
  }
  const examples: string[] = [];
  for (const name of CASES) {
    const folder = join(dir, name);
    await mkdir(folder, { recursive: true });
    // The service's examples sit beside generated/index.ts as the README says; here their `./` imports lead there.
    const toGenerated = relative(folder, GENERATED).split("\\").join("/");
    for (const block of codeBlocks(readmes.get(name) ?? "", "ts")) {
      const file = `readme-${block.line}.ts`;
      const code = name === "service" ? block.code.replace(/(\bfrom\s+)"\.\//g, `$1"${toGenerated}/`) : block.code;
      await writeFile(join(folder, file), `${code}\n`);
      examples.push(`${name}/${file}`);
    }
  }
  const root = relative(dir, REPO_ROOT).split("\\").join("/");
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: `${root}/tsconfig.json`, include: examples }));
  const tsc = join(REPO_ROOT, "node_modules", "typescript", "lib", "tsc.js");
  const output = await run(process.execPath, [tsc, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: REPO_ROOT }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  for (const line of output.split("\n")) {
    const match = /^(?:.*[\\/])?([A-Za-z]+)[\\/]readme-(\d+)\.ts\((\d+),(\d+)\): (.*)$/.exec(line);
    const key = match === null ? "other" : (match[1] ?? "other");
    if (match === null && !/error TS\d+/.test(line)) continue;
    const text = match === null ? line : `README.md:${Number(match[2]) + Number(match[3]) - 1}:${match[4]} ${match[5]}`;
    diagnostics.set(key, [...(diagnostics.get(key) ?? []), text]);
  }
}, 240_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe.each(CASES)("the TypeScript README of %s", (name) => {
  it("has examples that call a real operation of the description, and they type-check under the strict options", () => {
    const blocks = codeBlocks(readmes.get(name) ?? "", "ts");
    expect(blocks.length).toBeGreaterThan(0);
    const first = /\bexport function (\w+)\(/.exec(
      readFileSync(name === "service" ? join(GENERATED, "operations.ts") : join(dir, name, "operations.ts"), "utf8"),
    );
    expect(blocks[0]?.code).toContain(`await ${first?.[1]}(client`);
    expect(diagnostics.get(name) ?? []).toEqual([]);
    expect(diagnostics.get("other") ?? []).toEqual([]);
  });

  it("says how its files import the runtime, as index.ts does", () => {
    const imported = importedRuntime(indexes.get(name) ?? "");
    expect(imported).toMatch(/^\.\.?\/.*runtime\/index\.js$/);
    expect(statedRuntime(readmes.get(name) ?? "")).toBe(imported);
  });
});

describe("the TypeScript README without runtimeSources, and of a package", () => {
  it("names the runtime's package as the files import it, with the runtime's local route", async () => {
    const { files } = await generate(FOREIGN_DESCRIPTIONS.security ?? "", { languages: ["typescript"], outputs: [] });
    const readme = files.find((f) => f.path === "README.md")?.content ?? "";
    const imported = importedRuntime(files.find((f) => f.path === "index.ts")?.content ?? "");
    expect(imported).toBe("@paperoffice/sdk-runtime");
    expect(statedRuntime(readme)).toBe(imported);
    expect(readme).toContain("npm install @paperoffice/sdk-runtime\n");
    expect(readme).toContain("npm install <runtime tarball or folder>");
    expect(codeBlocks(readme, "ts")[0]?.code).toContain('from "./index.js";');
  });

  it("installs the package by its configured name, the runtime first before publication, and imports it by name", async () => {
    const { files } = await generate(FOREIGN_DESCRIPTIONS.bodies ?? "", {
      languages: ["typescript"],
      outputs: [],
      targets: { typescript: { package: "@acme/bodies-sdk" } },
    });
    const readme = files.find((f) => f.path === "README.md")?.content ?? "";
    const install = codeBlocks(readme, "sh").map((b) => b.code);
    expect(install).toEqual(["npm install @acme/bodies-sdk", "npm install <runtime tarball or folder> <this package's tarball>"]);
    expect(codeBlocks(readme, "ts")[0]?.code).toMatch(/^import \{ createClient, [^}]+\} from "@acme\/bodies-sdk";$/m);
  });
});
