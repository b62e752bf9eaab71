// The release check of the Go module: every file parses and is gofmt-formatted (gofmt -l -e). Building needs the
// runtime module, which a release folder does not hold; the tests build against it.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

/** Problems of the module below `<out>/go` ([] when clean), undefined when gofmt is not on PATH. */
export async function checkGoModule(out: string): Promise<string[] | undefined> {
  try {
    const { stdout, stderr } = await promisify(execFile)("gofmt", ["-l", "-e", join(out, "go")]);
    const listed = `${stdout}${stderr}`.trim();
    return listed === "" ? [] : listed.split("\n").map((line) => `not gofmt-clean or does not parse: ${line}`);
  } catch (error) {
    const { code, stdout = "", stderr = "" } = error as { code?: string | number; stdout?: string; stderr?: string };
    if (code === "ENOENT") return undefined;
    return `${stdout}${stderr}`.trim().split("\n").slice(0, 20);
  }
}
