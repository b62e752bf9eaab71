// The test side of the scenario server: starts serve.ts as a child process and talks to it over 127.0.0.1.
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Step } from "./scenario.js";
import type { ControlScenario, RecordedRequest } from "./server.js";

export type RecordedRun = Record<string, { main: RecordedRequest[]; foreign: RecordedRequest[] }>;

export class RemoteScenarioServer {
  readonly #child: ChildProcess;
  readonly #main: string;

  private constructor(child: ChildProcess, main: string) {
    this.#child = child;
    this.#main = main;
  }

  static async start(): Promise<RemoteScenarioServer> {
    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./serve.ts", import.meta.url))], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once("line", resolve);
      child.once("exit", (code) => reject(new Error(`the scenario server exited with ${code}`)));
    });
    return new RemoteScenarioServer(child, (JSON.parse(line) as { main: string }).main);
  }

  /** Registers scenarios; returns each one's base URL and other-origin prefix, in order. */
  async add(run: string, scenarios: readonly { name: string; steps: Step[]; foreignSteps?: Step[] }[]) {
    const body: ControlScenario[] = scenarios.map((s) => ({ run, ...s }));
    const response = await fetch(`${this.#main}/_control/scenarios`, { method: "POST", body: JSON.stringify(body) });
    return (await response.json()) as { baseUrl: string; foreignUrl: string }[];
  }

  async recorded(run: string): Promise<RecordedRun> {
    const response = await fetch(`${this.#main}/_control/requests?run=${encodeURIComponent(run)}`);
    return (await response.json()) as RecordedRun;
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.#child.once("exit", () => resolve()));
    this.#child.stdin?.end();
    await exited;
  }
}
