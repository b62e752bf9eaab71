import { flattenObject } from "../../../generator/ir/flatten.js";
import { pascalCase } from "../../../generator/ir/names.js";
import type { IR, ObjectSchema, Schema } from "../../../generator/ir/types.js";
import { pyComment, pyDocstring, pyString } from "./escape.js";
import { PY_KEYWORDS } from "./names.js";
import { type PyType, pyBuiltin, pyDict, pyList, pyLiteral, pyRef, pyUnion } from "./py-type.js";

const isIdentifier = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PY_KEYWORDS.has(name);

export interface Field {
  readonly key: string;
  readonly keyLiteral: string;
  readonly type: PyType;
  /** The property's whole description, for the attribute docstring below the field ("" when it has none). */
  readonly doc: string;
}

export interface TypedDictDecl {
  readonly typedDict: true;
  readonly alias: false;
  readonly name: string;
  readonly doc: string;
  /** Class syntax is impossible when a key is not an identifier (for example `async`). */
  readonly functional: boolean;
  readonly required: readonly Field[];
  readonly optional: readonly Field[];
}
export interface AliasDecl {
  readonly typedDict: false;
  readonly alias: true;
  readonly name: string;
  readonly expr: PyType;
  readonly comment: string;
}
export type Decl = TypedDictDecl | AliasDecl;

/** Turns IR schemas into Python type trees and declarations; names come from the planner's `take`. */
export class TypeScope {
  /** Named schema name -> Python identifier. */
  readonly names = new Map<string, string>();
  readonly named: ReadonlyMap<string, Schema>;
  readonly decls: Decl[] = [];
  readonly #pending: (() => void)[] = [];
  /** The class declared for each allOf node, by identity. */
  readonly #intersections = new Map<Schema, string>();
  readonly take: (base: string) => string;

  constructor(ir: IR, take: (base: string) => string) {
    this.named = new Map(ir.schemas.map((s) => [s.name, s.schema]));
    this.take = take;
  }

  /** Whether a schema is an object once references and intersections are followed. */
  isObjectLike(schema: Schema, seen: readonly string[] = []): boolean {
    if (schema.kind === "object") return true;
    if (schema.kind === "ref") {
      const target = this.named.get(schema.name);
      return target !== undefined && !seen.includes(schema.name) && this.isObjectLike(target, [...seen, schema.name]);
    }
    if (schema.kind === "intersection") return schema.members.length > 0 && schema.members.every((m) => this.isObjectLike(m, seen));
    return false;
  }

  /** Whether an object-like schema takes further properties (a TypedDict cannot say so: plain dicts are accepted too). */
  isOpen(schema: Schema): boolean {
    return this.isObjectLike(schema) && flattenObject(schema, this.named).additionalProperties !== false;
  }

  /** The type tree of a schema; an inline object is declared (later, by flush) under a name derived from `owner`. */
  expr(schema: Schema, owner: string): PyType {
    switch (schema.kind) {
      case "ref":
        return pyRef(this.names.get(schema.name) ?? "JsonValue");
      case "string":
        return pyBuiltin("str");
      case "number":
        return pyBuiltin("float");
      case "integer":
        return pyBuiltin("int");
      case "boolean":
        return pyBuiltin("bool");
      case "null":
        return pyBuiltin("None");
      case "enum":
        return pyLiteral(schema.values);
      case "array":
        return pyList(this.expr(schema.items, `${owner}Item`));
      case "object":
      case "intersection": {
        if (!this.isObjectLike(schema)) return pyRef("JsonValue");
        // An allOf met again through a reference it holds (recursion) is the class declared the first time.
        const declared = schema.kind === "intersection" ? this.#intersections.get(schema) : undefined;
        if (declared !== undefined) return pyRef(declared);
        const flat = flattenObject(schema, this.named);
        if (flat.properties.length === 0) {
          const extra =
            schema.kind === "object" && typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
          return pyDict(extra ? this.expr(extra, `${owner}Value`) : pyRef("JsonValue"));
        }
        const name = this.take(owner);
        if (schema.kind === "intersection") this.#intersections.set(schema, name);
        this.#pending.push(() => this.declareObject(name, flat));
        return pyRef(name);
      }
      case "union":
        // No member (a `false` schema) prints as NoReturn: no value fits.
        return pyUnion(schema.members.map((m, i) => this.expr(m, `${owner}${i + 1}`)));
      case "file":
        return pyRef("FileInput");
      case "json-text":
        return this.expr(schema.value, owner);
      case "unknown":
        return pyRef("JsonValue");
    }
  }

  declareObject(name: string, object: ObjectSchema, extraDoc?: string): void {
    // Type checkers refuse a TypedDict key that is empty; such an object is typed as a plain dict instead.
    if (object.properties.some((p) => p.name === "")) {
      this.decls.push({
        typedDict: false,
        alias: true,
        name,
        expr: pyDict(pyRef("JsonValue")),
        comment: pyComment('a property named "" cannot be a TypedDict key: typed as a plain dict'),
      });
      return;
    }
    const field = (p: ObjectSchema["properties"][number]): Field => ({
      key: p.name,
      keyLiteral: pyString(p.name),
      type: this.expr(p.schema, `${name}${pascalCase(p.name)}`),
      doc: (deprecatedText(p.schema.description, p.schema.deprecated) ?? "").trim(),
    });
    const notes = [
      object.description,
      object.additionalProperties !== false ? "Further properties are allowed (not typed here)." : undefined,
      object.exactlyOne?.length ? `Exactly one of: ${object.exactlyOne.map((g) => g.join(", ")).join("; ")}.` : undefined,
      extraDoc,
    ].filter((t): t is string => t !== undefined && t.trim() !== "");
    this.decls.push({
      typedDict: true,
      alias: false,
      name,
      doc: pyDocstring(notes.map((n) => n.trim()).join("\n\n"), 4),
      // A `__name` in a class body is mangled to `_Class__name`; such keys need the functional form too.
      functional: object.properties.some((p) => !isIdentifier(p.name) || p.name.startsWith("__")),
      required: object.properties.filter((p) => p.required).map(field),
      optional: object.properties.filter((p) => !p.required).map(field),
    });
  }

  declareNamed(name: string, schema: Schema): void {
    const id = this.names.get(name)!;
    if (this.isObjectLike(schema) && schema.kind !== "ref") {
      const flat = flattenObject(schema, this.named);
      if (flat.properties.length > 0 || flat.additionalProperties === false) {
        this.declareObject(id, flat, schema.deprecated ? "Deprecated: the description marks this schema deprecated." : undefined);
        return;
      }
    }
    this.decls.push({
      typedDict: false,
      alias: true,
      name: id,
      expr: this.expr(schema, id),
      // The whole description, wrapped: a first line alone may stop mid-sentence.
      comment: pyComment((schema.description ?? "").trim()),
    });
  }

  /** Runs the declarations of inline objects found so far (and those they find). */
  flush(): void {
    while (this.#pending.length > 0) this.#pending.shift()!();
  }
}

/** A field's comment text: its description's first line, after "Deprecated." when the description deprecates it. */
function deprecatedText(description: string | undefined, deprecated: boolean | undefined): string | undefined {
  if (!deprecated) return description;
  const first = (description ?? "").trim();
  return first === "" ? "Deprecated." : `Deprecated. ${first}`;
}
