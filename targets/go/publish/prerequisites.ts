// What publishing the Go modules needs before anything is built: go on PATH at the version modproxy/ requires, a module
// path the configuration sets (the default below example.com is a placeholder for local use, refused here), a module
// proxy folder to publish to, and the runtime module's files: beside this module in the toolchain's package (the build
// copies them into dist), else in the toolchain's repository.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type PrerequisiteContext, type PublishProblem, type PublishReadiness, probe } from "../../../generator/publish/prerequisites.js";

/** The runtime module as the toolchain's package carries it (scripts/package/toolchain.ts puts it there). */
const SHIPPED = fileURLToPath(new URL("./runtime/", import.meta.url));
/** The runtime module in the toolchain's repository. */
const REPOSITORY = fileURLToPath(new URL("../runtime/", import.meta.url));
/** The program that writes module versions (modproxy.ts runs it), and its go.mod. */
const MODPROXY_MOD = fileURLToPath(new URL("./modproxy/go.mod", import.meta.url));

/** The runtime module's folder (holding go.mod), or undefined when neither copy is there. */
export function runtimeModule(): string | undefined {
  return [SHIPPED, REPOSITORY].find((dir) => existsSync(join(dir, "go.mod")));
}

/** The module proxy folder publish writes to: go.proxy, else GOPROXY's file:// entry. */
export function proxyFolder(options: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv): string | undefined {
  if (typeof options.proxy === "string") return options.proxy;
  const fromEnv = env.GOPROXY?.split(/[,|]/).find((p) => p.startsWith("file://"));
  return fromEnv === undefined ? undefined : fileURLToPath(fromEnv);
}

/** Domains reserved for examples and tests (RFC 2606, RFC 6761): a module path below one is never fetched by its name. */
const RESERVED = /^(?:[^/]*\.)?(?:example\.(?:com|net|org)|[^/]*\.(?:example|test|invalid|localhost))(?:\/|$)/;

/** `go 1.26.0` of a go.mod as [1, 26, 0]. */
const goDirective = (mod: string) => (/^go\s+(\d+)\.(\d+)(?:\.(\d+))?/m.exec(mod)?.slice(1) ?? []).map((n) => Number(n ?? 0));
const older = (a: readonly number[], b: readonly number[]) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};

export async function goPrerequisites(options: Readonly<Record<string, unknown>>, context: PrerequisiteContext): Promise<PublishReadiness> {
  const problems: PublishProblem[] = [];
  const warnings: string[] = [];
  if (typeof options.module !== "string") {
    problems.push({
      problem:
        "go.module is not set, so the module path is the placeholder example.com/<title-slug>-sdk-go, which `go get` can never fetch by its name",
      fix: 'set go.module in the configuration to the module\'s real path (for example "github.com/acme/service-sdk-go"); generate keeps the placeholder for local use',
    });
  } else if (RESERVED.test(options.module)) {
    warnings.push(
      `go.module ${options.module} is below a domain reserved for examples: only a GOPROXY that holds it serves it, \`go get\` cannot fetch it by its name`,
    );
  }
  if (proxyFolder(options, context.env) === undefined) {
    problems.push({
      problem: "no module proxy folder to publish to",
      fix: "set go.proxy in the configuration to the folder (GOPROXY=file://<folder> reads it), or GOPROXY to a file:// URL",
    });
  }
  if (runtimeModule() === undefined) {
    problems.push({
      problem: `the Go runtime module's files are missing (no go.mod in ${SHIPPED} or ${REPOSITORY})`,
      fix: "reinstall the toolchain's package (it carries the Go runtime module)",
    });
  }
  if (!existsSync(MODPROXY_MOD)) {
    problems.push({
      problem: `the program that writes module versions is missing (${MODPROXY_MOD})`,
      fix: "reinstall the toolchain's package (it carries modproxy)",
    });
    return { problems, warnings };
  }
  const required = goDirective(readFileSync(MODPROXY_MOD, "utf8"));
  const go = await probe("go", ["env", "GOVERSION", "GOTOOLCHAIN"], context.env);
  if (!go.found) {
    problems.push({
      problem: "go is not on PATH (module zips and their hashes come from golang.org/x/mod, run with go)",
      fix: `install Go ${required.join(".")} or later, or put its go command on PATH`,
    });
  } else if (go.code !== 0) {
    problems.push({ problem: `go env failed: ${go.stderr.trim().split("\n").at(-1) ?? ""}`, fix: "repair the Go installation" });
  } else {
    const [version = "", toolchain = ""] = go.stdout.trim().split("\n");
    const have = (/^go(\d+)\.(\d+)(?:\.(\d+))?/.exec(version)?.slice(1) ?? []).map((n) => Number(n ?? 0));
    // With GOTOOLCHAIN other than local, go fetches the toolchain modproxy's go.mod asks for.
    if (toolchain.startsWith("local") && older(have, required)) {
      problems.push({
        problem: `go is ${version}, older than the go ${required.join(".")} modproxy (golang.org/x/mod) requires`,
        fix: `install Go ${required.join(".")} or later, or set GOTOOLCHAIN=auto so that go fetches it`,
      });
    }
  }
  return { problems, warnings };
}
