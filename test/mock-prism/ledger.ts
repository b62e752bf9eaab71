// Every call sent through Prism's validating proxy, with what Prism found wrong with it and the status the call was
// meant to get: the findings are sorted into request violations, response violations and undeclared statuses.
import { headerViolations, type Violation } from "../prism/calls.js";

export interface Exchange {
  /** What the call is, for a failure message: "addJob workflow/invoice 202", "getJob poll", ... */
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  /** The statuses the call was meant to get. */
  readonly expected: readonly number[];
  readonly violations: readonly Violation[];
  /** The type of a problem Prism answered itself (its 422, 401 or 500 VIOLATIONS), when it did. */
  readonly prismProblem?: string;
}

const UNDECLARED = "Unable to match the returned status code";
const PRISM_ERRORS = "https://stoplight.io/prism/errors#";

/** What a response or a request was found to break, as text for a failure message. */
function line(e: Exchange, v: Violation): string {
  return `${e.label}: ${e.method} ${e.path} -> ${e.status}: ${v.location.join(".")} ${v.message}`;
}

export function isUndeclared(v: Violation): boolean {
  return v.message.startsWith(UNDECLARED);
}

/** The calls through one Prism, in the order they were answered. */
export class Ledger {
  readonly exchanges: Exchange[] = [];

  /** Sends one call through Prism and records it with the findings of its header (and of Prism's own problem). */
  async send(label: string, url: string, init: RequestInit, expected: number | readonly number[]): Promise<Response> {
    const response = await fetch(url, init);
    const contentType = response.headers.get("content-type") ?? "";
    const violations = [...headerViolations(response)];
    let prismProblem: string | undefined;
    if (contentType.includes("application/problem+json")) {
      const body = (await response.clone().json()) as { type?: unknown; validation?: Violation[] };
      if (typeof body.type === "string" && body.type.startsWith(PRISM_ERRORS)) {
        prismProblem = body.type.slice(PRISM_ERRORS.length);
        // A request Prism refused (422) holds its findings in the body only; they are about the request.
        if (violations.length === 0)
          violations.push(...(body.validation ?? []).map((v) => ({ ...v, location: ["request", ...v.location] })));
      }
    }
    const { pathname, search } = new URL(url);
    this.exchanges.push({
      label,
      method: init.method ?? "GET",
      path: `${pathname}${search}`,
      status: response.status,
      contentType,
      expected: typeof expected === "number" ? [expected] : expected,
      violations,
      ...(prismProblem !== undefined && { prismProblem }),
    });
    return response;
  }

  /** Findings about an answer, other than an undeclared status. */
  responseViolations(): string[] {
    return this.exchanges.flatMap((e) =>
      e.violations.filter((v) => v.location[0] === "response" && !isUndeclared(v)).map((v) => line(e, v)),
    );
  }

  undeclaredStatuses(): string[] {
    return this.exchanges.flatMap((e) => e.violations.filter(isUndeclared).map((v) => line(e, v)));
  }

  requestViolations(): string[] {
    return this.exchanges.flatMap((e) => e.violations.filter((v) => v.location[0] === "request").map((v) => line(e, v)));
  }

  /** Calls Prism answered itself, or answered with another status than the one meant. */
  unexpected(): string[] {
    return this.exchanges
      .filter((e) => e.prismProblem !== undefined || !e.expected.includes(e.status))
      .map(
        (e) =>
          `${e.label}: ${e.method} ${e.path} -> ${e.status}${e.prismProblem ? ` (Prism's ${e.prismProblem})` : ""}, meant ${e.expected.join(" or ")}`,
      );
  }

  /** One line of figures for a failure message. */
  summary(): string {
    return `${this.exchanges.length} calls, ${this.responseViolations().length} response violations, ${this.undeclaredStatuses().length} undeclared statuses, ${this.requestViolations().length} request violations`;
  }
}
