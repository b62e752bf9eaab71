// Go: every module in one go.work beside the runtime module (nothing fetched), gofmt-clean, and go vet (which
// builds it) and staticcheck (pinned, installed by scripts/setup/go-tools.mjs) over each of them.
import { writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { ensureGoTools } from "../../../scripts/setup/go-tools.mjs";
import { GO_RUNTIME, goRun } from "../../../targets/go/test/go-module.js";
import type { MatrixDriver } from "./driver.js";

export const goDriver: MatrixDriver = async (packages, work) => {
  const folders = packages.map((p) => join(p.out, "go"));
  const uses = [...folders, GO_RUNTIME].map((f) => relative(work, f).split("\\").join("/"));
  await writeFile(join(work, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t./${u}\n`).join("")})\n`);
  const env = { GOWORK: join(work, "go.work") };
  const problems: string[] = [];
  const gofmt = await goRun(work, "gofmt", ["-l", ...folders], env);
  if (gofmt.code !== 0 || gofmt.output.trim() !== "")
    problems.push(
      ...gofmt.output
        .trim()
        .split("\n")
        .map((line) => `gofmt: ${relative(work, line)}`),
    );
  const staticcheck = (await ensureGoTools()).staticcheck;
  if (staticcheck === undefined) problems.push("staticcheck: not installed by scripts/setup/go-tools.mjs");
  const checks: (readonly [string, readonly string[]])[] = [["go", ["vet", "./..."]]];
  if (staticcheck !== undefined) checks.push([staticcheck, ["./..."]]);
  // Each module checked from its own folder: the workspace resolves the runtime for the module it is run in.
  for (const folder of folders) {
    for (const [command, args] of checks) {
      const outcome = await goRun(folder, command, args, env);
      if (outcome.code !== 0)
        problems.push(
          ...outcome.output
            .trim()
            .split("\n")
            .filter((line) => line.trim() !== "")
            .slice(0, 30)
            .map((line) => `${relative(work, folder)}: ${command === "go" ? "go vet" : "staticcheck"}: ${line}`),
        );
    }
  }
  return problems;
};
