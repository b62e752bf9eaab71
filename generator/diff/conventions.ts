/**
 * Compares the service's conventions: which operation submits, polls and downloads jobs and the names each uses
 * (x-paperoffice-job), which operations are billed, may be sent twice or take an idempotency key (and in which
 * header), and the base-path rule, envelope fields
 * and token kinds (x-paperoffice-conventions). A generated client follows them; one generated before does not.
 */
import type { IR, JobRole, Operation } from "../ir/types.js";
import { BILLED_KEY, CONVENTIONS_KEY, IDEMPOTENCY_KEY_KEY, IDEMPOTENT_KEY, JOB_KEY } from "../spec/conventions.js";
import { join } from "../spec/pointer.js";
import { type Change, fixedChange } from "./model.js";

const opAt = (o: Operation, ...tokens: string[]) => join("", "paths", o.path, o.method, ...tokens);
const label = (o: Operation) => `${o.method.toUpperCase()} ${o.path} (${o.id})`;
/** Paths compared by shape, as the operation matching does: a renamed path parameter is reported by its own rule. */
const shape = (o: Operation) => `${o.method} ${o.path.replace(/\{[^}]*\}/g, "{}")}`;
const sameOperation = (a: Operation, b: Operation) => shape(a) === shape(b);
/** Members that follow a path parameter's name, whose renaming `operation.path-parameter-renamed` reports. */
const PARAMETER_MEMBERS: ReadonlySet<string> = new Set(["jobIdParameter", "tokenParameter"]);

export function compareConventions(old: IR, next: IR, out: Change[]): void {
  for (const role of ["submit", "poll", "download"] as const) {
    const a = old.operations.find((o) => o.job?.role === role);
    const b = next.operations.find((o) => o.job?.role === role);
    if (a && !b)
      out.push(
        fixedChange("conventions.job.role-removed", opAt(a, JOB_KEY), "old", `no operation ${role}s jobs any more (was ${label(a)})`),
      );
    else if (!a && b) out.push(fixedChange("conventions.job.role-added", opAt(b, JOB_KEY), "new", `${label(b)} now ${role}s jobs`));
    else if (a && b) {
      if (!sameOperation(a, b))
        out.push(
          fixedChange("conventions.job.operation-moved", opAt(b, JOB_KEY), "new", `jobs are ${role}ed by ${label(b)}, not ${label(a)}`),
        );
      compareRole(a.job!, b.job!, b, out);
    }
  }
  const before = new Map(old.operations.map((o) => [shape(o), o]));
  for (const n of next.operations) {
    const o = before.get(shape(n));
    if (!o) continue;
    if (o.billed !== n.billed)
      out.push(
        fixedChange(
          n.billed ? "conventions.billed.added" : "conventions.billed.removed",
          opAt(n, BILLED_KEY),
          n.billed ? "new" : "old",
          `${label(n)} is ${n.billed ? "now" : "no longer"} billed`,
        ),
      );
    if (o.idempotent !== n.idempotent)
      out.push(
        fixedChange(
          n.idempotent ? "conventions.idempotent.added" : "conventions.idempotent.removed",
          opAt(n, IDEMPOTENT_KEY),
          "new",
          `${label(n)} is ${n.idempotent ? "now" : "no longer"} sent again after a failure that may have reached the server`,
        ),
      );
    compareIdempotencyKey(o, n, out);
  }
  compareRoot(old, next, out);
}

/**
 * A key taken or dropped, or moved to another header (names compared without case, as HTTP does): a client
 * generated before sends its key in the old header and still sends the call again, which the server no longer
 * dedupes.
 */
function compareIdempotencyKey(o: Operation, n: Operation, out: Change[]): void {
  const [a, b] = [o.idempotencyKey, n.idempotencyKey];
  if (a?.toLowerCase() === b?.toLowerCase()) return;
  const at = opAt(n, IDEMPOTENCY_KEY_KEY);
  if (a === undefined)
    out.push(fixedChange("conventions.idempotency-key.added", at, "new", `${label(n)} now takes an idempotency key in ${b}`));
  else if (b === undefined)
    out.push(fixedChange("conventions.idempotency-key.removed", at, "old", `${label(n)} no longer takes an idempotency key (was ${a})`));
  else out.push(fixedChange("conventions.idempotency-key.changed", at, "new", `${label(n)} takes its idempotency key in ${b}, not ${a}`));
}

function compareRole(a: JobRole, b: JobRole, at: Operation, out: Change[]): void {
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
    const [x, y] = [JSON.stringify(left[key]), JSON.stringify(right[key])];
    if (x === y || PARAMETER_MEMBERS.has(key)) continue;
    out.push(
      fixedChange(
        "conventions.job.changed",
        opAt(at, JOB_KEY, key),
        "new",
        `${b.role} of jobs (${at.id}): \`${key}\` is ${y ?? "not given"}, was ${x ?? "not given"}`,
      ),
    );
  }
}

function compareRoot(old: IR, next: IR, out: Change[]): void {
  const [a, b] = [old.conventions ?? {}, next.conventions ?? {}];
  const at = (...tokens: string[]) => join("", CONVENTIONS_KEY, ...tokens);
  if (a.basePathSuffix !== b.basePathSuffix)
    out.push(
      fixedChange(
        "conventions.base-path.changed",
        at("basePath"),
        "new",
        `the base address must end with ${b.basePathSuffix ?? "anything"}, not ${a.basePathSuffix ?? "anything"}`,
      ),
    );
  const ea = (a.envelope ?? {}) as Record<string, unknown>;
  const eb = (b.envelope ?? {}) as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(ea), ...Object.keys(eb)])].sort()) {
    const [x, y] = [JSON.stringify(ea[key]), JSON.stringify(eb[key])];
    if (x !== y)
      out.push(
        fixedChange(
          "conventions.envelope.changed",
          at("envelope", key),
          "new",
          `envelope \`${key}\` is ${y ?? "not given"}, was ${x ?? "not given"}`,
        ),
      );
  }
  const ta = a.tokens;
  const tb = b.tokens;
  const kinds = (t: typeof ta) => new Map((t?.kinds ?? []).map((k) => [`${t?.brand}${k.prefix}`, k]));
  const [ka, kb] = [kinds(ta), kinds(tb)];
  for (const [prefix, k] of kb)
    if (!ka.has(prefix))
      out.push(fixedChange("conventions.tokens.kind-added", at("tokens", "kinds"), "new", `token kind ${k.name} (${prefix}) was added`));
  const rest = (t: typeof ta) =>
    JSON.stringify(t && { scheme: t.scheme, renewOn: t.renewOn, kinds: t.kinds.filter((k) => ka.has(`${t.brand}${k.prefix}`)) });
  if (rest(ta) !== rest(tb) || [...ka.keys()].some((p) => !kb.has(p)))
    out.push(
      fixedChange(
        "conventions.tokens.changed",
        at("tokens"),
        ta && !tb ? "old" : "new",
        "token kinds, their scheme or the codes that renew a token changed",
      ),
    );
}
