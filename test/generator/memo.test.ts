// memoByText (generator/memo.ts): the emitters' names and literals of texts seen before.
import { describe, expect, it } from "vitest";
import { memoByText } from "../../generator/memo.js";

describe("memoByText", () => {
  it("makes each text's result once and gives it back after", () => {
    const made: string[] = [];
    const upper = memoByText((text) => {
      made.push(text);
      return text.toUpperCase();
    });
    expect(["a", "b", "a", "a", "b"].map(upper)).toEqual(["A", "B", "A", "A", "B"]);
    expect(made).toEqual(["a", "b"]);
  });

  it("keeps a result that is undefined or empty too", () => {
    let calls = 0;
    const nothing = memoByText((): string | undefined => {
      calls++;
      return undefined;
    });
    nothing("x");
    nothing("x");
    expect(calls).toBe(1);
  });

  it("starts again when full, so that it holds at most its size", () => {
    const made: string[] = [];
    const same = memoByText((text) => {
      made.push(text);
      return text;
    }, 2);
    for (const text of ["a", "b", "c", "a"]) same(text);
    // "c" found it full and emptied it: "a" is made again.
    expect(made).toEqual(["a", "b", "c", "a"]);
    same("c");
    expect(made).toEqual(["a", "b", "c", "a"]);
  });
});
