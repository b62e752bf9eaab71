import { describe, expect, it } from "vitest";
import {
  type BlockedHostKind,
  checkSubscription,
  checkWebhookUrl,
  classifyHost,
  findSubscriptionProblems,
  normaliseWebhookUrl,
  SubscriptionCheckError,
  type SubscriptionProblem,
  type SubscriptionRules,
} from "../../runtime/webhooks/index.js";
import { createClient, type SubscribeWebhookBody, subscribeWebhook, subscriptionRules } from "../../../../generated/index.js";
import { KNOWN_EVENT_TYPES } from "./helpers.js";

/** The values the generated client passes from the description. */
const rules: SubscriptionRules = {
  fields: {
    name: "name",
    url: "url",
    events: "events",
    secret: "secret",
    retryPolicy: "retry_policy",
    maxRetries: "max_retries",
    timeoutMs: "timeout_ms",
  },
  required: ["name", "url", "events"],
  eventNames: KNOWN_EVENT_TYPES,
  wildcards: ["*"],
  retryPolicies: ["exponential", "linear", "none"],
  maxRetries: { minimum: 0, maximum: 10 },
  timeoutMs: { minimum: 1000, maximum: 30000 },
};

const valid = {
  name: "invoices",
  url: "https://hooks.example.com/paperoffice",
  events: ["document.processed", "job.failed"],
  retry_policy: "exponential",
  max_retries: 5,
  timeout_ms: 10000,
  secret: "whsec_123",
};

function problems(input: object, create = true): Pick<SubscriptionProblem, "field" | "code">[] {
  return findSubscriptionProblems(input, rules, { create }).map(({ field, code }) => ({ field, code }));
}

describe("checkSubscription fields", () => {
  it("uses the rules the generated client derives from the description", () => {
    expect(subscriptionRules).toEqual(rules);
  });

  it("accepts a complete create and a partial update", () => {
    expect(() => checkSubscription(valid, rules)).not.toThrow();
    expect(() => checkSubscription({ name: "n", url: "http://example.com/h", events: ["*"] }, rules)).not.toThrow();
    expect(() => checkSubscription({ max_retries: 3 }, rules, { create: false })).not.toThrow();
    expect(() => checkSubscription({}, rules, { create: false })).not.toThrow();
  });

  it("requires name, url and events on create", () => {
    expect(problems({})).toEqual([
      { field: "name", code: "required" },
      { field: "url", code: "required" },
      { field: "events", code: "required" },
    ]);
    const { name: _n, ...withoutName } = valid;
    expect(problems(withoutName)).toEqual([{ field: "name", code: "required" }]);
    const { url: _u, ...withoutUrl } = valid;
    expect(problems(withoutUrl)).toEqual([{ field: "url", code: "required" }]);
    const { events: _e, ...withoutEvents } = valid;
    expect(problems(withoutEvents)).toEqual([{ field: "events", code: "required" }]);
  });

  it("checks name", () => {
    expect(problems({ ...valid, name: "" })).toEqual([{ field: "name", code: "empty" }]);
    expect(problems({ ...valid, name: 7 })).toEqual([{ field: "name", code: "wrong_type" }]);
  });

  it("accepts known event names and *, nothing else", () => {
    expect(problems({ ...valid, events: [...KNOWN_EVENT_TYPES, "*"] })).toEqual([]);
    expect(problems({ ...valid, events: ["document.processed", "document.exploded", "**"] })).toEqual([
      { field: "events[1]", code: "unknown_event" },
      { field: "events[2]", code: "unknown_event" },
    ]);
    expect(problems({ ...valid, events: [] })).toEqual([{ field: "events", code: "empty" }]);
    expect(problems({ ...valid, events: "document.processed" })).toEqual([{ field: "events", code: "wrong_type" }]);
    expect(problems({ ...valid, events: [null] })).toEqual([{ field: "events[0]", code: "wrong_type" }]);
  });

  it("checks max_retries is an integer in range", () => {
    for (const ok of [0, 10]) expect(problems({ ...valid, max_retries: ok })).toEqual([]);
    for (const bad of [-1, 11]) expect(problems({ ...valid, max_retries: bad })).toEqual([{ field: "max_retries", code: "out_of_range" }]);
    for (const bad of [1.5, "5", Number.NaN, Number.POSITIVE_INFINITY, null]) {
      expect(problems({ ...valid, max_retries: bad })).toEqual([{ field: "max_retries", code: "not_integer" }]);
    }
  });

  it("checks timeout_ms is an integer in range", () => {
    for (const ok of [1000, 30000]) expect(problems({ ...valid, timeout_ms: ok })).toEqual([]);
    for (const bad of [999, 30001])
      expect(problems({ ...valid, timeout_ms: bad })).toEqual([{ field: "timeout_ms", code: "out_of_range" }]);
    expect(problems({ ...valid, timeout_ms: 1000.5 })).toEqual([{ field: "timeout_ms", code: "not_integer" }]);
  });

  it("takes the ranges from the rules, not from constants", () => {
    const narrow: SubscriptionRules = { ...rules, maxRetries: { minimum: 1, maximum: 2 }, timeoutMs: { minimum: 5, maximum: 6 } };
    expect(findSubscriptionProblems({ ...valid, max_retries: 0, timeout_ms: 7 }, narrow).map((p) => p.message)).toEqual([
      "must be between 1 and 2",
      "must be between 5 and 6",
    ]);
  });

  it("checks retry_policy", () => {
    for (const ok of rules.retryPolicies) expect(problems({ ...valid, retry_policy: ok })).toEqual([]);
    for (const bad of ["random", "EXPONENTIAL", 1])
      expect(problems({ ...valid, retry_policy: bad })).toEqual([{ field: "retry_policy", code: "not_allowed" }]);
  });

  it("checks secret is a string", () => {
    expect(problems({ ...valid, secret: "" })).toEqual([]);
    expect(problems({ ...valid, secret: 123 })).toEqual([{ field: "secret", code: "wrong_type" }]);
  });

  it("refuses a body that is not an object", () => {
    expect(findSubscriptionProblems(null, rules)).toMatchObject([{ field: "", code: "not_an_object" }]);
    expect(() => checkSubscription([], rules)).toThrow(SubscriptionCheckError);
  });

  it("throws one error listing every problem", () => {
    let error: unknown;
    try {
      checkSubscription({ name: "", url: "http://127.0.0.1/", events: ["nope"], max_retries: 99, retry_policy: "x" }, rules);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SubscriptionCheckError);
    const { problems: list, message } = error as SubscriptionCheckError;
    expect(list.map((p) => p.field)).toEqual(["name", "url", "events[0]", "max_retries", "retry_policy"]);
    expect(message).toMatch(/url: points at a loopback address \(127\.0\.0\.1\)/);
    expect(message).toMatch(/max_retries: must be between 0 and 10/);
  });

  it("checks the url on update too", () => {
    expect(problems({ url: "http://169.254.169.254/latest" }, false)).toEqual([{ field: "url", code: "blocked_address" }]);
    expect(problems({ events: [] }, false)).toEqual([{ field: "events", code: "empty" }]);
  });
});

describe("webhook URL checks", () => {
  it("refuses user information and backslashes, on which URL parsers disagree about the host", () => {
    for (const url of [
      "http://example.com\\@127.0.0.1/",
      "http://example.com\\.attacker.net/",
      "https://user:pass@hooks.example.com/",
      "https://user@hooks.example.com/",
      "https://@hooks.example.com/",
      "https://hooks.example.com@127.0.0.1/",
      "https://hooks.example.com%40x@8.8.8.8/",
      "https://hooks.example.com/\\x",
      "https://hooks.exa\tmple.com/",
      "https://hooks.example.com/a\nb",
    ]) {
      expect(checkWebhookUrl(url)?.code, url).toBe("invalid_url");
    }
    // An @ after the host (in the path, query or fragment) is not user information.
    expect(checkWebhookUrl("https://hooks.example.com/a@b?c=d@e#f@g")).toBeUndefined();
  });

  it("returns the body to send with the normalised URL, the form every parser reads alike", () => {
    const sent = checkSubscription({ ...valid, url: "https://Hooks.Example.COM:443/a/../hook?x=1" }, rules);
    expect(sent).toEqual({ ...valid, url: "https://hooks.example.com/hook?x=1" });
    expect(normaliseWebhookUrl("http://[0:0::ffff:808:808]/")).toEqual({ href: "http://[::ffff:808:808]/" });
    // Already normal: the very input comes back.
    const input = { ...valid };
    expect(checkSubscription(input, rules)).toBe(input);
    expect(checkSubscription({ events: ["*"] }, rules, { create: false })).toEqual({ events: ["*"] });
  });

  it("accepts public http and https URLs", () => {
    for (const url of [
      "https://hooks.example.com/paperoffice",
      "http://example.com:8080/x?y=1",
      "https://8.8.8.8/",
      "https://[2606:4700:4700::1111]/hook",
      "https://[::ffff:8.8.8.8]/",
      "https://100.63.255.255/",
      "https://100.128.0.1/",
      "https://172.32.0.1/",
      "https://169.253.255.255/",
      "https://localhost.example.com/",
      "https://internal.example.com/",
      "https://metadata.example.com/",
      "https://[2001:4860::8888]/",
      "https://[2002:0808:0808::1]/",
    ]) {
      expect(checkWebhookUrl(url), url).toBeUndefined();
    }
  });

  it("refuses other schemes and invalid URLs", () => {
    for (const url of [
      "ftp://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "ws://example.com/",
      " https://example.com/",
      "//example.com/",
    ]) {
      expect(checkWebhookUrl(url)?.code, url).toBe("unsupported_scheme");
    }
    for (const url of [
      "http://exa mple.com/",
      "http://[::1/",
      "http://example.0x7f/",
      "http://example.123/",
      "http://256.256.256.256.1/",
    ]) {
      expect(checkWebhookUrl(url)?.code, url).toBe("invalid_url");
    }
    expect(checkWebhookUrl(42)?.code).toBe("wrong_type");
  });

  const blocked: [BlockedHostKind, string[]][] = [
    [
      "localhost",
      [
        "http://localhost/",
        "http://LOCALHOST:8080/",
        "http://localhost./",
        "http://api.localhost/",
        "http://a.b.localhost./",
        "http://ⓛocalhost/",
        "http://localhost.localdomain/",
      ],
    ],
    [
      "loopback",
      [
        "http://127.0.0.1/",
        "http://127.1.2.3:9000/",
        "http://2130706433/",
        "http://0x7f.1/",
        "http://0x7f000001/",
        "http://017700000001/",
        "http://0177.0.0.1/",
        "http://127.1/",
        "http://127.0.0.1./",
        "http://[::1]/",
        "http://[0:0:0:0:0:0:0:1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/",
        "http://[::127.0.0.1]/",
        "http://[64:ff9b::127.0.0.1]/",
        "http://[2002:7f00:1::]/",
      ],
    ],
    ["unspecified", ["http://0.0.0.0/", "http://0/", "http://0.1.2.3/", "http://[::]/", "http://[::ffff:0.0.0.0]/"]],
    [
      "private",
      [
        "http://10.0.0.1/",
        "http://10.255.255.255/",
        "http://172.16.0.1/",
        "http://172.31.255.255/",
        "http://192.168.1.1/",
        "http://3232235777/",
        "http://[::ffff:10.0.0.1]/",
        "http://[2002:c0a8:101::]/",
      ],
    ],
    ["cgnat", ["http://100.64.0.1/", "http://100.127.255.254/"]],
    ["link-local", ["http://169.254.1.1/", "http://[fe80::1]/", "http://[febf::1]/"]],
    ["unique-local", ["http://[fc00::1]/", "http://[fd12:3456:789a::1]/"]],
    ["site-local", ["http://[fec0::1]/"]],
    ["multicast", ["http://224.0.0.1/", "http://239.255.255.250/", "http://[ff02::1]/", "http://[ff05::1:3]/"]],
    ["broadcast", ["http://255.255.255.255/"]],
    ["reserved", ["http://240.0.0.1/", "http://192.0.0.8/", "http://[100::1]/", "http://[2001::1]/", "http://[::1:0:0:1]/"]],
    ["documentation", ["http://192.0.2.1/", "http://198.51.100.7/", "http://203.0.113.9/", "http://[2001:db8::1]/"]],
    ["benchmarking", ["http://198.18.0.1/", "http://198.19.255.255/"]],
    [
      "metadata",
      [
        "http://169.254.169.254/latest/meta-data/",
        "http://0xa9fea9fe/",
        "http://2852039166/",
        "http://0251.0376.0251.0376/",
        "http://[::ffff:169.254.169.254]/",
        "http://[::ffff:a9fe:a9fe]/",
        "http://[fd00:ec2::254]/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://METADATA.GOOGLE.INTERNAL./",
        "http://metadata/",
        "http://metadata.goog/",
        "http://100.100.100.200/",
        "http://169.254.170.2/v2/credentials",
        "http://192.0.0.192/",
      ],
    ],
    [
      "internal-name",
      [
        "http://db.internal/",
        "http://printer.local/",
        "http://router.home.arpa/",
        "http://intranet/",
        "http://intranet./",
        "http://box.localdomain/",
      ],
    ],
  ];

  for (const [kind, urls] of blocked) {
    it(`refuses ${kind} hosts`, () => {
      for (const url of urls) {
        const problem = checkWebhookUrl(url);
        expect(problem?.code, url).toBe("blocked_address");
        expect(classifyHost(new URL(url).hostname)?.kind, url).toBe(kind);
      }
    });
  }

  it("lets allowLoopback through loopback only (for the local mock service)", () => {
    const loopbackOnly = { allowLoopback: true };
    for (const url of ["http://127.0.0.1:4010/hook", "http://localhost:4010/", "http://[::1]:4010/", "http://[::ffff:127.0.0.1]/"]) {
      expect(checkWebhookUrl(url, loopbackOnly), url).toBeUndefined();
    }
    for (const url of [
      "http://10.0.0.1/",
      "http://169.254.169.254/",
      "http://0.0.0.0/",
      "http://metadata.google.internal/",
      "http://[fe80::1]/",
    ]) {
      expect(checkWebhookUrl(url, loopbackOnly)?.code, url).toBe("blocked_address");
    }
    expect(() => checkSubscription({ ...valid, url: "http://127.0.0.1:4010/" }, { ...rules, allowLoopback: true })).not.toThrow();
    expect(() => checkSubscription({ ...valid, url: "http://127.0.0.1:4010/" }, rules)).toThrow(SubscriptionCheckError);
  });

  it("classifies raw addresses as well", () => {
    expect(classifyHost("::ffff:127.0.0.1")?.kind).toBe("loopback");
    expect(classifyHost("[::ffff:192.168.0.1]")?.kind).toBe("private");
    expect(classifyHost("[not-an-address]")?.kind).toBe("reserved");
    expect(classifyHost("example.com")).toBeUndefined();
  });
});

describe("the generated client's subscription operations", () => {
  it("send the normalised URL the check returned, and nothing for a URL with user information or a backslash", async () => {
    const bodies: unknown[] = [];
    const client = createClient({
      baseUrl: "https://api.example.com/latest",
      token: "svc_sk_live_subscriptioncheck00",
      fetch: async (request) => {
        bodies.push(JSON.parse(await request.text()));
        return new Response(JSON.stringify({ status: "success", processing_time: "1ms" }), {
          headers: { "content-type": "application/json" },
        });
      },
    });
    const subscription: SubscribeWebhookBody = { name: "n", url: "https://Hooks.Example.COM:443/a/../hook", events: ["*"] };
    await subscribeWebhook(client, subscription);
    expect(bodies).toEqual([{ ...subscription, url: "https://hooks.example.com/hook" }]);
    for (const url of ["http://example.com\\@127.0.0.1/", "https://user:pw@hooks.example.com/"]) {
      expect(() => subscribeWebhook(client, { ...subscription, url }), url).toThrow(SubscriptionCheckError);
    }
    expect(bodies).toHaveLength(1);
  });
});
