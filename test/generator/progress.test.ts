// Progress on a terminal only, and only for a step that lasts over a second; the line is cleared at the end.
import { describe, expect, it } from "vitest";
import { progress } from "../../generator/cli/progress.js";

function fakeStream(isTTY: boolean): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = { isTTY, columns: 80, write: (chunk: string) => written.push(chunk) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("progress", () => {
  it("shows a step that lasts over a second on a terminal, with its time, and clears the line when done", async () => {
    const saved = process.env.CI;
    delete process.env.CI;
    try {
      const { stream, written } = fakeStream(true);
      const bar = progress(stream);
      bar.step("quick");
      await sleep(300);
      bar.step("building the intermediate model");
      expect(written).toEqual([]);
      await sleep(1600);
      bar.done();
      expect(written.some((w) => w.includes("quick"))).toBe(false);
      expect(written.some((w) => /building the intermediate model \(\d+\.\d s\)/.test(w))).toBe(true);
      expect(written.at(-1)).toBe("\r\x1b[K");
    } finally {
      if (saved !== undefined) process.env.CI = saved;
    }
  });

  it("prints nothing when not on a terminal", async () => {
    const { stream, written } = fakeStream(false);
    const bar = progress(stream);
    bar.step("slow");
    await sleep(1300);
    bar.done();
    expect(written).toEqual([]);
  });
});
