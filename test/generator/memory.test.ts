// The collection a large description's run makes between emitters (generator/memory.ts).
import { describe, expect, it } from "vitest";
import { garbageCollector } from "../../generator/memory.js";

const heap = () => process.memoryUsage().heapUsed;
const MB = 2 ** 20;

/** About 100 MB of strings that live long enough to reach V8's old space, where only a full collection frees them. */
function oldObjects(): string[][] {
  const held: string[][] = [];
  for (let i = 0; i < 40; i++) held.push(Array.from({ length: 50_000 }, (_, j) => `${i}:${j}:`.repeat(4)));
  return held;
}

describe("garbageCollector", () => {
  it.each([
    { case: "collects once the heap has grown by more than its threshold", threshold: 16 * MB, freed: true },
    { case: "leaves the heap alone below its threshold", threshold: 2 ** 40, freed: false },
  ])("$case", ({ threshold, freed }) => {
    const collect = garbageCollector(threshold);
    let held: string[][] | undefined = oldObjects();
    const grown = heap();
    held = undefined;
    collect();
    expect(held).toBeUndefined();
    // A collection V8 starts on its own may free a little; the threshold's frees the lot.
    expect(grown - heap() > 32 * MB).toBe(freed);
  });
});
