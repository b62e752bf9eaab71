// `paperoffice-sdk expand`: writes the description with each pipeline as its own operation (generator/expand/), as
// YAML, or JSON for a file ending in .json, to a file or stdout.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import { loadConfig } from "../config/load.js";
import { expandDescription } from "../expand/expand.js";
import { BIN } from "../names.js";
import { loadDescription } from "../spec/load.js";
import { UsageError, withUsageErrors } from "./args.js";
import { runSource } from "./generate-command.js";

export const EXPAND_USAGE = `Usage: ${BIN} expand [options]

Writes the description as a plain OpenAPI description any tool reads exactly: each pipeline of an operation with
x-paperoffice-variants becomes its own operation on a literal path (/job/add/{pipeline} -> /job/add/workflow, ...),
whose request body is exactly that pipeline's variants. Everything else is kept as written.
  --spec <file|url>     the description (default: the configuration's, else the newest release)
  --release <id>        a release of the project's releases folder
  --config <file>       the configuration file (default: ./paperoffice-sdk.config.json when it exists)
  --out <file>          where to write it (default: stdout); JSON when it ends in .json, else YAML
  -h, --help            this text
Exit code 0 when written, 1 when the description or the options are wrong.`;

const OPTIONS = {
  spec: { type: "string" },
  release: { type: "string" },
  config: { type: "string" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function runExpand(args: readonly string[]): Promise<number> {
  const { values } = withUsageErrors("expand", Object.keys(OPTIONS), () => parseArgs({ args: [...args], options: OPTIONS, strict: true }));
  if (values.help) {
    console.log(EXPAND_USAGE);
    return 0;
  }
  if (values.spec !== undefined && values.release !== undefined) throw new UsageError("give one of --spec and --release", "expand");
  const { config } = await loadConfig(process.cwd(), values.config);
  const source = runSource(config, { spec: values.spec, release: values.release });
  const description = await loadDescription(source);
  const { document, expanded } = expandDescription(description.document as Record<string, unknown>);
  const text = values.out?.endsWith(".json")
    ? `${JSON.stringify(document, null, 2)}\n`
    : stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
  if (values.out === undefined) process.stdout.write(text);
  else await writeFile(values.out, text);
  const made = expanded.reduce((n, e) => n + e.paths.length, 0);
  console.error(
    `${source}: ${expanded.length} operation${expanded.length === 1 ? "" : "s"} with variants expanded into ${made}` +
      (values.out === undefined ? "" : `, written to ${values.out}`),
  );
  return 0;
}
