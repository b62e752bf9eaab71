// Progress of a test run for logs (CI, a redirected `npm test`): the default reporter prints a file only when it
// ends, so a file that compiles or spawns for minutes prints nothing meanwhile. This one says every 20 s which files
// are still running, for how long and in which test, and counts the files done. On a terminal the default reporter
// already shows that live, so it stays quiet there.
import { relative } from "node:path";
import type { Reporter, TestCase, TestModule, TestSpecification } from "vitest/node";

const BEAT_MS = 20_000;

export default class ProgressReporter implements Reporter {
  readonly #running = new Map<string, { since: number; test?: string }>();
  readonly #quiet: boolean;
  readonly #beatMs: number;
  readonly #write: (line: string) => void;
  #timer: ReturnType<typeof setInterval> | undefined;
  #done = 0;
  #total = 0;
  #started = Date.now();

  constructor(options: { beatMs?: number; write?: (line: string) => void; quiet?: boolean } = {}) {
    this.#beatMs = options.beatMs ?? BEAT_MS;
    this.#write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
    this.#quiet = options.quiet ?? process.stdout.isTTY === true;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    if (this.#quiet) return;
    this.#total = specifications.length;
    this.#done = 0;
    this.#started = Date.now();
    this.#timer = setInterval(() => this.beat(), this.#beatMs);
    this.#timer.unref?.();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.#running.set(testModule.moduleId, { since: Date.now() });
  }

  onTestCaseReady(testCase: TestCase): void {
    const entry = this.#running.get(testCase.module.moduleId);
    if (entry) entry.test = testCase.fullName;
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.#running.delete(testModule.moduleId);
    this.#done++;
  }

  onTestRunEnd(): void {
    clearInterval(this.#timer);
    this.#running.clear();
  }

  /** One line per running file; public for tests. */
  beat(now = Date.now()): void {
    const elapsed = Math.round((now - this.#started) / 1000);
    for (const [id, { since, test }] of this.#running) {
      const file = relative(process.cwd(), id);
      const at = test === undefined ? "" : `, in "${test}"`;
      this.#write(
        `progress ${elapsed}s: ${this.#done}/${this.#total} files done; ${file} running for ${Math.round((now - since) / 1000)}s${at}`,
      );
    }
  }
}
