// Per-request overhead on loopback: many sequential small GETs to a node:http server on 127.0.0.1 (in its own
// process), with raw fetch, openapi-fetch and our generated client. The clients take turns, in alternating order, so
// that load from elsewhere on a shared machine hits all of them alike; each turn is one sample, and the medians of
// the samples are compared. The client process's CPU time per request is
// reported beside the wall time: it moves far less with the machine's load, and it is where the overhead lives.
import { fmt, median, table, verdict } from "./lib.js";
import { CLIENT_NAMES, type OneRequest, PROBE_NAMES, requestClients, startServer } from "./request-clients.js";

export interface RequestOptions {
  rounds: number;
  perRound: number;
  warmup: number;
  /** Calls in flight at once; 1 is sequential. */
  inflight?: number;
}

/**
 * Requests per client per turn; a round of `perRound` requests per client is cut into turns of this size. Long
 * enough (about 0.3 s) that the garbage one client leaves for the next turn's collections stays a small share of it.
 */
const BLOCK = 1000;

export interface RequestBench {
  rows: string[][];
  /** Median µs per request of each client. */
  perRequestUs: Record<string, number>;
  summary: string;
}

/** Mean wall time and CPU time (user + system, this process) per request of one turn, in µs. */
export interface Turn {
  wallUs: number;
  cpuUs: number;
}

export async function loop(one: OneRequest, count: number, inflight = 1): Promise<Turn> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inflight, count) }, lane));
  const used = process.cpuUsage(cpu);
  return { wallUs: ((performance.now() - started) * 1000) / count, cpuUs: (used.user + used.system) / count };
}

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function benchRequests(options: RequestOptions): Promise<RequestBench> {
  const server = await startServer();
  try {
    const clients = Object.entries(requestClients(server.origin));
    for (const [, one] of clients) await loop(one, options.warmup, options.inflight);
    const samples = new Map<string, Turn[]>(clients.map(([name]) => [name, []]));
    const perTurn = Math.min(BLOCK, options.perRound);
    const turns = Math.round((options.rounds * options.perRound) / perTurn);
    for (let turn = 0; turn < turns; turn++) {
      // Alternate the order: forwards on even turns, backwards on odd ones.
      const order = turn % 2 === 0 ? clients : [...clients].reverse();
      for (const [name, one] of order) samples.get(name)!.push(await loop(one, perTurn, options.inflight));
    }
    const wall = new Map([...samples].map(([name, turns]) => [name, turns.map((t) => t.wallUs)]));
    const cpu = new Map([...samples].map(([name, turns]) => [name, median(turns.map((t) => t.cpuUs))]));
    const perRequestUs = Object.fromEntries([...wall].map(([name, us]) => [name, median(us)]));
    const raw = perRequestUs["raw fetch"]!;
    const of = perRequestUs["openapi-fetch"]!;
    const ours = perRequestUs["our client (getJob)"]!;
    const rawCpu = cpu.get("raw fetch")!;
    const rows = [...wall].map(([name, us]) => {
      const label = (PROBE_NAMES as readonly string[]).includes(name) ? `probe: ${name}` : name;
      const m = median(us);
      const c = cpu.get(name)!;
      const isRaw = name === "raw fetch";
      return [
        label,
        fmt.us(m),
        `${fmt.us(quantile(us, 0.1))} .. ${fmt.us(quantile(us, 0.9))}`,
        isRaw ? "—" : `+${fmt.us(m - raw)}`,
        fmt.ratio(m / raw),
        fmt.us(c),
        isRaw ? "—" : `+${fmt.us(c - rawCpu)}`,
      ];
    });
    const oursCpu = cpu.get("our client (getJob)")!;
    const ofCpu = cpu.get("openapi-fetch")!;
    const summary = [
      `Our client vs openapi-fetch alone: ${fmt.ratio(ours / of)} (target <= 1.02x: ${verdict(ours / of, 1.02)}).`,
      `Our client vs raw fetch: ${fmt.ratio(ours / raw)} (target <= 1.10x: ${verdict(ours / raw, 1.1)}); openapi-fetch alone ${fmt.ratio(of / raw)}.`,
      `Client CPU per request: ours ${fmt.ratio(oursCpu / rawCpu)} of raw fetch's (+${fmt.us(oursCpu - rawCpu)}), openapi-fetch ${fmt.ratio(ofCpu / rawCpu)} (+${fmt.us(ofCpu - rawCpu)}).`,
    ].join("\n");
    return { rows, perRequestUs, summary };
  } finally {
    server.stop();
  }
}

export function requestTable(bench: RequestBench, options: RequestOptions): string {
  return [
    `${options.rounds * options.perRound} ${(options.inflight ?? 1) > 1 ? `GETs with ${options.inflight} in flight` : "sequential GETs"} per client (after ${options.warmup} warm-up requests each), in turns of ${BLOCK} per client, order alternating; median of the turns' mean time per request, with the 10th to 90th percentile of the turns. ` +
      `The probes break the overhead down: raw fetch plus one piece of what a client may add per call (${CLIENT_NAMES.length} clients, ${PROBE_NAMES.length} probes, all in the same run).`,
    "",
    table(
      [
        "client",
        "per request (median)",
        "p10 .. p90 of turns",
        "overhead vs raw",
        "ratio vs raw",
        "client CPU per request",
        "CPU overhead",
      ],
      bench.rows,
    ),
    "",
    bench.summary,
  ].join("\n");
}
