// `npm run bench`: every benchmark in one run, printed as markdown (docs/benchmarks.md keeps a copy).
// Options: --only=generation,requests,bundle,tsc  --reps=N (generation runs on the large description, default 3)
//          --profile (adds CPU profiles of generation and of our client's requests, and generation's phase times)
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { benchBundles } from "./bundle.js";
import { generationTable, LARGE, ownDescription, runGeneration } from "./generation.js";
import { fmt, lastJson, log, machine, median, ROOT, runNode, table, verdict } from "./lib.js";
import { hotSpots, hotSpotTables, inclusiveSpots, inclusiveTable } from "./profile.js";
import { benchRequests, requestTable } from "./requests.js";
import { benchTsc } from "./tsc.js";

const { values } = parseArgs({
  options: {
    only: { type: "string" },
    reps: { type: "string" },
    profile: { type: "boolean" },
  },
});
const only = new Set((values.only ?? "generation,requests,bundle,tsc").split(","));
const reps = Number(values.reps ?? 3);
const requestOptions = { rounds: 5, perRound: 2000, warmup: 500 };

const summary: string[][] = [];
const sections: string[] = [];
const row = (metric: string, ours: string, reference: string, ratio: string, target: string, result: string) =>
  summary.push([metric, ours, reference, ratio, target, result]);

if (only.has("generation")) {
  const own = await ownDescription();
  log(`generation: ${LARGE} x${reps} (ours, openapi-typescript, hey-api), then ${own} x5 ...`);
  const profileDir = values.profile ? join(ROOT, ".tmp", "bench", "prof-generation") : undefined;
  const large = await runGeneration(LARGE, ["ours", "ots", "hey"], reps, profileDir === undefined ? {} : { profileDir });
  const mine = await runGeneration(own, ["ours"], 5);
  const ours = large.perTool.ours;
  const ots = large.perTool.ots;
  const hey = large.perTool.hey;
  if (ours && ots) {
    const r = median(ours.ms) / median(ots.ms);
    row(
      "generation time, GitHub REST description (811 paths)",
      fmt.ms(median(ours.ms)),
      `openapi-typescript ${fmt.ms(median(ots.ms))}`,
      fmt.ratio(r),
      "<= 1.50x",
      verdict(r, 1.5),
    );
  }
  if (ours && hey) {
    const r = median(ours.ms) / median(hey.ms);
    row(
      "generation time, same file",
      fmt.ms(median(ours.ms)),
      `@hey-api/openapi-ts ${fmt.ms(median(hey.ms))}`,
      fmt.ratio(r),
      "< 1.00x",
      r < 1 ? "met" : "MISSED",
    );
  } else row("generation time vs @hey-api/openapi-ts", "", "did not run", "", "< 1.00x", "not measured");
  if (ours) {
    const worst = Math.max(...ours.rss);
    const otsRss = ots ? `openapi-typescript ${fmt.mib(median(ots.rss))}` : "";
    row(
      "peak RSS of generation, same file (worst run)",
      fmt.mib(worst),
      otsRss,
      ots ? fmt.ratio(worst / median(ots.rss)) : "",
      "< 1024 MiB",
      verdict(worst, 1024),
    );
  }
  const mineOurs = mine.perTool.ours;
  if (mineOurs) {
    const ms = median(mineOurs.ms);
    row("generation time, the service's own description", fmt.ms(ms), "1 s budget", fmt.ratio(ms / 1000), "< 1 s", verdict(ms, 1000));
  }
  sections.push(`## Generation\n\n${generationTable(large, mine, { large: reps, own: 5 })}`);
  if (profileDir !== undefined) {
    log("generation: phase times ...");
    type Phases = { phases: Record<string, number>; rssMiB: Record<string, number> };
    const p = lastJson<Phases>((await runNode(["--import", "tsx", "scripts/bench/gen-child.ts", "phases", LARGE])).stdout);
    const q = lastJson<Phases>((await runNode(["--import", "tsx", "scripts/bench/gen-child.ts", "phases", own])).stdout);
    const phaseRows = Object.entries(p.phases).map(([name, ms]) => [
      name.startsWith("  ") ? `&nbsp;&nbsp;${name.trim()}` : name,
      fmt.ms(ms),
      fmt.mib(p.rssMiB[name] ?? 0),
      q.phases[name] === undefined ? "" : fmt.ms(q.phases[name]),
    ]);
    // Node names profiles CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile; the main thread's id is 0 (tsx's loader
    // and the generator's workers write profiles of their own).
    const main = (await readdir(profileDir)).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
    sections.push(
      [
        "### Where generation spends its time",
        "",
        "The phases of generate(), run one after another in one process (the emitters sequentially), on the large file and on the service's own:",
        "",
        table(["phase", "time (GitHub)", "RSS after it (GitHub)", "time (own description)"], phaseRows),
        ...(main === undefined
          ? []
          : [
              "",
              "CPU profile of one run of our generation (`node --cpu-prof`):",
              "",
              hotSpotTables(await hotSpots(join(profileDir, main)), 15),
              "",
              "Inclusive time under functions of generator/ (synchronous stacks only: time after an `await` is not attributed to the caller):",
              "",
              inclusiveTable(await inclusiveSpots(join(profileDir, main), (where) => where.startsWith("generator/")), 15),
            ]),
      ].join("\n"),
    );
  }
}

if (only.has("requests")) {
  log(`requests: ${requestOptions.rounds} x ${requestOptions.perRound} per client ...`);
  const bench = await benchRequests(requestOptions);
  const raw = bench.perRequestUs["raw fetch"]!;
  const of = bench.perRequestUs["openapi-fetch"]!;
  const ours = bench.perRequestUs["our client (getJob)"]!;
  row(
    "per-request time, loopback GET",
    fmt.us(ours),
    `raw fetch ${fmt.us(raw)}`,
    fmt.ratio(ours / raw),
    "<= 1.05x",
    verdict(ours / raw, 1.05),
  );
  row(
    "per-request overhead over raw fetch",
    fmt.us(ours - raw),
    `openapi-fetch +${fmt.us(of - raw)}`,
    fmt.ratio((ours - raw) / (of - raw)),
    "< 1.00x",
    ours - raw < of - raw ? "met" : "MISSED",
  );
  sections.push(`## Per-request overhead\n\n${requestTable(bench, requestOptions)}`);
  if (values.profile) {
    log("requests: CPU profile of our client ...");
    const dir = join(ROOT, ".tmp", "bench", "prof-requests");
    const { rm, stat } = await import("node:fs/promises");
    await rm(dir, { recursive: true, force: true });
    await runNode([
      "--cpu-prof",
      "--cpu-prof-dir",
      dir,
      "--import",
      "tsx",
      "scripts/bench/requests-profile.ts",
      "our client (getJob)",
      "20000",
    ]);
    const files = await Promise.all((await readdir(dir)).map(async (f) => ({ f, size: (await stat(join(dir, f))).size })));
    const main = files.sort((a, b) => b.size - a.size)[0]!;
    const file = join(dir, main.f);
    sections.push(
      [
        "### Where our client's request time goes",
        "",
        "CPU profile of 20000 sequential getJob calls (the client's process only; the server runs in another):",
        "",
        hotSpotTables(await hotSpots(file), 20),
        "",
        "Inclusive time under runtime/ and openapi-fetch:",
        "",
        inclusiveTable(await inclusiveSpots(file, (where) => where.startsWith("runtime/") || where.startsWith("openapi-fetch/")), 15),
      ].join("\n"),
    );
  }
}

if (only.has("bundle")) {
  log("bundle: esbuild ...");
  const b = await benchBundles();
  row(
    "bundle, runtime + whole generated client (min + gzip)",
    fmt.kb(b.wholeGzip),
    "15 kB budget",
    fmt.ratio(b.wholeGzip / 15_000),
    "< 15 kB",
    verdict(b.wholeGzip, 15_000),
  );
  row(
    "bundle, one operation alone vs whole (tree-shaking)",
    fmt.kb(b.oneGzip),
    `whole ${fmt.kb(b.wholeGzip)}`,
    fmt.ratio(b.oneGzip / b.wholeGzip),
    "< 1.00x",
    b.oneGzip < b.wholeGzip ? "met" : "MISSED",
  );
  sections.push(`## Bundle size\n\n${b.table}`);
}

if (only.has("tsc")) {
  log("tsc: 5 runs per program ...");
  const t = await benchTsc(5);
  const tscRows = [
    ["strict tsc, a project's generated client vs openapi-typescript's types", t.ratio],
    ["strict tsc, generated/ with the runtime's sources (not what users compile)", t.sourcesRatio],
  ] as const;
  for (const [label, ratio] of tscRows) row(label, "", "", fmt.ratio(ratio), "<= 1.30x", verdict(ratio, 1.3));
  sections.push(`## Type-check time\n\n${t.table}`);
}

console.log(
  [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}.`,
    "",
    table(["benchmark", "ours", "reference", "ratio", "target", "result"], summary),
    "",
    ...sections.flatMap((s) => [s, ""]),
  ].join("\n"),
);
