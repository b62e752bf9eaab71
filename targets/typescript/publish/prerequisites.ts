// What publishing the TypeScript packages needs before anything is built: npm on PATH, the SDK's package name in the
// configuration, and the runtime's package: the one typescript.runtimePackage names, else the tarball the installed
// toolchain carries beside this module (the build packs it into dist), else, in the toolchain's repository, the
// runtime's built folder.
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type PrerequisiteContext, type PublishProblem, type PublishReadiness, probe } from "../../../generator/publish/prerequisites.js";

export const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
/** The runtime's tarball as the toolchain's package carries it (scripts/package/toolchain.ts puts it there). */
const SHIPPED = fileURLToPath(new URL("./runtime/", import.meta.url));
/** The runtime's package as `npm run build -- runtime` writes it in the toolchain's repository. */
export const RUNTIME_DIST = fileURLToPath(new URL("../runtime/dist/", import.meta.url));
/** The runtime's sources: present in the toolchain's repository only. */
const RUNTIME_SOURCES = fileURLToPath(new URL("../runtime/package.json", import.meta.url));

/** The runtime package publish uses (a tarball or a built folder), or why there is none and what to do. */
export function runtimePackage(given: string | undefined): { readonly path: string } | { readonly problem: PublishProblem } {
  if (given !== undefined) {
    const from = resolve(given);
    if (existsSync(from)) return { path: from };
    return {
      problem: {
        problem: `typescript.runtimePackage names ${from}, which does not exist`,
        fix: "set typescript.runtimePackage to a tarball of `npm pack` or the runtime's built folder, or leave it out to publish the runtime the toolchain carries",
      },
    };
  }
  const shipped = existsSync(SHIPPED) ? readdirSync(SHIPPED).filter((f) => f.endsWith(".tgz")) : [];
  if (shipped.length === 1) return { path: join(SHIPPED, shipped[0]!) };
  if (existsSync(RUNTIME_DIST)) return { path: RUNTIME_DIST };
  if (existsSync(RUNTIME_SOURCES)) {
    return {
      problem: {
        problem: `the TypeScript runtime's package is not built (${RUNTIME_DIST} is missing)`,
        fix: "run `npm run build -- runtime` in the toolchain's repository, or set typescript.runtimePackage to the runtime's tarball",
      },
    };
  }
  return {
    problem: {
      problem: `the toolchain's package holds no runtime tarball in ${SHIPPED} (${shipped.length} found)`,
      fix: "reinstall the toolchain's package (it carries the runtime's tarball), or set typescript.runtimePackage to the runtime's tarball",
    },
  };
}

export async function typescriptPrerequisites(
  options: Readonly<Record<string, unknown>>,
  context: PrerequisiteContext,
): Promise<PublishReadiness> {
  const problems: PublishProblem[] = [];
  const npm = await probe(NPM, ["--version"], context.env);
  if (!npm.found) problems.push({ problem: "npm is not on PATH", fix: "install Node.js with npm, or put npm on PATH" });
  else if (npm.code !== 0)
    problems.push({ problem: `npm --version failed: ${npm.stderr.trim().split("\n").at(-1) ?? ""}`, fix: "repair the npm installation" });
  if (typeof options.package !== "string") {
    problems.push({
      problem: "typescript.package is not set, so the TypeScript SDK is not a package",
      fix: 'set typescript.package in the configuration to the npm name to publish it under (for example "@acme/service-sdk")',
    });
  }
  const runtime = runtimePackage(typeof options.runtimePackage === "string" ? options.runtimePackage : undefined);
  if ("problem" in runtime) problems.push(runtime.problem);
  return { problems, warnings: [] };
}
