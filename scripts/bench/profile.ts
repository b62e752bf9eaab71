// Summary of a V8 .cpuprofile (node --cpu-prof): the functions with the most self time, and the same grouped by
// source file. Usage as a command: tsx scripts/bench/profile.ts <file.cpuprofile> [top]
import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, ROOT, table } from "./lib.js";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface HotSpot {
  name: string;
  where: string;
  selfMs: number;
  share: number;
}

function shortUrl(url: string): string {
  if (url === "") return "(native)";
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const inModules = path.lastIndexOf("node_modules/");
  if (inModules >= 0) return path.slice(inModules + "node_modules/".length);
  return path.startsWith("/") ? relative(ROOT, path) : path;
}

export async function hotSpots(file: string): Promise<{ totalMs: number; functions: HotSpot[]; files: HotSpot[] }> {
  const profile = JSON.parse(await readFile(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let totalUs = 0;
  const fns = new Map<string, HotSpot>();
  const files = new Map<string, HotSpot>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (node === undefined) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") continue;
    totalUs += us;
    const where = url === "" ? "(native)" : `${shortUrl(url)}:${lineNumber + 1}`;
    const key = `${functionName}@${where}`;
    const f = fns.get(key) ?? { name: functionName || "(anonymous)", where, selfMs: 0, share: 0 };
    f.selfMs += us / 1000;
    fns.set(key, f);
    const fileKey = functionName === "(garbage collector)" ? "(garbage collector)" : shortUrl(url);
    const g = files.get(fileKey) ?? { name: fileKey, where: "", selfMs: 0, share: 0 };
    g.selfMs += us / 1000;
    files.set(fileKey, g);
  }
  const finish = (m: Map<string, HotSpot>) =>
    [...m.values()].map((h) => ({ ...h, share: h.selfMs / (totalUs / 1000) })).sort((a, b) => b.selfMs - a.selfMs);
  return { totalMs: totalUs / 1000, functions: finish(fns), files: finish(files) };
}

/**
 * Inclusive (self + callees) time of the functions whose source file matches `filter`, each counted once per sample
 * even when recursive: which of our own functions the time is spent under.
 */
export async function inclusiveSpots(file: string, filter: (where: string) => boolean): Promise<HotSpot[]> {
  const profile = JSON.parse(await readFile(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map<string, HotSpot>();
  let totalUs = 0;
  profile.samples.forEach((leaf, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const leafName = byId.get(leaf)?.callFrame.functionName;
    if (leafName === "(idle)" || leafName === "(program)") return;
    totalUs += us;
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      const where = `${shortUrl(url)}:${lineNumber + 1}`;
      if (!filter(where)) continue;
      const key = `${functionName}@${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const h = totals.get(key) ?? { name: functionName || "(anonymous)", where, selfMs: 0, share: 0 };
      h.selfMs += us / 1000;
      totals.set(key, h);
    }
  });
  return [...totals.values()].map((h) => ({ ...h, share: h.selfMs / (totalUs / 1000) })).sort((a, b) => b.selfMs - a.selfMs);
}

export function inclusiveTable(spots: readonly HotSpot[], top = 15): string {
  return table(
    ["inclusive", "share", "function", "where"],
    spots.slice(0, top).map((h) => [fmt.ms(h.selfMs), `${(h.share * 100).toFixed(1)}%`, `\`${h.name}\``, `\`${h.where}\``]),
  );
}

export function hotSpotTables(spots: Awaited<ReturnType<typeof hotSpots>>, top = 15): string {
  const pct = (s: number) => `${(s * 100).toFixed(1)}%`;
  return [
    `Sampled (non-idle) time ${fmt.ms(spots.totalMs)}. Top functions by self time:`,
    "",
    table(
      ["self", "share", "function", "where"],
      spots.functions.slice(0, top).map((h) => [fmt.ms(h.selfMs), pct(h.share), `\`${h.name}\``, `\`${h.where}\``]),
    ),
    "",
    "Self time by file:",
    "",
    table(
      ["self", "share", "file"],
      spots.files.slice(0, top).map((h) => [fmt.ms(h.selfMs), pct(h.share), `\`${h.name}\``]),
    ),
  ].join("\n");
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*scripts\/bench\//, "scripts/bench/"))) {
  const [file, top, ownPrefix] = process.argv.slice(2);
  if (file === undefined) throw new Error("usage: profile.ts <file.cpuprofile> [top] [own-folder-prefix]");
  const n = top === undefined ? 15 : Number(top);
  console.log(hotSpotTables(await hotSpots(file), n));
  if (ownPrefix !== undefined) {
    console.log(`\nInclusive time of functions under ${ownPrefix}:\n`);
    console.log(inclusiveTable(await inclusiveSpots(file, (where) => where.startsWith(ownPrefix)), n));
  }
}
