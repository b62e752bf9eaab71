// Per-request overhead on loopback: many sequential small GETs to a node:http server on 127.0.0.1 (in its own
// process), with raw fetch, openapi-fetch and our generated client, rounds in alternating order.
import { fmt, median, table, verdict } from "./lib.js";
import { CLIENT_NAMES, type OneRequest, PROBE_NAMES, requestClients, startServer } from "./request-clients.js";

export interface RequestOptions {
  rounds: number;
  perRound: number;
  warmup: number;
}

export interface RequestBench {
  rows: string[][];
  /** Median µs per request of each client. */
  perRequestUs: Record<string, number>;
  summary: string;
}

async function loop(one: OneRequest, count: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < count; i++) await one();
  return ((performance.now() - started) * 1000) / count;
}

export async function benchRequests(options: RequestOptions): Promise<RequestBench> {
  const server = await startServer();
  try {
    const clients = Object.entries(requestClients(server.origin));
    for (const [, one] of clients) await loop(one, options.warmup);
    const samples = new Map<string, number[]>(clients.map(([name]) => [name, []]));
    for (let round = 0; round < options.rounds; round++) {
      // Alternate the order: forwards on even rounds, backwards on odd ones.
      const order = round % 2 === 0 ? clients : [...clients].reverse();
      for (const [name, one] of order) samples.get(name)!.push(await loop(one, options.perRound));
    }
    const perRequestUs = Object.fromEntries([...samples].map(([name, us]) => [name, median(us)]));
    const raw = perRequestUs["raw fetch"]!;
    const of = perRequestUs["openapi-fetch"]!;
    const ours = perRequestUs["our client (getJob)"]!;
    const rows = [...samples].map(([name, us]) => {
      const label = (PROBE_NAMES as readonly string[]).includes(name) ? `probe: ${name}` : name;
      const m = median(us);
      return [
        label,
        fmt.us(m),
        `${fmt.us(Math.min(...us))} .. ${fmt.us(Math.max(...us))}`,
        name === "raw fetch" ? "—" : `+${fmt.us(m - raw)}`,
        fmt.ratio(m / raw),
      ];
    });
    const summary = [
      `Our client vs raw fetch: ${fmt.ratio(ours / raw)} (target <= 1.05x: ${verdict(ours / raw, 1.05)}).`,
      `Our overhead over raw fetch ${fmt.us(ours - raw)} vs openapi-fetch's ${fmt.us(of - raw)} (target: below it: ${ours - raw < of - raw ? "met" : "MISSED"}).`,
    ].join("\n");
    return { rows, perRequestUs, summary };
  } finally {
    server.stop();
  }
}

export function requestTable(bench: RequestBench, options: RequestOptions): string {
  return [
    `${options.rounds} rounds x ${options.perRound} sequential GETs per client (after ${options.warmup} warm-up requests each), order alternating; median of the rounds' mean time per request. ` +
      `The probes are raw fetch plus one piece of what the clients add per call (${CLIENT_NAMES.length} clients, ${PROBE_NAMES.length} probes, all in the same run).`,
    "",
    table(["client", "per request (median)", "range of rounds", "overhead vs raw", "ratio vs raw"], bench.rows),
    "",
    bench.summary,
  ].join("\n");
}
