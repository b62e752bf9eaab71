// Names for the enums and objects a description writes inline (a property's enum, a body's object), so that every
// generator names them alike without a rule of its own: the owner's name and the place, in PascalCase words
// (ItemPage + sortOrder -> ItemPageSortOrder, an operation's body -> AddPetBody, its 200 answer -> AddPetResponse200),
// unique among themselves and the named schemas' identifiers (a numeric suffix from 2 on). A pure pass over built
// nodes: each returns a new node, nothing is changed in place.
import { pascalCase } from "./names.js";
import type { MediaContent, NamedSchema, Operation, Parameter, Schema, Webhook } from "./types.js";

/** A name's words after an owner: PascalCase, a leading digit kept as it is (no "N" prefix inside a name). */
const part = (text: string): string => (/^[0-9]/.test(text) ? pascalCase(`x${text}`).slice(1) : pascalCase(text));

export class InlineNamer {
  private readonly taken: Set<string>;

  constructor(named: readonly NamedSchema[]) {
    this.taken = new Set(named.map((s) => s.identifier.toLowerCase()));
  }

  private claim(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${base}${n}`;
    this.taken.add(name.toLowerCase());
    return name;
  }

  /** The node with its inline objects and enums named from `context`; `root` keeps a named schema's own node unnamed. */
  schema(node: Schema, context: string, root = false): Schema {
    switch (node.kind) {
      case "object": {
        const named = root ? node : { ...node, inlineName: this.claim(context) };
        return {
          ...named,
          properties: node.properties.map((p) => ({ ...p, schema: this.schema(p.schema, `${context}${part(p.name)}`) })),
          additionalProperties:
            typeof node.additionalProperties === "object"
              ? this.schema(node.additionalProperties, `${context}Value`)
              : node.additionalProperties,
        };
      }
      case "enum":
        return root ? node : { ...node, inlineName: this.claim(context) };
      case "array":
        return { ...node, items: this.schema(node.items, `${context}Item`) };
      case "union":
      case "intersection":
        // An intersection's members are parts of one object: only an object member of a union is a shape of its own.
        return {
          ...node,
          members: node.members.map((m, i) =>
            node.kind === "intersection" ? this.schema(m, context, true) : this.schema(m, `${context}Option${i + 1}`),
          ),
        };
      case "json-text":
        return { ...node, value: this.schema(node.value, context) };
      default:
        return node;
    }
  }

  parameter(p: Parameter, owner: string): Parameter {
    return { ...p, schema: this.schema(p.schema, `${owner}${part(p.name)}`) };
  }

  contents(list: readonly MediaContent[], context: string): MediaContent[] {
    return list.map((c, i) => ({ ...c, schema: this.schema(c.schema, i === 0 ? context : `${context}${part(c.mediaType)}`) }));
  }

  operation(op: Operation): Operation {
    const owner = pascalCase(op.identifier);
    const params = op.parameters;
    return {
      ...op,
      parameters: {
        path: params.path.map((p) => this.parameter(p, owner)),
        query: params.query.map((p) => this.parameter(p, owner)),
        header: params.header.map((p) => this.parameter(p, owner)),
        cookie: params.cookie.map((p) => this.parameter(p, owner)),
      },
      ...(op.requestBody && { requestBody: { ...op.requestBody, contents: this.contents(op.requestBody.contents, `${owner}Body`) } }),
      responses: op.responses.map((r) => ({
        ...r,
        headers: r.headers.map((h) => ({ ...h, schema: this.schema(h.schema, `${owner}Response${part(r.status)}${part(h.name)}`) })),
        contents: this.contents(r.contents, `${owner}Response${part(r.status)}`),
      })),
    };
  }

  webhook(w: Webhook): Webhook {
    const owner = pascalCase(w.identifier);
    return { ...w, headers: w.headers.map((h) => this.parameter(h, owner)), body: this.schema(w.body, `${owner}Event`) };
  }
}
