/**
 * Whether a changed `pattern` accepts values the old one rejected, or rejects values it accepted, judged on what
 * the patterns accept, not on their text. Each question gets "yes" (a witness: a string one accepts and the other
 * does not, drawn from the patterns), "no" (a proof: the patterns have the same structure, token by token, and
 * one's tokens include the other's) or "unknown". Only a subset of regular expressions is read for proofs:
 * characters, escapes, classes, groups, alternatives, quantifiers and the anchors `^` and `$` at either end.
 */
import RandExp from "randexp";

export type Answer = "yes" | "no" | "unknown";
export interface PatternJudgement {
  /** Some string the old pattern accepts is rejected by the new one. */
  readonly narrows: Answer;
  /** Some string the new pattern accepts was rejected by the old one. */
  readonly widens: Answer;
}

const ALL: PatternJudgement = { narrows: "no", widens: "no" };

/** The string's other constraints on one side: only values that side accepts are witnesses. */
export interface Lengths {
  readonly minLength?: number;
  readonly maxLength?: number;
}

export function judgePatterns(
  old: string | undefined,
  next: string | undefined,
  lengths: { readonly old?: Lengths; readonly new?: Lengths } = {},
): PatternJudgement {
  if (old === next) return ALL;
  const [a, b] = [compile(old), compile(next)];
  if (a === null || b === null) return { narrows: "unknown", widens: "unknown" };
  const [la, lb] = [lengths.old ?? {}, lengths.new ?? {}];
  const [pa, pb] = [old === undefined ? ANY : parse(old), next === undefined ? ANY : parse(next)];
  return {
    narrows: answer(bounded(pa, la), pb, a, b, old, la),
    widens: answer(bounded(pb, lb), pa, b, a, next, lb),
  };
}

/** Does `from` (with its side's lengths) accept something `to` rejects? */
function answer(
  from: Parsed | undefined,
  to: Parsed | undefined,
  rFrom: RegExp,
  rTo: RegExp,
  source: string | undefined,
  lengths: Lengths,
): Answer {
  if (from && to && includes(to, from)) return "no";
  if (witness(source, rFrom, rTo, lengths)) return "yes";
  return "unknown";
}

/**
 * `^[0-9a-f]+$` with minLength 40 and maxLength 40 accepts exactly what `^[0-9a-f]{40}$` does: a pattern that is
 * one repeated set of characters, anchored at both ends, takes the lengths into its repetition.
 */
function bounded(p: Parsed | undefined, lengths: Lengths): Parsed | undefined {
  const only = p?.body.length === 1 ? p.body[0] : undefined;
  if (!p?.start || !p.end || only?.t !== "rep" || only.node.t !== "chars") return p;
  const min = Math.max(only.min, lengths.minLength ?? 0);
  const max = Math.min(only.max, lengths.maxLength ?? Number.POSITIVE_INFINITY);
  return { ...p, body: [{ t: "rep", node: only.node, min, max }] };
}

/** A missing pattern accepts every string; a pattern JavaScript cannot compile cannot be judged. */
function compile(pattern: string | undefined): RegExp | null {
  if (pattern === undefined) return /[\s\S]*/u;
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // next flags
    }
  }
  return null;
}

/** Strings drawn from `source` (a fixed seed, so reports do not change between runs), one rejected by `to`. */
function witness(source: string | undefined, from: RegExp, to: RegExp, lengths: Lengths): boolean {
  const samples = source === undefined ? ["", " ", "a", "0", "-", "\n", "~~~~", "a b"] : draw(source);
  const fits = (s: string) => s.length >= (lengths.minLength ?? 0) && s.length <= (lengths.maxLength ?? Number.POSITIVE_INFINITY);
  // A pattern is not anchored unless it says so: a match inside a longer string counts too.
  return samples.flatMap((s) => [s, `~${s}`, `${s}~`]).some((s) => fits(s) && from.test(s) && !to.test(s));
}

function draw(source: string): string[] {
  let generator: RandExp;
  try {
    generator = new RandExp(source);
  } catch {
    return [];
  }
  let seed = 0x2545f491;
  generator.randInt = (low, high) => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return low + (seed % (high - low + 1));
  };
  const out: string[] = [];
  for (const max of [0, 1, 2, 3, 8]) {
    generator.max = max;
    for (let i = 0; i < 8; i++) {
      try {
        out.push(generator.gen());
      } catch {
        return out;
      }
    }
  }
  return out;
}

// ---- structure ---------------------------------------------------------------------------------------------

/** A set of characters as a membership test. */
type Chars = (c: number) => boolean;
type Node =
  | { readonly t: "chars"; readonly set: Chars }
  | { readonly t: "alt"; readonly options: readonly Seq[] }
  | { readonly t: "rep"; readonly node: Node; readonly min: number; readonly max: number };
type Seq = readonly Node[];
interface Parsed {
  readonly start: boolean;
  readonly end: boolean;
  readonly body: Seq;
}

const ANY: Parsed = { start: false, end: false, body: [] };

const range =
  (lo: number, hi: number): Chars =>
  (c) =>
    c >= lo && c <= hi;
const DIGIT = range(48, 57);
const WORD: Chars = (c) => DIGIT(c) || range(65, 90)(c) || range(97, 122)(c) || c === 95;
const SPACE: Chars = (c) => /\s/u.test(String.fromCharCode(c));
const not =
  (s: Chars): Chars =>
  (c) =>
    !s(c);
const CLASSES: Record<string, Chars> = { d: DIGIT, D: not(DIGIT), w: WORD, W: not(WORD), s: SPACE, S: not(SPACE) };
const CONTROL: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, "0": 0 };

/** Reads a pattern, or undefined when it uses what the proofs do not handle (look-arounds, back-references...). */
function parse(pattern: string): Parsed | undefined {
  let i = 0;
  const start = pattern.startsWith("^");
  if (start) i = 1;
  let text = pattern;
  let end = false;
  if (text.endsWith("$") && !text.endsWith("\\$")) {
    end = true;
    text = text.slice(0, -1);
  }
  class Unsupported extends Error {}
  const fail = (): never => {
    throw new Unsupported();
  };
  const escaped = (): Chars => {
    const c = text[i++] ?? fail();
    if (CLASSES[c]) return CLASSES[c];
    if (CONTROL[c] !== undefined) {
      const code = CONTROL[c];
      return (x) => x === code;
    }
    if (c === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i, i + 4))) {
      const code = Number.parseInt(text.slice(i, i + 4), 16);
      i += 4;
      return (x) => x === code;
    }
    if (/[A-Za-z0-9]/.test(c)) fail(); // \b, \B, back-references, \x, \p...: not read
    const code = c.charCodeAt(0);
    return (x) => x === code;
  };
  const klass = (): Chars => {
    const negated = text[i] === "^";
    if (negated) i++;
    const parts: Chars[] = [];
    let first = true;
    while (i < text.length && (text[i] !== "]" || first)) {
      first = false;
      const single = (): { set: Chars; code?: number } => {
        const c = text[i++]!;
        if (c !== "\\") return { set: (x) => x === c.charCodeAt(0), code: c.charCodeAt(0) };
        const e = text[i]!;
        const set = escaped();
        return CLASSES[e] ? { set } : { set, code: e in CONTROL ? CONTROL[e]! : e.charCodeAt(0) };
      };
      const low = single();
      if (text[i] === "-" && text[i + 1] !== "]" && i + 1 < text.length && low.code !== undefined) {
        i++;
        const high = single();
        if (high.code === undefined) fail();
        parts.push(range(low.code, high.code!));
      } else parts.push(low.set);
    }
    if (text[i] !== "]") fail();
    i++;
    const set: Chars = (x) => parts.some((p) => p(x));
    return negated ? not(set) : set;
  };
  const atom = (): Node => {
    const c = text[i++]!;
    if (c === "(") {
      if (text[i] === "?") {
        if (text[i + 1] !== ":") fail();
        i += 2;
      }
      const options = alternatives();
      if (text[i++] !== ")") fail();
      return { t: "alt", options };
    }
    if (c === "[") return { t: "chars", set: klass() };
    if (c === ".") return { t: "chars", set: (x) => x !== 10 && x !== 13 && x !== 0x2028 && x !== 0x2029 };
    if (c === "\\") return { t: "chars", set: escaped() };
    if ("^$)|*+?{}".includes(c)) fail();
    const code = c.charCodeAt(0);
    return { t: "chars", set: (x) => x === code };
  };
  const quantified = (): Node => {
    const node = atom();
    const q = text[i];
    let min = 1;
    let max = 1;
    if (q === "*" || q === "+" || q === "?") {
      i++;
      [min, max] = q === "*" ? [0, Number.POSITIVE_INFINITY] : q === "+" ? [1, Number.POSITIVE_INFINITY] : [0, 1];
    } else if (q === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(text.slice(i));
      if (!m) fail();
      i += m![0].length;
      min = Number(m![1]);
      max = m![2] === undefined ? min : m![3] === "" ? Number.POSITIVE_INFINITY : Number(m![3]);
    } else return node;
    if (text[i] === "?") i++; // lazy: the same strings
    return { t: "rep", node, min, max };
  };
  const sequence = (): Seq => {
    const seq: Node[] = [];
    while (i < text.length && text[i] !== "|" && text[i] !== ")") seq.push(quantified());
    return seq;
  };
  const alternatives = (): Seq[] => {
    const options = [sequence()];
    while (text[i] === "|") {
      i++;
      options.push(sequence());
    }
    return options;
  };
  try {
    const options = alternatives();
    if (i !== text.length) fail();
    // An alternative at the top level binds looser than the anchors: `^a|b$` is not `^(a|b)$`.
    if (options.length > 1 && (start || end)) fail();
    return { start, end, body: options.length === 1 ? options[0]! : [{ t: "alt", options }] };
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** Proves that every string `small` accepts is accepted by `big`; false when it cannot. */
function includes(big: Parsed, small: Parsed): boolean {
  if (big.body.length === 0 && !big.start && !big.end) return true; // matches in every string
  // An anchor of the larger pattern must be one of the smaller's; the bodies then compare token by token.
  if ((big.start && !small.start) || (big.end && !small.end)) return false;
  return seqIncludes(big.body, small.body);
}

const asRep = (n: Node): Extract<Node, { t: "rep" }> => (n.t === "rep" ? n : { t: "rep", node: n, min: 1, max: 1 });

function seqIncludes(big: Seq, small: Seq): boolean {
  if (big.length > small.length && !(big.length === 1 && big[0]!.t === "alt")) return aligned(big, 0, small, 0);
  const [s0, b0] = [small.length === 1 ? small[0] : undefined, big.length === 1 ? big[0] : undefined];
  if (s0?.t === "alt") return s0.options.every((o) => seqIncludes(big, o));
  if (b0?.t === "alt") return b0.options.some((o) => seqIncludes(o, small));
  if (big.length !== small.length) return false;
  return big.every((n, k) => nodeIncludes(n, small[k]!));
}

function nodeIncludes(big: Node, small: Node): boolean {
  if (big.t === "rep" || small.t === "rep") {
    const [b, s] = [asRep(big), asRep(small)];
    if (b.min > s.min || b.max < s.max) return false;
    return nodeIncludes(b.node, s.node);
  }
  if (big.t === "alt" || small.t === "alt") return seqIncludes([big], [small]);
  for (let c = 0; c <= 0xffff; c++) if (small.set(c) && !big.set(c)) return false;
  return true;
}

/** `small`'s tokens matched in order by `big`'s, skipping tokens of `big` that may match nothing (`x?`, `x*`). */
function aligned(big: Seq, i: number, small: Seq, j: number): boolean {
  if (j === small.length) return big.slice(i).every((n) => n.t === "rep" && n.min === 0);
  if (i === big.length) return false;
  const node = big[i]!;
  if (node.t === "rep" && node.min === 0 && aligned(big, i + 1, small, j)) return true;
  return nodeIncludes(node, small[j]!) && aligned(big, i + 1, small, j + 1);
}
