// README's commands as typed: every `npm run <script>` names a script of package.json, and every command of the
// toolchain it shows (`npx paperoffice-sdk <command> ...`, `npm run paperoffice-sdk -- <command> ...`,
// `npm run generate -- ...`, `npm run diff -- ...`) names a command whose --help lists each flag the line passes.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** Each command line README shows: the lines of its sh blocks and its inline code spans, with their line numbers. */
function commandLines(text: string): { line: number; command: string }[] {
  const found: { line: number; command: string }[] = [];
  let fence: string | undefined;
  text.split("\n").forEach((row, i) => {
    const open = /^```(\w*)/.exec(row);
    if (open) {
      fence = fence === undefined ? open[1] || "text" : undefined;
      return;
    }
    if (fence === "sh" || fence === "bash") found.push({ line: i + 1, command: row.replace(/\s+#.*$/, "").trim() });
    else if (fence === undefined) for (const span of row.matchAll(/`([^`]+)`/g)) found.push({ line: i + 1, command: span[1]!.trim() });
  });
  return found.filter((c) => /^(npx paperoffice-sdk|npm run) /.test(c.command) || /&& npm run /.test(c.command));
}

/** The toolchain command and its arguments a line runs, if it runs one. */
function toolchainCall(command: string): { command: string; args: string[] } | undefined {
  const words = command.split(/\s+/);
  if (words[0] === "npx" && words[1] === "paperoffice-sdk") return { command: words[2] ?? "", args: words.slice(3) };
  if (words[0] === "npm" && words[1] === "run") {
    const rest = words[3] === "--" ? words.slice(4) : [];
    if (words[2] === "paperoffice-sdk") return { command: rest[0] ?? "", args: rest.slice(1) };
    if (words[2] === "generate" || words[2] === "diff") return { command: words[2], args: rest };
  }
  return undefined;
}

const lines = commandLines(README);
const helps = new Map<string, Promise<string>>();
const helpOf = (command: string) => {
  if (!helps.has(command)) {
    helps.set(
      command,
      run(process.execPath, ["--import", "tsx", "generator/cli.ts", command, "--help"], { cwd: ROOT }).then(({ stdout }) => stdout),
    );
  }
  return helps.get(command)!;
};

describe("README's commands", () => {
  it("are there to check", () => {
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((l) => toolchainCall(l.command) !== undefined).length).toBeGreaterThan(5);
  });

  it.each(lines.flatMap((l) => [...l.command.matchAll(/npm run ([\w:-]+)/g)].map((m) => [l.line, m[1]!] as const)))(
    "README.md:%i runs the script %s, which package.json has",
    (_line, script) => {
      expect(Object.keys(scripts)).toContain(script);
    },
  );

  // A placeholder (`<command>`) names no command to check.
  it.each(
    lines.flatMap((l) =>
      toolchainCall(l.command) && !toolchainCall(l.command)!.command.startsWith("<") ? [[l.line, l.command] as const] : [],
    ),
  )(
    "README.md:%i `%s` names a command and flags it has",
    async (_line, command) => {
      const call = toolchainCall(command)!;
      const help = await helpOf(call.command);
      expect(help).toMatch(new RegExp(`^Usage: paperoffice-sdk ${call.command}\\b|^Usage: ${call.command}\\b`, "m"));
      for (const flag of call.args.filter((a) => a.startsWith("--")).map((a) => a.split("=")[0]!)) {
        expect(help, `${flag} in ${call.command} --help`).toMatch(new RegExp(`^\\s+(-\\w, )?${flag}\\b`, "m"));
      }
    },
    120_000,
  );
});
