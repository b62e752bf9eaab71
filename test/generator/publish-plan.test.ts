// The publish plan over registries held in memory: what is missing is uploaded in order (runtime first), what is there
// with the same content is skipped, so a second run uploads nothing; one version held with other content refuses the
// whole plan before any upload, naming the package, the version and the registry.
import { describe, expect, it } from "vitest";
import { type Artifact, carryOut, type Publication, PublishRefused, planLine, planPublication } from "../../generator/publish/plan.js";

function memoryRegistry(held: Map<string, string>, uploads: string[]): Publication {
  const key = (a: Artifact) => `${a.name}@${a.version}`;
  return {
    ecosystem: "npm",
    registry: "memory://registry/",
    artifacts: [
      { name: "runtime", version: "0.1.0", file: "runtime.tgz", hash: "sha-runtime", runtime: true },
      { name: "sdk", version: "2026.1127.900", file: "sdk.tgz", hash: "sha-sdk", runtime: false, note: "dist-tag latest" },
    ],
    find: async (a) => held.get(key(a)),
    upload: async (a) => {
      uploads.push(key(a));
      held.set(key(a), a.hash);
    },
  };
}

describe("the publish plan", () => {
  it("uploads what is missing in order, and nothing on a second run", async () => {
    const held = new Map([["runtime@0.1.0", "sha-runtime"]]);
    const uploads: string[] = [];
    const plan = await planPublication([memoryRegistry(held, uploads)]);
    expect(plan.map((p) => p.state)).toEqual(["same", "missing"]);
    expect(planLine(plan[1]!, true)).toMatch(/^npm sdk@2026\.1127\.900 +memory:\/\/registry\/: would publish \(dist-tag latest\)$/);
    expect(await carryOut(plan, () => {})).toBe(1);
    expect(uploads).toEqual(["sdk@2026.1127.900"]);
    expect(await carryOut(await planPublication([memoryRegistry(held, uploads)]), () => {})).toBe(0);
    expect(uploads).toEqual(["sdk@2026.1127.900"]);
  });

  it("refuses a version held with other content before uploading anything", async () => {
    const held = new Map([["sdk@2026.1127.900", "sha-other"]]);
    const uploads: string[] = [];
    const plan = await planPublication([memoryRegistry(held, uploads)]);
    await expect(carryOut(plan, () => {})).rejects.toThrow(PublishRefused);
    await expect(carryOut(plan, () => {})).rejects.toThrow(
      /^npm sdk@2026\.1127\.900 already exists in memory:\/\/registry\/ with other content \(registry sha-other, built sha-sdk\)/,
    );
    expect(uploads).toEqual([]);
  });
});
