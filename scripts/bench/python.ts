// The Python SDK as users get it: the generated service SDK and the runtime built into wheels and installed into a
// fresh virtual environment (targets/python/test/wheels.ts), then measured in whole Python processes:
// - import time: `python -X importtime -c 'import <sdk>'` beside `import httpx` alone and a bare interpreter
//   (scripts/bench/python/imports.py), rounds interleaved;
// - per-request time on loopback: the generated sync and async clients' `get_job` against httpx alone (Client and
//   AsyncClient) doing the same GET to the same node:http server, each reading the JSON; one process per client per
//   round, the clients' order rotating (scripts/bench/python/client.py);
// - connections: the sockets the server accepted while a fresh client made 100 sequential calls.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { generatedPythonModule } from "../../targets/python/test/package.js";
import { installWheels } from "../../targets/python/test/wheels.js";
import { fmt, lastJson, log, max, median, min, ROOT, table, verdict } from "./lib.js";
import { type LoopbackServer, startServer } from "./request-clients.js";

const run = promisify(execFile);
const IMPORTS = join(ROOT, "scripts", "bench", "python", "imports.py");
const CLIENT = join(ROOT, "scripts", "bench", "python", "client.py");

export interface PythonOptions {
  /** Rounds of the import-time runs (each module once per round). */
  importRounds: number;
  /** Rounds of the request benchmark (each client one process per round). */
  rounds: number;
  /** Counted sequential calls per client process. */
  perRound: number;
  /** Calls before counting, in the same process. */
  warmup: number;
}

export const PYTHON_QUICK: PythonOptions = { importRounds: 3, rounds: 2, perRound: 200, warmup: 50 };
export const PYTHON_FULL: PythonOptions = { importRounds: 15, rounds: 9, perRound: 2000, warmup: 300 };

const KINDS = ["sdk-sync", "httpx-sync", "sdk-async", "httpx-async"] as const;
type Kind = (typeof KINDS)[number];
const LABEL: Record<Kind, string> = {
  "sdk-sync": "our SDK, sync (`Client.get_job`)",
  "httpx-sync": "httpx alone, sync (`httpx.Client.get` + `.json()`)",
  "sdk-async": "our SDK, async (`AsyncClient.get_job`)",
  "httpx-async": "httpx alone, async (`httpx.AsyncClient.get` + `.json()`)",
};

interface ImportRun {
  cumulative_us: number;
  wall_us: number;
  cpu_us: number;
}

interface ClientRun {
  wall_us: number;
  cpu_us: number;
  /** Sockets the server accepted while the process ran. */
  connections: number;
}

export interface PythonBench {
  /** Rows of the report's summary table. */
  summary: string[][];
  section: string;
}

const spread = (values: readonly number[], show: (n: number) => string) =>
  `${show(median(values))} (${show(min(values))}..${show(max(values))})`;

async function clientRun(
  python: string,
  kind: Kind,
  module: string,
  server: LoopbackServer,
  count: number,
  warmup: number,
  cwd: string,
): Promise<ClientRun> {
  const before = await server.connections();
  const { stdout } = await run(python, [CLIENT, kind, module, server.origin, String(count), String(warmup)], {
    cwd,
    env: pythonEnv(),
    timeout: 600_000,
  });
  const after = await server.connections();
  const result = lastJson<{ wall_us: number; cpu_us: number }>(stdout);
  return { wall_us: result.wall_us, cpu_us: result.cpu_us, connections: after - before };
}

/** The environment of the measured processes: the installed wheels, nothing from the repository. */
function pythonEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.PYTHONPATH;
  delete env.PYTHONDONTWRITEBYTECODE;
  return env;
}

export async function benchPython(options: PythonOptions): Promise<PythonBench> {
  const dir = await mkdtemp(join(tmpdir(), "bench-python-"));
  try {
    log("python: building the runtime's and the service SDK's wheels, installing them into a fresh venv ...");
    const { python } = await installWheels(dir);
    const module = generatedPythonModule();
    const { stdout: version } = await run(python, [
      "-c",
      "import sys, httpx, pydantic; print(sys.version.split()[0], httpx.__version__, pydantic.VERSION)",
    ]);
    const [pythonVersion, httpxVersion, pydanticVersion] = version.trim().split(" ");

    log(`python: import time, ${options.importRounds} rounds ...`);
    const imports = lastJson<{ runs: Record<string, ImportRun[]> }>(
      (
        await run(python, [IMPORTS, python, String(options.importRounds), module, "httpx", "-"], {
          cwd: dir,
          env: pythonEnv(),
          timeout: 600_000,
        })
      ).stdout,
    ).runs;
    const sdkImports = imports[module]!;
    const httpxImports = imports.httpx!;
    const bare = imports["-"]!;
    const us = (n: number) => fmt.ms(n / 1000);
    const importRows = [
      [`\`import ${module}\` (the SDK)`, sdkImports],
      ["`import httpx` alone", httpxImports],
      ["`pass` (interpreter start-up, no import)", bare],
    ].map(([label, runs]) => {
      const r = runs as ImportRun[];
      return [
        label as string,
        r === bare
          ? "—"
          : spread(
              r.map((x) => x.cumulative_us / 1000),
              (n) => `${n.toFixed(1)} ms`,
            ),
        spread(
          r.map((x) => x.wall_us),
          us,
        ),
        spread(
          r.map((x) => x.cpu_us),
          us,
        ),
      ];
    });

    const server = await startServer();
    const runs: Record<Kind, ClientRun[]> = { "sdk-sync": [], "httpx-sync": [], "sdk-async": [], "httpx-async": [] };
    const hundred: Partial<Record<Kind, number>> = {};
    try {
      log(`python: requests, ${options.rounds} rounds of ${options.perRound} sequential calls per client (after ${options.warmup}) ...`);
      for (let round = 0; round < options.rounds; round++) {
        const order = [...KINDS.slice(round % KINDS.length), ...KINDS.slice(0, round % KINDS.length)];
        for (const kind of order) runs[kind].push(await clientRun(python, kind, module, server, options.perRound, options.warmup, dir));
      }
      log("python: connections for 100 sequential calls ...");
      for (const kind of KINDS) hundred[kind] = (await clientRun(python, kind, module, server, 100, 0, dir)).connections;
    } finally {
      server.stop();
    }

    const wall = (kind: Kind) => median(runs[kind].map((r) => r.wall_us));
    const cpu = (kind: Kind) => median(runs[kind].map((r) => r.cpu_us));
    const peerOf: Record<Kind, Kind> = {
      "sdk-sync": "httpx-sync",
      "httpx-sync": "httpx-sync",
      "sdk-async": "httpx-async",
      "httpx-async": "httpx-async",
    };
    const requestRows = KINDS.map((kind) => {
      const peer = peerOf[kind];
      return [
        LABEL[kind],
        spread(
          runs[kind].map((r) => r.wall_us),
          fmt.us,
        ),
        kind === peer ? "1.00x" : fmt.ratio(wall(kind) / wall(peer)),
        fmt.us(cpu(kind)),
        kind === peer ? "1.00x" : fmt.ratio(cpu(kind) / cpu(peer)),
        String(hundred[kind] ?? ""),
      ];
    });

    const summary: string[][] = [
      [
        `Python: import time of the SDK (\`-X importtime\`, cumulative)`,
        `${(median(sdkImports.map((r) => r.cumulative_us)) / 1000).toFixed(1)} ms`,
        `httpx alone ${(median(httpxImports.map((r) => r.cumulative_us)) / 1000).toFixed(1)} ms`,
        fmt.ratio(median(sdkImports.map((r) => r.cumulative_us)) / median(httpxImports.map((r) => r.cumulative_us))),
        "",
        "shown",
      ],
      [
        `Python: \`python -c 'import ${module}'\`, whole process (wall)`,
        us(median(sdkImports.map((r) => r.wall_us))),
        `httpx alone ${us(median(httpxImports.map((r) => r.wall_us)))}`,
        fmt.ratio(median(sdkImports.map((r) => r.wall_us)) / median(httpxImports.map((r) => r.wall_us))),
        "",
        "shown",
      ],
    ];
    for (const [kind, label] of [
      ["sdk-sync", "sync"],
      ["sdk-async", "async"],
    ] as const) {
      const peer = peerOf[kind];
      const ratio = wall(kind) / wall(peer);
      summary.push([
        `Python: per-request time, loopback GET, ${label}`,
        fmt.us(wall(kind)),
        `httpx alone ${fmt.us(wall(peer))}`,
        fmt.ratio(ratio),
        "<= 1.15x",
        verdict(ratio, 1.15),
      ]);
      summary.push([
        `Python: client CPU per request, ${label}`,
        fmt.us(cpu(kind)),
        `httpx alone ${fmt.us(cpu(peer))}`,
        fmt.ratio(cpu(kind) / cpu(peer)),
        "",
        "shown",
      ]);
      const opened = hundred[kind] ?? Number.NaN;
      summary.push([
        `Python: connections opened for 100 sequential calls, ${label}`,
        String(opened),
        `httpx alone ${hundred[peer] ?? ""}`,
        "",
        "1",
        opened === 1 ? "met" : "MISSED",
      ]);
    }

    const section = [
      "## Python SDK",
      "",
      `The service's SDK and the runtime built into wheels (\`python -m build\`) and installed with pip into a fresh virtual environment; ` +
        `Python ${pythonVersion}, httpx ${httpxVersion}, pydantic ${pydanticVersion}. Every figure is from whole Python processes started from that environment, as users run them.`,
      "",
      "### Import time",
      "",
      `${options.importRounds} runs per command, interleaved (the commands take turns, their order rotating), after one uncounted run of each; medians (min..max). ` +
        "`-X importtime` gives the module's cumulative import time as the interpreter measures it (the SDK's includes httpx and pydantic, which it imports); " +
        "the process's wall time is from spawn to exit and its CPU time (user + system) is the child's own, from `wait4`.",
      "",
      table(["command", "cumulative import time (`-X importtime`)", "process wall time", "process CPU time"], importRows),
      "",
      "### Per-request time on loopback",
      "",
      `A node:http server in its own process on 127.0.0.1 answers every GET with a 79-byte JSON body, keep-alive (the server of the TypeScript request benchmark). ` +
        `Each client runs in its own process: ${options.warmup} calls, then ${options.perRound} sequential calls timed; ${options.rounds} rounds, in each round every client once, the order rotating. ` +
        "Per client: the median (min..max) of the rounds' mean wall time per call, and the median of the process's CPU time (user + system, all threads) per call over the same calls. " +
        "The SDK validates each answer into its pydantic model; httpx alone decodes the JSON. " +
        "Connections: a fresh process per client makes 100 sequential calls (no warm-up) and the server counts the sockets it accepted meanwhile.",
      "",
      table(
        [
          "client",
          "per request, wall (median of rounds)",
          "vs httpx alone",
          "CPU per request",
          "CPU vs httpx alone",
          "connections for 100 calls",
        ],
        requestRows,
      ),
    ].join("\n");
    return { summary, section };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
