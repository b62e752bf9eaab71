// `npm run mock`: starts the mock on 127.0.0.1, prints its base address, runs until SIGINT or SIGTERM.
import { parseArgs } from "node:util";
import { startMock } from "./server.js";

const USAGE = `Usage: tsx mock/cli.ts [--port 4010] [--hold-ms 2000] [--job-ms 500] [--no-loopback-webhooks] [--quiet]

  --port                  port on 127.0.0.1 (default 0: a free one)
  --hold-ms               how long client_wait holds a submission before the 202
  --job-ms                simulated duration of a job
  --retry-scale           factor on the gaps between webhook retries (default 1)
  --no-loopback-webhooks  refuse loopback webhook receivers, as the service does
  --quiet                 no line per request`;

function numberOption(values: Record<string, unknown>, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    fail(`--${name} must be a number >= 0 (see --help)`, 2);
  }
  return value;
}

/** One line on stderr and the exit code: bad input never shows a stack trace. */
function fail(message: string, code: number): never {
  console.error(`mock: ${message}`);
  process.exit(code);
}

let parsed: ReturnType<typeof parseOptions>;
try {
  parsed = parseOptions();
} catch (error) {
  // parseArgs names the option: "Unknown option '--prot'".
  fail(`${error instanceof Error ? error.message : String(error)} (see --help)`, 2);
}
const { values } = parsed;

function parseOptions() {
  return parseArgs({
    options: {
      port: { type: "string" },
      "hold-ms": { type: "string" },
      "job-ms": { type: "string" },
      "retry-scale": { type: "string" },
      "no-loopback-webhooks": { type: "boolean" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = numberOption(values, "port");
const holdMs = numberOption(values, "hold-ms");
const jobDurationMs = numberOption(values, "job-ms");
const webhookRetryScale = numberOption(values, "retry-scale");
const mock = await startMock({
  ...(port !== undefined && { port }),
  ...(holdMs !== undefined && { holdMs }),
  ...(jobDurationMs !== undefined && { jobDurationMs }),
  ...(webhookRetryScale !== undefined && { webhookRetryScale }),
  allowLoopbackWebhooks: !values["no-loopback-webhooks"],
  log: (line) => {
    if (!values.quiet || line.startsWith("Mock of ")) console.log(line);
  },
}).catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  if (code === "EADDRINUSE") fail(`port ${port} on 127.0.0.1 is already in use; pick another with --port, or --port 0 for a free one`, 1);
  if (code === "EACCES") fail(`port ${port} on 127.0.0.1 needs privileges this process does not have; use a port above 1023`, 1);
  return fail(`could not start: ${error instanceof Error ? error.message : String(error)}`, 1);
});
console.log(mock.url);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.log(`${signal}: stopping the mock`);
    void mock.stop().then(() => process.exit(0));
  });
}
