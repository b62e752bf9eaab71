// The soak in `npm test`: a small count of jobs per language client through the mock with every fault kind it has
// at about 5% of the requests, in compressed time. soak-contract.test.ts runs the full count. Each language's
// driver runs in its own process; the judge cross-checks its report with the mock's request log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_KINDS } from "../../mock/index.js";
import { buildGoDriver, GO_BUILD_LIMIT_MS, removeGoDrivers } from "./go-drivers.js";
import { runSoak, SOAK_LANGUAGES, type SoakOutcome, summary } from "./soak-run.js";

const JOBS = 100;
const seen: SoakOutcome[] = [];

describe("soak (small)", () => {
  // The Go driver builds before the tests, under a limit of its own: a cold build can take minutes.
  beforeAll(() => buildGoDriver("./soak").then(() => undefined), GO_BUILD_LIMIT_MS);
  afterAll(removeGoDrivers);

  for (const [index, language] of SOAK_LANGUAGES.entries()) {
    it(`${language}: ${JOBS} jobs, no duplicate submission, no lost job, every call ended within its deadline plus 1 s`, async () => {
      const outcome = await runSoak(language, JOBS, 1000 + index, 90_000);
      seen.push(outcome);
      console.log(summary(outcome));
      const r = outcome.report;
      expect(r.duplicates).toEqual([]);
      expect(r.lost).toEqual([]);
      expect(r.overruns).toEqual([]);
      expect(r.earlyRetries).toEqual([]);
      expect(r.wrong).toEqual([]);
      expect(r.reported).toBe(JOBS);
      // Faults are a few percent and one call in five has a short deadline: most jobs complete, nearly all are created.
      expect(r.ok).toBeGreaterThanOrEqual(JOBS * 0.6);
      expect(r.created).toBeGreaterThanOrEqual(JOBS * 0.85);
    }, 110_000);
  }

  it("injected every fault kind across the languages", () => {
    if (seen.length < SOAK_LANGUAGES.length) return;
    const injected = new Set(seen.flatMap((o) => Object.keys(o.report.faults)));
    expect(FAULT_KINDS.filter((k) => !injected.has(k))).toEqual([]);
  });
});
