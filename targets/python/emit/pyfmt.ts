// Python expressions laid out as `ruff format` lays them out: flat when the line fits in 120 columns, else the
// outermost brackets open one element per line with a trailing comma (which keeps them open on a later run).

export const LINE_LENGTH = 120;

export type PyExpr =
  | string
  | { readonly call: string; readonly args: readonly PyArg[] }
  | { readonly tuple: readonly PyExpr[] }
  | { readonly dict: readonly (readonly [string, PyExpr])[] }
  /** A subscript, `name[items]`. */
  | { readonly sub: string; readonly items: readonly PyExpr[] }
  /** `a | b | c`. */
  | { readonly union: readonly PyExpr[] };
export interface KwArg {
  readonly kw: string;
  readonly value: PyExpr;
}
export type PyArg = PyExpr | KwArg;

const isKw = (arg: PyArg): arg is KwArg => typeof arg === "object" && "kw" in arg;

export const call = (name: string, ...args: PyArg[]): PyExpr => ({ call: name, args });
export const kw = (name: string, value: PyExpr): PyArg => ({ kw: name, value });
export const tuple = (items: readonly PyExpr[]): PyExpr => ({ tuple: items });
export const dict = (entries: readonly (readonly [string, PyExpr])[]): PyExpr => ({ dict: entries });
export const sub = (name: string, items: readonly PyExpr[]): PyExpr => ({ sub: name, items });
export const union = (members: readonly PyExpr[]): PyExpr => (members.length === 1 ? members[0]! : { union: members });

/** The one-line form. */
export function flat(expr: PyExpr): string {
  if (typeof expr === "string") return expr;
  if ("call" in expr) return `${expr.call}(${expr.args.map((a) => (isKw(a) ? `${a.kw}=${flat(a.value)}` : flat(a))).join(", ")})`;
  if ("tuple" in expr) return `(${expr.tuple.map(flat).join(", ")}${expr.tuple.length === 1 ? "," : ""})`;
  if ("sub" in expr) return `${expr.sub}[${expr.items.map(flat).join(", ")}]`;
  if ("union" in expr) return expr.union.map(flat).join(" | ");
  return `{${expr.dict.map(([k, v]) => `${k}: ${flat(v)}`).join(", ")}}`;
}

/**
 * The length of the one-line form, counted only until it passes `limit` (then some length past it): whether an
 * expression fits is known without printing it, and without reading the whole of a long one at every level.
 */
function flatLength(expr: PyExpr, limit: number): number {
  if (typeof expr === "string") return expr.length;
  let n: number;
  let items: readonly PyExpr[];
  if ("call" in expr) {
    n = expr.call.length + 2 + 2 * Math.max(expr.args.length - 1, 0);
    for (const a of expr.args) {
      n += isKw(a) ? a.kw.length + 1 + flatLength(a.value, limit - n) : flatLength(a, limit - n);
      if (n > limit) return n;
    }
    return n;
  }
  if ("dict" in expr) {
    n = 2 + 2 * Math.max(expr.dict.length - 1, 0);
    for (const [k, v] of expr.dict) {
      n += k.length + 2 + flatLength(v, limit - n);
      if (n > limit) return n;
    }
    return n;
  }
  // The brackets and separators: `(a, b)` and `(a,)`, `name[a, b]`, `a | b`.
  if ("tuple" in expr) {
    items = expr.tuple;
    n = 2 + (items.length === 1 ? 1 : 0) + 2 * Math.max(items.length - 1, 0);
  } else if ("sub" in expr) {
    items = expr.items;
    n = expr.sub.length + 2 + 2 * Math.max(items.length - 1, 0);
  } else {
    items = expr.union;
    n = 3 * Math.max(items.length - 1, 0);
  }
  for (const item of items) {
    n += flatLength(item, limit - n);
    if (n > limit) return n;
  }
  return n;
}

/**
 * The expression as it stands after `prefix` at `indent` spaces and before `suffix` (say `,` or `:`), on as many
 * lines as it needs; the first line carries no indentation (the caller writes the prefix).
 */
export function layout(expr: PyExpr, indent: number, prefix = "", suffix = "", bracketed = false): string {
  if (typeof expr === "string") return expr;
  // Printed flat only when it fits (or has nothing to open): a long expression is not printed whole at every level.
  const room = LINE_LENGTH - indent - prefix.length - suffix.length;
  if (flatLength(expr, room) <= room) return flat(expr);
  const one = (): string => flat(expr);
  const inner = " ".repeat(indent + 4);
  const close = " ".repeat(indent);
  const lines = (items: readonly { head: string; value: PyExpr }[], comma = true) =>
    items.map((i) => `${inner}${i.head}${layout(i.value, indent + 4, i.head, comma ? "," : "", true)}${comma ? "," : ""}`).join("\n");
  if ("union" in expr) {
    // Inside brackets the members stand one per line; elsewhere in parentheses of their own.
    const at = bracketed ? indent : indent + 4;
    const pad = " ".repeat(at);
    const members = expr.union.map((m, i) => {
      const head = i === 0 ? "" : "| ";
      const last = i === expr.union.length - 1;
      return `${i === 0 && bracketed ? "" : pad}${head}${layout(m, at, head, last && bracketed ? suffix : "", true)}`;
    });
    return bracketed ? members.join("\n") : `(\n${members.join("\n")}\n${close})`;
  }
  if ("sub" in expr) {
    if (expr.items.length === 1) return `${expr.sub}[\n${inner}${layout(expr.items[0]!, indent + 4, "", "", true)}\n${close}]`;
    return `${expr.sub}[\n${lines(expr.items.map((value) => ({ head: "", value })))}\n${close}]`;
  }
  if ("call" in expr) {
    if (expr.args.length === 0) return one();
    const items = expr.args.map((a) => (isKw(a) ? { head: `${a.kw}=`, value: a.value } : { head: "", value: a }));
    return `${expr.call}(\n${lines(items)}\n${close})`;
  }
  if ("tuple" in expr) {
    if (expr.tuple.length === 0) return one();
    return `(\n${lines(expr.tuple.map((value) => ({ head: "", value })))}\n${close})`;
  }
  if (expr.dict.length === 0) return one();
  return `{\n${lines(expr.dict.map(([k, value]) => ({ head: `${k}: `, value })))}\n${close}}`;
}

/** A statement `prefix<expr>suffix` at `indent` spaces, laid out. */
export function statement(indent: number, prefix: string, expr: PyExpr, suffix = ""): string {
  return `${" ".repeat(indent)}${prefix}${layout(expr, indent, prefix, suffix)}${suffix}`;
}

/** A `def` line: flat when it fits, else one parameter per line with a trailing comma. */
export function defLine(indent: number, head: string, params: readonly string[], returns: PyExpr): string {
  const pad = " ".repeat(indent);
  const one = `${pad}${head}(${params.join(", ")}) -> ${flat(returns)}:`;
  if (one.length <= LINE_LENGTH) return one;
  const close = `${pad}) -> `;
  return `${pad}${head}(\n${params.map((p) => `${pad}    ${p},`).join("\n")}\n${close}${layout(returns, indent, ") -> ", ":")}:`;
}
