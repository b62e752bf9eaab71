/**
 * Checks run by the generated client before it sends a subscription create or update. The field names and limits
 * come from the description (the generated client passes them in `rules`); the address checks refuse URLs that point at this
 * machine, a private or internal network, or a cloud metadata service. The service repeats these checks, and again
 * at dispatch time after DNS resolution; this client-side check is syntactic (a public name that resolves to a
 * private address is caught by the service, not here).
 */

import { classifyHost } from "../address.js";
import { SdkError } from "../errors.js";
import type { SubscriptionFieldsModel } from "../model.js";

export interface SubscriptionRules {
  /** The body's field names by role, as the description states them. */
  fields: SubscriptionFieldsModel;
  /** Fields a new subscription must carry (the create body's required list). */
  required: readonly string[];
  /** Known event names. */
  eventNames: readonly string[];
  /** Further values the events list accepts that stand for several events (the description's `"*"`, say). */
  wildcards: readonly string[];
  retryPolicies: readonly string[];
  maxRetries: { minimum: number; maximum: number };
  timeoutMs: { minimum: number; maximum: number };
  /**
   * Accept loopback URLs (`localhost`, `*.localhost`, 127.0.0.0/8, ::1, ::ffff:127.x.y.z). It exists only so that
   * tests can subscribe receivers running on this machine against the local mock service; the real service refuses
   * such URLs, so never set it for it. Private, link-local and metadata addresses stay refused.
   */
  allowLoopback?: boolean;
}

/** `create: true` (default) for a new subscription, where the rules' required fields must be present; false for an update. */
export interface SubscriptionCheckOptions {
  create?: boolean;
}

export type SubscriptionProblemCode =
  | "not_an_object"
  | "required"
  | "wrong_type"
  | "empty"
  | "unknown_event"
  | "not_integer"
  | "out_of_range"
  | "not_allowed"
  | "invalid_url"
  | "unsupported_scheme"
  | "blocked_address";

export interface SubscriptionProblem {
  /** The offending field as the description names it, with an index for array items (`events[2]`); empty for the whole body. */
  field: string;
  code: SubscriptionProblemCode;
  message: string;
}

export class SubscriptionCheckError extends SdkError {
  override readonly name = "SubscriptionCheckError";
  readonly problems: readonly SubscriptionProblem[];

  constructor(problems: readonly SubscriptionProblem[]) {
    super(`webhook subscription refused before sending:\n${problems.map((p) => `  ${p.field || "(body)"}: ${p.message}`).join("\n")}`);
    this.problems = problems;
  }
}

/**
 * Throws a `SubscriptionCheckError` listing every problem; else returns the body to send: the input with its `url`
 * normalised (the form the service and every URL parser read the same way). Send what it returns, not the input.
 */
export function checkSubscription<T extends object>(input: T, rules: SubscriptionRules, options: SubscriptionCheckOptions = {}): T {
  const problems = findSubscriptionProblems(input, rules, options);
  if (problems.length > 0) throw new SubscriptionCheckError(problems);
  const field = rules.fields.url;
  const url = (input as Record<string, unknown>)[field];
  if (typeof url !== "string") return input;
  const normalised = normaliseWebhookUrl(url, {}, field);
  return "href" in normalised && normalised.href !== url ? { ...input, [field]: normalised.href } : input;
}

/** The problems `checkSubscription` would throw, without throwing. */
export function findSubscriptionProblems(
  input: unknown,
  rules: SubscriptionRules,
  options: SubscriptionCheckOptions = {},
): SubscriptionProblem[] {
  const problems: SubscriptionProblem[] = [];
  const add = (field: string, code: SubscriptionProblemCode, message: string) => problems.push({ field, code, message });
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    add("", "not_an_object", "the subscription must be an object");
    return problems;
  }
  const body = input as Record<string, unknown>;
  const present = (field: string | undefined): field is string => field !== undefined && body[field] !== undefined;
  const { fields } = rules;

  if (options.create !== false) {
    for (const field of rules.required) if (!present(field)) add(field, "required", "is required");
  }

  if (present(fields.name)) {
    const name = body[fields.name];
    if (typeof name !== "string") add(fields.name, "wrong_type", "must be a string");
    else if (name.length === 0) add(fields.name, "empty", "must not be empty");
  }

  if (present(fields.url)) {
    const problem = checkWebhookUrl(body[fields.url], rules.allowLoopback === true ? { allowLoopback: true } : {}, fields.url);
    if (problem) problems.push(problem);
  }

  if (present(fields.events)) {
    const events = body[fields.events];
    const any = rules.wildcards.map((w) => JSON.stringify(w)).join(", ");
    const orAny = any === "" ? "" : ` (or ${any})`;
    if (!Array.isArray(events)) add(fields.events, "wrong_type", "must be an array of event names");
    else if (events.length === 0) add(fields.events, "empty", `must name at least one event${orAny}`);
    else
      for (const [index, name] of events.entries()) {
        const at = `${fields.events}[${index}]`;
        if (typeof name !== "string") add(at, "wrong_type", "must be a string");
        else if (!rules.wildcards.includes(name) && !rules.eventNames.includes(name)) {
          add(at, "unknown_event", `${JSON.stringify(name)} is not a known event name${any === "" ? "" : ` (nor ${any})`}`);
        }
      }
  }

  if (fields.maxRetries !== undefined) checkInteger(body, fields.maxRetries, rules.maxRetries, add);
  if (fields.timeoutMs !== undefined) checkInteger(body, fields.timeoutMs, rules.timeoutMs, add);

  if (present(fields.retryPolicy)) {
    const policy = body[fields.retryPolicy];
    if (typeof policy !== "string" || !rules.retryPolicies.includes(policy)) {
      add(fields.retryPolicy, "not_allowed", `must be one of ${rules.retryPolicies.join(", ")}`);
    }
  }

  if (present(fields.secret) && typeof body[fields.secret] !== "string") add(fields.secret, "wrong_type", "must be a string");
  return problems;
}

function checkInteger(
  body: Record<string, unknown>,
  field: string,
  range: { minimum: number; maximum: number },
  add: (field: string, code: SubscriptionProblemCode, message: string) => void,
): void {
  const value = body[field];
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value)) add(field, "not_integer", "must be an integer");
  else if (value < range.minimum || value > range.maximum)
    add(field, "out_of_range", `must be between ${range.minimum} and ${range.maximum}`);
}

/** The problem with a webhook URL, or undefined when it is acceptable. */
export function checkWebhookUrl(url: unknown, options: { allowLoopback?: boolean } = {}, field = "url"): SubscriptionProblem | undefined {
  const checked = normaliseWebhookUrl(url, options, field);
  return "problem" in checked ? checked.problem : undefined;
}

/**
 * The URL as it will be sent (WHATWG-serialised), or why it is refused. User information (`user:pass@`), a backslash,
 * whitespace and control characters are refused outright: parsers disagree on the host of such URLs
 * (`http://example.com\@127.0.0.1/` is example.com to one and 127.0.0.1 to another), so no check of one parser's
 * reading can be trusted for them.
 */
export function normaliseWebhookUrl(
  url: unknown,
  options: { allowLoopback?: boolean } = {},
  field = "url",
): { href: string } | { problem: SubscriptionProblem } {
  const refuse = (code: SubscriptionProblemCode, message: string) => ({ problem: { field, code, message } });
  if (typeof url !== "string") return refuse("wrong_type", "must be a string");
  // The description's pattern is ^https?:// on the string as sent.
  if (!/^https?:\/\//.test(url)) return refuse("unsupported_scheme", "must start with http:// or https://");
  if (url.includes("\\")) return refuse("invalid_url", "must not contain a backslash (URL parsers disagree on the host it names)");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return refuse("invalid_url", "must not contain whitespace or control characters");
  const authority = url.slice(url.indexOf("//") + 2).split(/[/?#]/, 1)[0] ?? "";
  if (authority.includes("@")) return refuse("invalid_url", "must not contain user information (user:password@ before the host)");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse("invalid_url", "is not a valid URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return refuse("unsupported_scheme", "must use http or https");
  if (parsed.username !== "" || parsed.password !== "") return refuse("invalid_url", "must not contain user information");
  const blocked = classifyHost(parsed.hostname);
  if (blocked && !(blocked.loopback && options.allowLoopback === true)) {
    return refuse("blocked_address", `points at ${blocked.description} (${parsed.hostname}); the service refuses it`);
  }
  return { href: parsed.href };
}
