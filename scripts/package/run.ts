// Running the tools of the builds: tsc from this repository's node_modules, with its output on failure.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TSC = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));

export async function tsc(project: string): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [TSC, "-p", project], { cwd: ROOT, maxBuffer: 64 * 2 ** 20 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc -p ${project} failed:\n${stdout}${stderr}`);
  }
}
