/**
 * What the diff pairs before comparing: union members by content, operations by the shape of their path template.
 * Each case changes the old side, the new side or both copies of the current description and lists exactly the
 * rule ids the diff must report, with whether the pair breaks clients.
 */
import { describe, expect, it } from "vitest";
import { type Change, diffReleases } from "../../generator/diff/index.js";
import { at, changed, type Doc } from "./helpers.js";

const S = (name: string) => `/components/schemas/${name}`;
const JOB_200 = "/paths/~1job~1add~1{pipeline}/post/responses/200/content/application~1json/schema";
const GET_JOB = "/paths/~1job~1get~1{job_id}";
const members = (d: Doc, pointer: string, mode = "anyOf") => at(d, pointer)[mode as never] as unknown as unknown[];
/** Writes every member that references a named schema as a copy of that schema. */
const inlineMembers = (d: Doc, pointer: string) => {
  const list = members(d, pointer);
  list.forEach((m, i) => {
    const ref = (m as Doc).$ref;
    if (typeof ref === "string") list[i] = structuredClone(at(d, ref.slice(1)));
  });
};

interface Case {
  readonly name: string;
  readonly old?: (d: Doc) => void;
  readonly new?: (d: Doc) => void;
  readonly rules: readonly string[];
  readonly breaking: boolean;
  /** Further checks of the changes. */
  readonly check?: (changes: readonly Change[]) => void;
}

const CASES: readonly Case[] = [
  {
    name: "a named union member written inline, with the same content",
    new: (d) => {
      const list = members(d, JOB_200);
      const i = list.findIndex((m) => (m as Doc).$ref === "#/components/schemas/VoiceQueuedResponse");
      list[i] = structuredClone(at(d, S("VoiceQueuedResponse")));
    },
    rules: [],
    breaking: false,
  },
  {
    name: "an inline union member moved to a named schema, with the same content",
    new: (d) => {
      (at(d, "/components/schemas") as Doc).AllEvents = { type: "string", const: "*" };
      members(d, S("WebhookEventSelector"))[1] = { $ref: "#/components/schemas/AllEvents" };
    },
    rules: [],
    breaking: false,
  },
  {
    name: "one member inserted in the middle of a response union",
    new: (d) => {
      (at(d, "/components/schemas") as Doc).JobDeferredResponse = {
        type: "object",
        required: ["deferred_until"],
        properties: { deferred_until: { type: "string", format: "date-time" } },
      };
      members(d, JOB_200).splice(1, 0, { $ref: "#/components/schemas/JobDeferredResponse" });
    },
    rules: ["response.union.member-added"],
    breaking: true,
    check: (changes) => expect(changes[0]?.pointer).toBe(`${JOB_200}/anyOf/1`),
  },
  {
    name: "one inline member inserted in the middle of a union of inline objects",
    old: (d) => inlineMembers(d, JOB_200),
    new: (d) => {
      inlineMembers(d, JOB_200);
      members(d, JOB_200).splice(1, 0, {
        type: "object",
        required: ["deferred_until"],
        properties: { deferred_until: { type: "string", format: "date-time" } },
      });
    },
    rules: ["response.union.member-added"],
    breaking: true,
    check: (changes) => expect(changes[0]?.pointer).toBe(`${JOB_200}/anyOf/1`),
  },
  {
    name: "one member removed from the middle of a response union",
    new: (d) => {
      members(d, JOB_200).splice(1, 1);
    },
    rules: ["response.union.member-removed"],
    breaking: false,
    check: (changes) => expect(changes[0]?.pointer).toBe(`${JOB_200}/anyOf/1`),
  },
  {
    name: "members reordered and one of them changed",
    new: (d) => {
      members(d, JOB_200).reverse();
      (at(d, `${S("VoiceQueuedResponse")}/properties`) as Doc).position = { type: "integer" };
    },
    rules: ["response.field.added"],
    breaking: false,
  },
  {
    name: "a path parameter renamed",
    new: (d) => {
      const paths = at(d, "/paths") as Doc;
      const item = paths["/job/get/{job_id}"] as Doc;
      delete paths["/job/get/{job_id}"];
      paths["/job/get/{id}"] = item;
      ((item.get as Doc).parameters as Doc[])[0]!.name = "id";
    },
    rules: ["operation.path-parameter-renamed"],
    breaking: true,
    check: (changes) => {
      expect(changes[0]).toMatchObject({ in: "new", pointer: "/paths/~1job~1get~1{id}/get/parameters/0" });
      expect(changes[0]?.message).toContain("`job_id` is now `id`");
    },
  },
  {
    name: "a path parameter renamed and its schema narrowed",
    new: (d) => {
      const paths = at(d, "/paths") as Doc;
      const item = paths["/job/get/{job_id}"] as Doc;
      delete paths["/job/get/{job_id}"];
      paths["/job/get/{id}"] = item;
      const p = ((item.get as Doc).parameters as Doc[])[0]!;
      p.name = "id";
      (p.schema as Doc).maxLength = 64;
    },
    rules: ["operation.path-parameter-renamed", "request.range.narrowed"],
    breaking: true,
  },
  {
    name: "a request body without a schema removed",
    old: (d) => {
      at(d, `${GET_JOB}/get`).requestBody = { content: { "application/json": { examples: { a: { value: {} } } } } };
    },
    rules: ["request.body.removed-without-schema"],
    breaking: false,
  },
  {
    name: "a request body with a schema removed",
    old: (d) => {
      at(d, `${GET_JOB}/get`).requestBody = { content: { "application/json": { schema: { type: "object" } } } };
    },
    rules: ["request.body.removed"],
    breaking: true,
  },
];

const sorted = (rules: readonly string[]) => [...rules].sort();

describe.each(CASES.map((c) => [c.name, c] as const))("%s", (_, c) => {
  it(`reports exactly ${c.rules.join(", ") || "nothing"}${c.breaking ? ", breaking" : ""}`, async () => {
    const [old, next] = await Promise.all([changed(c.old ?? (() => {})), changed(c.new ?? (() => {}))]);
    const changes = diffReleases(old, next);
    expect(sorted(changes.map((x) => x.rule))).toEqual(sorted(c.rules));
    expect(changes.some((x) => x.severity === "breaking")).toBe(c.breaking);
    c.check?.(changes);
  });
});
