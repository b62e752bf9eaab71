// Generators as programs, in the manner of protoc's plugins: a plugin is a command that reads the IR (with its options
// and the output rules) as JSON on stdin and answers the files to write as JSON on stdout. To the core it is one more
// emitter: its files go below <out>/<name>/ through the same output writing as every target's (paths confined, the
// manifest, the whole folder swapped in at the end, nothing written when anything fails). plugin-protocol.schema.json
// is the protocol; docs/plugins.md says how to write one.
import { spawn } from "node:child_process";
import { isAbsolute, resolve } from "node:path";
import type { Emitter, EmittedFile } from "../emit/kit.js";
import type { IR } from "../ir/types.js";
import type { SchemaCheck } from "../schema-validator.js";
import protocol from "./plugin-protocol.schema.json" with { type: "json" };

export const PLUGIN_PROTOCOL = 1;
/** A plugin's name: its folder in the output, and how errors name it. */
export const PLUGIN_NAME = /^[a-z][a-z0-9-]{0,39}$/;
const DEFAULT_TIMEOUT_SECONDS = 120;
/** More than any generator answers; a runaway plugin is stopped here rather than filling the memory. */
const MAX_ANSWER_BYTES = 1 << 30;
const STDERR_TAIL = 4000;

export interface PluginSpec {
  readonly name: string;
  /** The program and its arguments (never through a shell). */
  readonly command: readonly string[];
  /** Passed to the plugin as they are. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The folder it runs in (default: the current one). */
  readonly cwd?: string;
  readonly timeoutSeconds?: number;
}

/**
 * A plugin's command as given (an array, or a string split at spaces), its program resolved against `base` when it is
 * a relative path (it names a folder), as a command line would find it from there.
 */
export function pluginCommand(command: string | readonly string[], base: string): string[] {
  const words = typeof command === "string" ? command.trim().split(/\s+/) : [...command];
  const [program = "", ...args] = words;
  return [program.includes("/") && !isAbsolute(program) ? resolve(base, program) : program, ...args];
}

const PATH_RULES =
  "relative to the plugin's folder, with forward slashes: no leading slash, no drive letter, no backslash, no empty, '.' or '..' segment";

/** A plugin that failed: its message names it. */
export class PluginError extends Error {
  override readonly name = "PluginError";
}

/** The schema check of a plugin's answer. */
export const pluginResponseCheck: SchemaCheck = {
  schema: { $schema: protocol.$schema, $defs: protocol.$defs, $ref: "#/$defs/response" },
  options: { allErrors: true, strict: false },
};

/** The schema check of what the core sends (for the tests and for plugin authors' own checks). */
export const pluginRequestCheck: SchemaCheck = {
  schema: { $schema: protocol.$schema, $defs: protocol.$defs, $ref: "#/$defs/request" },
  options: { allErrors: true, strict: false },
};

/** Why a plugin cannot be run as given, or undefined. Names that other outputs use are taken. */
export function pluginSpecProblem(spec: PluginSpec, taken: readonly string[]): string | undefined {
  if (!PLUGIN_NAME.test(spec.name))
    return `"${spec.name}" is no plugin name (lower-case letters, digits and "-", starting with a letter, at most 40)`;
  if (taken.includes(spec.name)) return `"${spec.name}" is taken by another output (${taken.join(", ")}): name the plugin otherwise`;
  if (spec.command.length === 0 || spec.command[0] === "") return `plugin "${spec.name}": no command to run`;
  const t = spec.timeoutSeconds;
  if (t !== undefined && (!Number.isFinite(t) || t <= 0)) return `plugin "${spec.name}": timeoutSeconds must be a positive number`;
  return undefined;
}

/** A path of the answer, checked as the protocol says; the problem, or undefined. */
function pathProblem(path: string): string | undefined {
  const parts = path.split("/");
  if (path === "" || path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.includes("\\") || path.includes("\0")) return PATH_RULES;
  if (parts.some((p) => p === "" || p === "." || p === "..")) return PATH_RULES;
  return undefined;
}

interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly tooLarge: boolean;
  readonly spawnError?: NodeJS.ErrnoException;
}

/** Runs the command with the request on stdin; its own process group, so that a time limit stops its children too. */
function runPlugin(spec: PluginSpec, input: string): Promise<Ran> {
  return new Promise((resolve) => {
    const [program, ...args] = spec.command as [string, ...string[]];
    const child = spawn(program, args, { cwd: spec.cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let timedOut = false;
    let tooLarge = false;
    let spawnError: NodeJS.ErrnoException | undefined;
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        stop();
      },
      (spec.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        tooLarge = true;
        stop();
      } else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL);
    });
    // A plugin that exits without reading its input is judged by its exit and answer, not by the broken pipe.
    child.stdin.on("error", () => {});
    child.on("error", (error: NodeJS.ErrnoException) => {
      spawnError = error;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out), stderr, timedOut, tooLarge, ...(spawnError && { spawnError }) });
    });
    child.stdin.end(input);
  });
}

/** The emitter that runs a plugin: its answer's files below `<name>/`. */
export function pluginEmitter(spec: PluginSpec): Emitter {
  const fail = (why: string, stderr = ""): never => {
    const tail = stderr.trim() === "" ? "" : `\n  its stderr:\n    ${stderr.trim().split("\n").slice(-12).join("\n    ")}`;
    throw new PluginError(`plugin "${spec.name}" (${spec.command.join(" ")}): ${why}; nothing was written${tail}`);
  };
  const emit = async (ir: IR): Promise<readonly EmittedFile[]> => {
    const folder = `${spec.name}/`;
    const request = {
      protocol: PLUGIN_PROTOCOL,
      plugin: spec.name,
      irVersion: ir.irVersion,
      ir,
      options: spec.options ?? {},
      output: { folder, pathRules: PATH_RULES },
    };
    const ran = await runPlugin(spec, JSON.stringify(request));
    if (ran.spawnError) {
      fail(ran.spawnError.code === "ENOENT" ? `${spec.command[0]} was not found (not on PATH, or no such file)` : ran.spawnError.message);
    }
    if (ran.timedOut)
      fail(
        `no answer within its time limit of ${spec.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS} s (timeoutSeconds); it was stopped`,
        ran.stderr,
      );
    if (ran.tooLarge) fail(`its answer passed ${MAX_ANSWER_BYTES} bytes; it was stopped`, ran.stderr);
    if (ran.code !== 0) fail(ran.signal ? `ended by ${ran.signal}` : `exited with code ${ran.code}`, ran.stderr);
    let answer: unknown;
    try {
      answer = JSON.parse(ran.stdout.toString("utf8"));
    } catch (error) {
      const text = ran.stdout.toString("utf8");
      fail(`its answer on stdout is not JSON (${(error as Error).message}; it begins ${JSON.stringify(text.slice(0, 80))})`, ran.stderr);
    }
    const { schemaValidator } = await import("../schema-validator.js");
    const validate = schemaValidator<{ files: EmittedFile[] } | { error: string }>(pluginResponseCheck);
    if (!validate(answer)) {
      const first = (validate.errors ?? []).find((e) => e.keyword !== "oneOf") ?? validate.errors?.[0];
      fail(
        `its answer does not follow the protocol: ${first?.instancePath || "/"} ${first?.message ?? "is invalid"} (plugin-protocol.schema.json)`,
      );
    }
    const valid = answer as { files: EmittedFile[] } | { error: string };
    if ("error" in valid) fail(`it answered an error: ${valid.error}`, ran.stderr);
    const files = (valid as { files: EmittedFile[] }).files;
    const seen = new Set<string>();
    files.forEach((file, i) => {
      const problem = pathProblem(file.path);
      if (problem) fail(`/files/${i}/path ${JSON.stringify(file.path)} is refused: a path must be ${problem}`);
      if (seen.has(file.path)) fail(`/files/${i}/path ${JSON.stringify(file.path)} is answered twice`);
      seen.add(file.path);
    });
    return files.map((file) => ({ path: `${folder}${file.path}`, content: file.content }));
  };
  Object.defineProperty(emit, "name", { value: `plugin ${spec.name}` });
  return emit;
}
