// The full soak, in the contract tests (`npm run test:contract`): 2,000 jobs per language client through the mock
// with every fault kind it has at about 5% of the requests, in compressed time, each driver in its own process; the
// judge cross-checks each driver's report with the mock's request log. soak.test.ts runs a small count in `npm test`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_KINDS } from "../../mock/index.js";
import { buildGoDriver, GO_BUILD_LIMIT_MS, removeGoDrivers } from "./go-drivers.js";
import { FAULT_SHARE, runSoak, SOAK_LANGUAGES, summary } from "./soak-run.js";

const JOBS = 2_000;

describe("soak (full)", () => {
  // The Go driver builds before the tests, under a limit of its own: a cold build can take minutes.
  beforeAll(() => buildGoDriver("./soak").then(() => undefined), GO_BUILD_LIMIT_MS);
  afterAll(removeGoDrivers);

  for (const [index, language] of SOAK_LANGUAGES.entries()) {
    it(`${language}: ${JOBS} jobs, no duplicate submission, no lost job, every call ended within its deadline plus 1 s`, async () => {
      const outcome = await runSoak(language, JOBS, 2000 + index, 540_000);
      console.log(summary(outcome));
      const r = outcome.report;
      expect(r.duplicates).toEqual([]);
      expect(r.lost).toEqual([]);
      expect(r.overruns).toEqual([]);
      expect(r.earlyRetries).toEqual([]);
      expect(r.wrong).toEqual([]);
      expect(r.reported).toBe(JOBS);
      expect(r.ok).toBeGreaterThanOrEqual(JOBS * 0.6);
      expect(r.created).toBeGreaterThanOrEqual(JOBS * 0.9);
      // Every kind the mock has was injected, at about the share asked for in all.
      expect(FAULT_KINDS.filter((k) => (r.faults[k] ?? 0) === 0)).toEqual([]);
      expect(r.faulted / r.requests).toBeGreaterThan(FAULT_SHARE * 0.6);
      expect(r.faulted / r.requests).toBeLessThan(FAULT_SHARE * 1.4);
    }, 600_000);
  }
});
