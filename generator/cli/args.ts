// Command-line parsing with errors that name their cause: an unknown option with the nearest known one.
import { BIN } from "../names.js";

/** A wrong command line: printed as one line with a pointer to --help, exit code 1. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known word nearest to `word`, when it is near enough to be a typo of it. */
export function nearest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = distance(word, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  // A suggestion must share more with the word than it changes: "ab" is two edits from "cd", which is no hint.
  return best !== undefined && bestDistance < word.length && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/**
 * Runs a strict parseArgs (given as `parse`) and turns its errors into UsageErrors that name the option and
 * suggest the nearest of `known`.
 */
export function withUsageErrors<T>(command: string, known: readonly string[], parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const given = /'(-{1,2}[^']*)'/.exec(message)?.[1] ?? message;
      const name = given.replace(/^-+/, "").split("=")[0] ?? "";
      const hint = nearest(name, known);
      throw new UsageError(`unknown option ${given} for ${command}${hint ? ` (did you mean --${hint}?)` : ""}`, command);
    }
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      const given = /'([^']*)'/.exec(message)?.[1] ?? "";
      const hint = /\.(ya?ml|json)$/i.test(given) || /^https?:/i.test(given) ? ` (a description is given with --spec ${given})` : "";
      throw new UsageError(`unexpected argument "${given}" for ${command}${hint}`, command);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") throw new UsageError(message.replace(/\.$/, ""), command);
    throw error;
  }
}

/** A comma-separated list flag checked against its allowed values; "none" is the empty list. */
export function listFlag<T extends string>(flag: string, value: string, allowed: readonly T[]): T[] {
  if (value === "none") return [];
  const items = value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  // An empty value is a mistake (an unset shell variable, say), never a silent "none".
  if (items.length === 0) throw new UsageError(`--${flag} is empty: give a comma-separated list of ${allowed.join(", ")}, or none`);
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) {
      const hint = nearest(item, allowed);
      throw new UsageError(`--${flag}: "${item}" is not one of ${allowed.join(", ")}${hint ? ` (did you mean ${hint}?)` : ""}`);
    }
  }
  return items as T[];
}

export const helpHint = (command?: string) => `run \`${BIN}${command ? ` ${command}` : ""} --help\` for the usage`;
