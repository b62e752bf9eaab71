/**
 * Changes judged on what the old schema accepted: patterns and "exactly one of" groups. A change is breaking when a
 * value accepted before is provably refused now (a witness), info when provably not (a proof), and a warning when
 * the diff has neither.
 */
import { describe, expect, it } from "vitest";
import { diffReleases } from "../../generator/diff/index.js";
import { judgePatterns } from "../../generator/diff/pattern.js";
import { at, changed, type Doc } from "./helpers.js";

describe("judgePatterns", () => {
  const TABLE: { given: [string | undefined, string | undefined]; want: ReturnType<typeof judgePatterns> }[] = [
    { given: ["^[a-z]+$", "^[a-z0-9]+$"], want: { narrows: "no", widens: "yes" } },
    { given: ["^[a-z0-9]+$", "^[a-z]+$"], want: { narrows: "yes", widens: "no" } },
    { given: ["^[a-z]+$", "^[0-9]+$"], want: { narrows: "yes", widens: "yes" } },
    { given: ["^(a|b)$", "^(a|b|c)$"], want: { narrows: "no", widens: "yes" } },
    { given: ["^(?:a|b|c)$", "^(a|c)$"], want: { narrows: "yes", widens: "no" } },
    { given: ["^\\d{1,3}$", "^\\d{1,5}$"], want: { narrows: "no", widens: "yes" } },
    { given: ["^[A-Za-z0-9_-]+$", "^[A-Za-z0-9_.\\-]+$"], want: { narrows: "no", widens: "yes" } },
    { given: ["^https?://", "^https://"], want: { narrows: "yes", widens: "no" } },
    { given: ["abc", "^abc"], want: { narrows: "yes", widens: "no" } },
    { given: ["^abc", "abc"], want: { narrows: "no", widens: "yes" } },
    { given: [undefined, "^a"], want: { narrows: "yes", widens: "no" } },
    { given: ["^a", undefined], want: { narrows: "no", widens: "yes" } },
    { given: ["^a+$", "^a+$"], want: { narrows: "no", widens: "no" } },
    // Not read (a look-ahead) and no witness either way: the diff cannot tell.
    { given: ["^https?://", "^(?=h)https?://"], want: { narrows: "unknown", widens: "unknown" } },
    { given: ["^a+$", "^aa*$"], want: { narrows: "unknown", widens: "unknown" } },
  ];
  it.each(TABLE.map((t) => [`${t.given[0]} -> ${t.given[1]}`, t] as const))("%s", (_, { given, want }) => {
    expect(judgePatterns(...given)).toEqual(want);
  });
});

const S = (name: string) => `/components/schemas/${name}`;
const PIPELINE_PARAM = "/paths/~1job~1add~1{pipeline}/post/parameters/0/schema";

interface Case {
  readonly name: string;
  readonly change: (d: Doc) => void;
  /** Rule id and severity of each change, sorted by rule. */
  readonly want: readonly (readonly [string, "breaking" | "warning" | "info"])[];
}

const CASES: readonly Case[] = [
  {
    name: "a request pattern that accepts every value it accepted (case-insensitive scheme)",
    change: (d) => {
      at(d, S("WebhookUrl")).pattern = "^[hH][tT][tT][pP][sS]?://";
    },
    want: [["request.pattern.widened", "info"]],
  },
  {
    name: "a request pattern that refuses values it accepted (http)",
    change: (d) => {
      at(d, S("WebhookUrl")).pattern = "^https://";
    },
    want: [["request.pattern.narrowed", "breaking"]],
  },
  {
    name: "a request pattern the diff cannot read",
    change: (d) => {
      at(d, S("WebhookUrl")).pattern = "^(?=h)https?://";
    },
    want: [["request.pattern.changed", "warning"]],
  },
  {
    name: "a path parameter pattern that also accepts dots",
    change: (d) => {
      at(d, PIPELINE_PARAM).pattern = "^[A-Za-z0-9_.-]+$";
    },
    want: [["request.pattern.widened", "info"]],
  },
  {
    name: "exactly one of a required field and a new one",
    change: (d) => {
      const s = at(d, S("WebhookSubscriptionCreate"));
      (s.properties as Doc).url_ref = { type: "string" };
      s.required = ["name", "events"];
      s.oneOf = [{ required: ["url"] }, { required: ["url_ref"] }];
    },
    want: [
      ["request.exactly-one.added", "info"],
      ["request.field.added", "info"],
      ["request.field.optional-now", "info"],
    ],
  },
  {
    name: "exactly one of an optional field and a new one",
    change: (d) => {
      const s = at(d, S("WebhookSubscriptionCreate"));
      (s.properties as Doc).secret_ref = { type: "string" };
      s.oneOf = [{ required: ["secret"] }, { required: ["secret_ref"] }];
    },
    want: [
      ["request.exactly-one.added", "breaking"],
      ["request.field.added", "info"],
    ],
  },
  {
    name: "exactly one of two fields that could both be sent",
    change: (d) => {
      const s = at(d, S("WebhookSubscriptionCreate"));
      s.oneOf = [{ required: ["secret"] }, { required: ["retry_policy"] }];
    },
    want: [["request.exactly-one.added", "breaking"]],
  },
];

describe.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
  it(`reports ${c.want.map(([rule, severity]) => `${rule} (${severity})`).join(", ")}`, async () => {
    const [old, next] = await Promise.all([changed(() => {}), changed(c.change)]);
    const got = diffReleases(old, next)
      .map((x) => [x.rule, x.severity] as const)
      .sort((x, y) => (x[0] < y[0] ? -1 : 1));
    expect(got).toEqual(c.want);
  });
});
