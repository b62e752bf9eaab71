// Compares what a driver reported and what the scenario server recorded with a scenario's expectation. Returns the
// broken promises as readable lines; an empty list means the scenario passed.
import { type DriverResult, type Scenario, SECRET, TOKEN } from "./scenario.js";
import type { RecordedRequest } from "./server.js";

/** Slack for a request sent just before the deadline to reach the server. */
const ARRIVAL_SLACK_MS = 300;
/** How far past its deadline a call may end on a busy machine. */
const DEADLINE_SLACK_MS = 1_500;

export interface Recorded {
  main: readonly RecordedRequest[];
  foreign: readonly RecordedRequest[];
}

export function judge(scenario: Scenario, result: DriverResult | undefined, recorded: Recorded): string[] {
  if (result === undefined) return ["the driver reported nothing"];
  const e = scenario.expect;
  const problems: string[] = [];
  const outcome = result.ok ? "ok" : (result.kind ?? "unknown");
  if (outcome !== e.outcome) problems.push(`outcome ${outcome}, want ${e.outcome} (${firstText(result)})`);
  if (e.status !== undefined && result.status !== e.status) problems.push(`status ${result.status}, want ${e.status}`);
  if (e.code !== undefined && result.code !== e.code) problems.push(`code ${result.code}, want ${e.code}`);
  if (e.jobId !== undefined && (result.jobId ?? null) !== e.jobId) problems.push(`job id ${result.jobId ?? null}, want ${e.jobId}`);
  if (e.retryAfterMs !== undefined && result.retryAfterMs !== e.retryAfterMs) {
    problems.push(`retry-after ${result.retryAfterMs ?? "absent"} ms, want ${e.retryAfterMs}`);
  }
  if (e.bytes !== undefined && result.bytes !== e.bytes) problems.push(`${result.bytes ?? "no"} bytes, want ${e.bytes}`);
  if (e.requests !== undefined && recorded.main.length !== e.requests)
    problems.push(`${recorded.main.length} requests, want ${e.requests}`);
  if (e.foreignRequests !== undefined && recorded.foreign.length !== e.foreignRequests) {
    problems.push(`${recorded.foreign.length} requests to the other origin, want ${e.foreignRequests}`);
  }
  if (e.minMs !== undefined && result.elapsedMs < e.minMs) problems.push(`took ${result.elapsedMs} ms, want at least ${e.minMs}`);
  const maxMs = e.maxMs ?? scenario.action.deadlineMs + DEADLINE_SLACK_MS;
  if (result.elapsedMs > maxMs) problems.push(`took ${result.elapsedMs} ms, want at most ${maxMs}`);
  const lastAllowed = result.startedAt + scenario.action.deadlineMs + ARRIVAL_SLACK_MS;
  for (const r of [...recorded.main, ...recorded.foreign]) {
    if (r.at > lastAllowed) problems.push(`${r.method} ${r.path} sent ${r.at - result.startedAt} ms after the start, past the deadline`);
  }
  if (e.foreignAuthorization !== undefined) {
    const seen = recorded.foreign.some((r) => r.authorization);
    if (seen !== e.foreignAuthorization) problems.push(`the other origin ${seen ? "received" : "did not receive"} Authorization`);
  }
  if (e.authorization !== undefined && recorded.main.some((r) => r.authorization !== e.authorization)) {
    problems.push(`a request to the service ${e.authorization ? "lacked" : "carried"} Authorization`);
  }
  if (e.caughtAs !== undefined) {
    const got = [...(result.caughtAs ?? [])].sort().join(", ");
    const want = [...e.caughtAs].sort().join(", ");
    if (got !== want) problems.push(`caught as [${got}], want [${want}]`);
  }
  if (e.items !== undefined && JSON.stringify(result.items ?? null) !== JSON.stringify(e.items))
    problems.push(`items ${JSON.stringify(result.items ?? null)}, want ${JSON.stringify(e.items)}`);
  if (e.pages !== undefined && result.pages !== e.pages) problems.push(`${result.pages ?? "no"} pages, want ${e.pages}`);
  for (const [i, want] of (e.queries ?? []).entries()) {
    const request = recorded.main[i];
    const query = new URLSearchParams(request?.path.split("?")[1] ?? "");
    for (const [name, value] of Object.entries(want)) {
      if (query.get(name) !== value) problems.push(`request ${i + 1} sent ${name}=${query.get(name) ?? "nothing"}, want ${name}=${value}`);
    }
  }
  for (const word of e.mentions ?? []) {
    if (!result.texts.some((text) => text.includes(word))) problems.push(`no error text mentions ${word} (${firstText(result)})`);
  }
  for (const [name, value] of Object.entries(e.sentFields ?? {})) {
    const body = recorded.main[0]?.body ?? "";
    if (!body.includes(`name="${name}"\r\n\r\n${value}\r\n`)) problems.push(`the first request did not send ${name}=${value}`);
  }
  for (const [name, value] of Object.entries(e.receivedHeaders ?? {})) {
    const missing = recorded.main.findIndex((r) => r.headers[name] !== value);
    if (missing >= 0)
      problems.push(`request ${missing + 1} carried ${name}: ${recorded.main[missing]?.headers[name] ?? "(none)"}, want ${value}`);
  }
  for (const [name, value] of Object.entries(e.receivedQuery ?? {})) {
    const missing = recorded.main.findIndex((r) => new URL(r.path, "http://x").searchParams.get(name) !== value);
    if (missing >= 0) problems.push(`request ${missing + 1} (${recorded.main[missing]?.path}) did not carry the query ${name}=${value}`);
  }
  if (e.sentJson !== undefined) {
    const sent = jsonOf(recorded.main[0]?.body ?? "");
    for (const [name, value] of Object.entries(e.sentJson)) {
      if (JSON.stringify(sent?.[name]) !== JSON.stringify(value)) {
        problems.push(
          `the first request's JSON body has ${name}: ${JSON.stringify(sent?.[name]) ?? "(none)"}, want ${JSON.stringify(value)}`,
        );
      }
    }
  }
  if (e.requestId !== undefined && result.requestId !== e.requestId) {
    problems.push(`request id ${result.requestId ?? "absent"}, want ${e.requestId}`);
  }
  for (const secret of [TOKEN, SECRET]) {
    const shown = result.texts.find((text) => text.includes(secret));
    if (shown !== undefined)
      problems.push(`an error text shows ${secret === TOKEN ? "the token" : "a configured secret"}: ${clip(shown, secret)}`);
    const logged = result.logs?.find((line) => line.includes(secret));
    if (logged !== undefined)
      problems.push(`a log line shows ${secret === TOKEN ? "the token" : "a configured secret"}: ${clip(logged, secret)}`);
  }
  problems.push(...judgeLogs(scenario, result));
  return problems;
}

function judgeLogs(scenario: Scenario, result: DriverResult): string[] {
  const e = scenario.expect;
  if (scenario.log === undefined) return [];
  if (result.logs === undefined) return ["the driver reported no log lines for a case with a log setting"];
  const lines = result.logs.map((line) => line.toLowerCase());
  const problems: string[] = [];
  if (e.silent && lines.length > 0) problems.push(`${lines.length} log lines, want none: ${JSON.stringify(result.logs[0]?.slice(0, 160))}`);
  for (const words of e.logged ?? []) {
    if (!lines.some((line) => words.every((w) => line.includes(w.toLowerCase())))) {
      problems.push(`no log line holds ${words.map((w) => JSON.stringify(w)).join(" and ")} (${lines.length} lines)`);
    }
  }
  for (const word of e.notLogged ?? []) {
    const at = lines.findIndex((line) => line.includes(word.toLowerCase()));
    if (at !== -1) problems.push(`a log line holds ${JSON.stringify(word)}: ${JSON.stringify(result.logs[at]?.slice(0, 160))}`);
  }
  return problems;
}

function jsonOf(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function firstText(result: DriverResult): string {
  return (result.texts[0] ?? "").slice(0, 160);
}

function clip(text: string, secret: string): string {
  const at = text.indexOf(secret);
  return JSON.stringify(text.slice(Math.max(0, at - 60), at + secret.length + 20));
}
