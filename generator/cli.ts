#!/usr/bin/env node
// The toolchain's command. Each command's module is loaded only when it runs, so that --version, --help and
// mistakes answer at once, before the generator's heavy dependencies load.
import { helpHint, nearest, UsageError } from "./cli/args.js";
import { BIN } from "./names.js";
import { toolchainVersion } from "./version.js";

const COMMANDS: Readonly<Record<string, { summary: string; run: (args: readonly string[]) => Promise<number> }>> = {
  generate: {
    summary: "validate a description and write the SDKs (see paperoffice-sdk.config.json)",
    run: async (args) => (await import("./cli/generate-command.js")).runGenerate(args),
  },
  release: {
    summary: "store a new release, generate the SDKs, write its changelog section, check the packages",
    run: async (args) => (await import("./cli/release-command.js")).runRelease(args),
  },
  diff: {
    summary: "compare two releases: a changelog section, breaking changes flagged",
    run: async (args) => {
      const { DIFF_USAGE, runDiff } = await import("./diff/command.js");
      if (args.includes("--help") || args.includes("-h")) {
        console.log(DIFF_USAGE.replace(/^Usage: /, `Usage: ${BIN} `));
        return 0;
      }
      return runDiff(args);
    },
  },
  expand: {
    summary: "write the description with each pipeline as its own operation, for any OpenAPI tool",
    run: async (args) => (await import("./cli/expand-command.js")).runExpand(args),
  },
  publish: {
    summary: "publish a release's SDKs and the runtimes they need to their registries (a dry run unless --yes)",
    run: async (args) => (await import("./cli/publish-command.js")).runPublish(args),
  },
};

const USAGE = `Usage: ${BIN} <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`)
  .join("\n")}

Options:
  -h, --help     this text; \`${BIN} <command> --help\` for a command's options
  -v, --version  the toolchain's version`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    console.error(`error: missing command\n\n${USAGE}`);
    return 1;
  }
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return 0;
  }
  if (command === "--version" || command === "-v") {
    console.log(toolchainVersion());
    return 0;
  }
  const entry = COMMANDS[command];
  if (entry) return entry.run(rest);
  if (command.startsWith("-")) {
    throw new UsageError(`missing command before ${command}: ${BIN} <${Object.keys(COMMANDS).join("|")}> ${argv.join(" ")}`);
  }
  const hint = nearest(command, Object.keys(COMMANDS));
  throw new UsageError(
    `unknown command "${command}"${hint ? ` (did you mean ${hint}?)` : ""}; commands: ${Object.keys(COMMANDS).join(", ")}`,
  );
}

// A reader that went away (`paperoffice-sdk generate --help | head -3`) ends the output, not the command with a trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Problems with the input are reported as lines, never as a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    const named = error instanceof Error && ["SpecError", "ConfigError"].includes(error.constructor.name);
    console.error(named ? message : `error: ${message}`);
    if (error instanceof UsageError) console.error(helpHint(error.command));
    process.exitCode = 1;
  },
);
