// The lock of the package tests' shared build (test/package/helpers.ts): a lock whose process is gone is removed,
// any other is kept.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breakIfAbandoned, freshDir } from "../package/helpers.js";

let root: { dir: string; remove: () => Promise<void> };
beforeAll(async () => {
  root = await freshDir("lock");
});
afterAll(() => root.remove());

async function lockOf(name: string, pid: number | undefined): Promise<string> {
  const lock = join(root.dir, name);
  await mkdir(lock);
  if (pid !== undefined) await writeFile(join(lock, "pid"), String(pid));
  return lock;
}

describe("the lock of the shared build", () => {
  it("is removed when the process that took it is gone", async () => {
    const gone = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }));
    const lock = await lockOf("gone.lock", gone);
    expect(await breakIfAbandoned(lock)).toBe(true);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(`${lock}.break`)).toBe(false);
  });

  it("is kept while its process runs, and while it names none yet", async () => {
    const held = await lockOf("held.lock", process.pid);
    const fresh = await lockOf("fresh.lock", undefined);
    expect(await breakIfAbandoned(held)).toBe(false);
    expect(await breakIfAbandoned(fresh)).toBe(false);
    expect([existsSync(held), existsSync(fresh)]).toEqual([true, true]);
  });
});
