// What publishing the Python packages needs before anything is built: python3 on PATH with build, twine and the
// build backend the runtime pins (hatchling), and the runtime's sources: beside this module in the toolchain's package
// (the build copies them into dist), else in the toolchain's repository. The distribution name is only warned about
// when the configuration does not set it (it is then guessed from the description's title).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type PrerequisiteContext, type PublishProblem, type PublishReadiness, probe } from "../../../generator/publish/prerequisites.js";

/** The runtime's sources as the toolchain's package carries them (scripts/package/toolchain.ts puts them there). */
const SHIPPED = fileURLToPath(new URL("./runtime/", import.meta.url));
/** The runtime's sources in the toolchain's repository. */
const REPOSITORY = fileURLToPath(new URL("../runtime/", import.meta.url));

/** The runtime's project folder (holding pyproject.toml), or undefined when neither copy is there. */
export function runtimeProject(): string | undefined {
  return [SHIPPED, REPOSITORY].find((dir) => existsSync(join(dir, "pyproject.toml")));
}

/** The build requirements of a pyproject.toml's [build-system] (`requires = [...]`), as written. */
export function buildRequirements(pyproject: string): string[] {
  const section = /^\[build-system\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? "";
  const list = /^requires\s*=\s*\[([^\]]*)\]/m.exec(section)?.[1] ?? "";
  return [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]!.trim());
}

// Prints the Python version and the distributions missing from the environment, or held at another version than a
// requirement pins with `==`. Other specifiers are taken as met when the distribution is there.
const MISSING = `import importlib.metadata as md, json, sys
wanted = json.loads(sys.argv[1])
if sys.version_info < (3, 11):
    wanted.append("tomli")
missing = []
for requirement in wanted:
    name, _, pinned = requirement.partition("==")
    name = name.split(">")[0].split("<")[0].split("~")[0].split("!")[0].split("[")[0].strip()
    try:
        version = md.version(name)
    except md.PackageNotFoundError:
        missing.append(requirement)
        continue
    if pinned and version != pinned.strip():
        missing.append(requirement + " (it has " + version + ")")
print(json.dumps({"version": "%d.%d" % sys.version_info[:2], "missing": missing}))`;

export async function pythonPrerequisites(
  options: Readonly<Record<string, unknown>>,
  context: PrerequisiteContext,
): Promise<PublishReadiness> {
  const problems: PublishProblem[] = [];
  const warnings: string[] = [];
  const runtime = runtimeProject();
  if (runtime === undefined) {
    problems.push({
      problem: `the Python runtime's sources are missing (no pyproject.toml in ${SHIPPED} or ${REPOSITORY})`,
      fix: "reinstall the toolchain's package (it carries the Python runtime's sources)",
    });
  }
  const requirements = [
    "build",
    "twine",
    ...(runtime === undefined ? ["hatchling"] : buildRequirements(readFileSync(join(runtime, "pyproject.toml"), "utf8"))),
  ];
  const python = await probe("python3", ["-c", MISSING, JSON.stringify(requirements)], context.env);
  if (!python.found) {
    problems.push({
      problem: "python3 is not on PATH",
      fix: `install Python 3 with ${requirements.join(", ")}, or put a virtual environment that has them first on PATH`,
    });
  } else if (python.code !== 0) {
    problems.push({
      problem: `python3 could not be asked what it has: ${python.stderr.trim().split("\n").at(-1) ?? ""}`,
      fix: "put a working python3 first on PATH",
    });
  } else {
    const { version, missing } = JSON.parse(python.stdout) as { version: string; missing: string[] };
    if (missing.length > 0) {
      problems.push({
        problem: `python3 (${version}) lacks ${missing.join(", ")}, which building and uploading the wheels need`,
        fix: `python3 -m pip install ${missing.map((m) => `'${m.replace(/ \(.*$/, "")}'`).join(" ")} (or put a virtual environment that has them first on PATH)`,
      });
    }
  }
  if (typeof options.distribution !== "string") {
    warnings.push(
      "python.distribution is not set: the SDK is published under a distribution name guessed from the description's title; set python.distribution in the configuration to the name to publish under",
    );
  }
  return { problems, warnings };
}
