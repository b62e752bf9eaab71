// The words of each error code and the error tree's status classes, shared by every target's name planner, so that
// one code gets one name stem in every language: `INTERNAL_ERROR` is InternalError (stem Internal, for a language
// that marks errors by a prefix), `BEARERTOKEN_EXPIRED` is BearerTokenExpiredError. Each planner only spells the words
// in its language's case and settles collisions with its own other names.
import type { IR } from "../ir/types.js";

/** A status class of the runtimes' error tree: the answers whose HTTP status lies in [min, max]. */
export interface StatusClass {
  /** The class name; a language that marks errors by a prefix takes the name without its `Error`. */
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

/** The status classes every runtime declares under its ServiceError, as openai-node and openai-python have them. */
export const STATUS_CLASSES: readonly StatusClass[] = [
  { name: "BadRequestError", min: 400, max: 400 },
  { name: "AuthenticationError", min: 401, max: 401 },
  { name: "PermissionDeniedError", min: 403, max: 403 },
  { name: "NotFoundError", min: 404, max: 404 },
  { name: "ConflictError", min: 409, max: 409 },
  { name: "UnprocessableEntityError", min: 422, max: 422 },
  { name: "RateLimitError", min: 429, max: 429 },
  { name: "InternalServerError", min: 500, max: 599 },
];

/** The base of every error the service answered, in every runtime. */
export const SERVICE_ERROR = "ServiceError";

/** The status class of an HTTP status, or undefined for a status that only the base stands for (402, 418, ...). */
export function statusClassOf(status: number): StatusClass | undefined {
  return STATUS_CLASSES.find((c) => status >= c.min && status <= c.max);
}

/**
 * The status class a code's class extends: the class of its status when the description gives the code exactly one
 * status and that status has a class; else undefined, and the code's class extends the service base.
 */
export function codeStatusClass(ir: IR, code: string): StatusClass | undefined {
  const statuses = new Set(ir.errors.filter((e) => e.code === code).map((e) => e.status));
  const [only, ...others] = [...statuses];
  return only === undefined || others.length > 0 ? undefined : statusClassOf(only);
}

/** Shortest pieces a compound word is split into: shorter words (`in`, `on`) would split too eagerly. */
const MIN_PIECE = 3;

/**
 * The words of the description's own text (error and scheme descriptions, summaries, schema names), lower case:
 * what a run-together code such as `BEARERTOKEN` is split by.
 */
export function descriptionWords(ir: IR): Set<string> {
  const text = [
    ...ir.errors.flatMap((e) => [e.description ?? ""]),
    ...ir.securitySchemes.flatMap((s) => [s.name, s.scheme ?? "", s.description ?? ""]),
    ...ir.operations.flatMap((o) => [o.summary ?? "", o.id]),
    ...ir.schemas.map((s) => s.name),
  ].join(" ");
  // Codes quoted in the text (`BEARERTOKEN_EXPIRED`) are not prose: all-capital tokens are left out.
  const words = text
    .split(/[^A-Za-z0-9_]+/)
    .filter((token) => !/^[A-Z0-9_]+$/.test(token))
    .flatMap((token) =>
      token
        .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
        .toLowerCase()
        .split(/[^a-z]+/),
    )
    .filter((w) => w.length >= MIN_PIECE);
  return new Set(words);
}

/**
 * A word of an error code split into known words when it is not one itself (`BEARERTOKEN` is `bearer token` when the
 * description speaks of a bearer token): the split into the fewest words of at least three letters, each a word of the
 * description's text or of another code; a word that does not split entirely stays whole.
 */
export function splitCompound(word: string, known: ReadonlySet<string>): string[] {
  const w = word.toLowerCase();
  if (known.has(w) || !/^[a-z]+$/.test(w)) return [word];
  // best[i]: the fewest known pieces covering w.slice(0, i), the later piece as long as possible on a tie.
  const best: (string[] | undefined)[] = [[]];
  for (let end = MIN_PIECE; end <= w.length; end++) {
    for (let start = 0; start <= end - MIN_PIECE; start++) {
      const head = best[start];
      const piece = w.slice(start, end);
      if (head === undefined || !known.has(piece)) continue;
      const candidate = [...head, piece];
      const current = best[end];
      if (current === undefined || candidate.length < current.length) best[end] = candidate;
    }
  }
  const found = best[w.length];
  return found !== undefined && found.length > 1 ? found : [word];
}

const capitalised = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** The class name of a code's words: PascalCase, and `Error` after them unless the last of several is `error`. */
export function errorClassOfWords(words: readonly string[]): string {
  const name = words.map(capitalised).join("");
  const joined = name === "" ? "Unnamed" : /^[0-9]/.test(name) ? `N${name}` : name;
  return endsInError(words) ? joined : `${joined}Error`;
}

/** The code's words without a last `error`, for a name whose prefix says it: `internal error` -> `internal`. */
export function errorStemWords(words: readonly string[]): readonly string[] {
  return endsInError(words) ? words.slice(0, -1) : words;
}

const endsInError = (words: readonly string[]): boolean => words.length > 1 && words[words.length - 1] === "error";

/**
 * The words of one code, lower case: split at separators and case changes, run-together words split by `known`.
 * A code whose class would be a class of the error tree (`NOT_FOUND`: NotFoundError, `SERVICE`: ServiceError) gets
 * `code` before its last `error`, in every language alike: NotFoundCodeError (stem NotFoundCode).
 */
export function errorCodeWords(code: string, known: ReadonlySet<string>): string[] {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .flatMap((w) => splitCompound(w, known))
    .map((w) => w.toLowerCase());
  const tree = new Set([SERVICE_ERROR, ...STATUS_CLASSES.map((c) => c.name)]);
  if (!tree.has(errorClassOfWords(words))) return words;
  const stem = errorStemWords(words);
  return [...stem, "code", ...(stem.length < words.length ? ["error"] : [])];
}

const planned = new WeakMap<IR, ReadonlyMap<string, readonly string[]>>();

/**
 * The words of every code of the description, by code: a code's run-together words are split by the description's
 * text and by the words of the other codes. Computed once per IR, so that every target of a run agrees.
 */
export function errorCodeWordsOf(ir: IR): ReadonlyMap<string, readonly string[]> {
  const done = planned.get(ir);
  if (done !== undefined) return done;
  const text = descriptionWords(ir);
  const codes = [...new Set(ir.errors.map((e) => e.code))].sort();
  const wordsOf = (code: string) => code.toLowerCase().split(/[^a-z0-9]+/);
  const result = new Map(
    codes.map((code) => {
      const known = new Set([...text, ...codes.filter((c) => c !== code).flatMap(wordsOf)]);
      return [code, errorCodeWords(code, known)] as const;
    }),
  );
  planned.set(ir, result);
  return result;
}
