/**
 * The Go type printer: a Go type for each schema of the IR, declaring named types for named schemas and for inline
 * objects and string enums (named after where they appear). Every struct keeps the JSON fields it does not declare
 * in `Extra`, so that a release adding fields decodes and re-encodes without loss.
 */
import { flattenObject } from "../../../generator/ir/index.js";
import type { IR, ObjectSchema, Property, Schema, UnionSchema } from "../../../generator/ir/types.js";
import { goDoc, goString } from "./escape.js";
import { GO_STRUCT_MEMBERS, goName, NameScope } from "./names.js";

/**
 * How a Go type behaves as a field: a struct (held by pointer), a scalar (pointer when optional), nil-able, or an
 * sdkruntime.Nullable (absent, null or a value; IsSet says whether it is sent).
 */
export type GoKind = "struct" | "scalar" | "nilable" | "nullable";
export interface GoType {
  readonly code: string;
  readonly kind: GoKind;
}

/** json-text fields: their structured value (a request the runtime encodes) or the string the service sends. */
export type JsonTextMode = "structured" | "string";

/** A member of a declared union: its schema, its field (`Of<Member>`) and the field's Go type. */
export interface UnionMemberInfo {
  readonly schema: Schema;
  readonly field: string;
  readonly type: GoType;
  /** The field holds a pointer to the member's type. */
  readonly pointer: boolean;
}

export interface FieldInfo {
  readonly property: string;
  readonly field: string;
  readonly type: GoType;
  /** A file (or list of files) sent as a multipart part, never as JSON. */
  readonly file: boolean;
}

const RAW: GoType = { code: "json.RawMessage", kind: "nilable" };
const FILE: GoType = { code: "*sdkruntime.File", kind: "nilable" };

/** How deep inline objects may nest: far below what the call stack allows, far above what descriptions write. */
const MAX_NESTING = 200;

/** Property names encoding/json can put in a struct tag (its isValidTag), ASCII only; others stay in Extra. */
const TAGGABLE = /^[A-Za-z0-9!#$%&()*+\-./:;<=>?@[\]^_{|}~ ]+$/;

export class GoTypes {
  private readonly out: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly kinds = new Map<string, GoKind>();
  private readonly fields = new Map<string, FieldInfo[]>();
  private readonly unions = new Map<string, UnionMemberInfo[]>();
  /** The Go type each declared type that is neither a struct nor a union stands for (string for an enum). */
  private readonly underlying = new Map<string, string>();
  private readonly aliases = new Map<string, string>();
  /** Named types that are json.RawMessage, which holds a null itself. */
  private readonly raw = new Set<string>();
  private readonly schemas: ReadonlyMap<string, Schema>;
  /** The struct declared for each allOf node met, by identity. */
  private readonly intersections = new Map<Schema, GoType>();
  /** The inline structs being declared, outermost first, and the named schema they are in. */
  private readonly nesting: string[] = [];
  private declaring: string | undefined;

  constructor(
    private readonly ir: IR,
    private readonly scope: NameScope,
  ) {
    this.schemas = new Map(ir.schemas.map((s) => [s.name, s.schema]));
    for (const named of ir.schemas) this.names.set(named.name, scope.claim(goName(named.identifier, "Schema")));
    for (const named of ir.schemas) this.kinds.set(this.names.get(named.name)!, this.kindOfNamed(named.schema, new Set([named.name])));
    for (const named of ir.schemas) if (this.isRaw(named.schema, new Set([named.name]))) this.raw.add(this.names.get(named.name)!);
  }

  /** The declarations so far, in order. */
  get declarations(): readonly string[] {
    return this.out;
  }

  /** The Go name of a named schema. */
  nameOf(schemaName: string): string {
    return this.names.get(schemaName) ?? "json.RawMessage";
  }

  /** The fields of a declared struct, following aliases; [] for another type. */
  fieldsOf(name: string): readonly FieldInfo[] {
    const seen = new Set<string>();
    let at = name;
    while (!this.fields.has(at) && this.aliases.has(at) && !seen.has(at)) {
      seen.add(at);
      at = this.aliases.get(at)!;
    }
    return this.fields.get(at) ?? [];
  }

  /** The Go type a declared type that is neither a struct nor a union stands for, following aliases; undefined for others. */
  underlyingOf(name: string): string | undefined {
    const seen = new Set<string>();
    let at = name;
    while (!this.underlying.has(at) && this.aliases.has(at) && !seen.has(at)) {
      seen.add(at);
      at = this.aliases.get(at)!;
    }
    return this.underlying.get(at);
  }

  /** The members of a declared union, following aliases; undefined for another type. */
  unionOf(name: string): readonly UnionMemberInfo[] | undefined {
    const seen = new Set<string>();
    let at = name;
    while (!this.unions.has(at) && this.aliases.has(at) && !seen.has(at)) {
      seen.add(at);
      at = this.aliases.get(at)!;
    }
    return this.unions.get(at);
  }

  /** Declares every named schema. */
  declareNamed(): void {
    for (const named of this.ir.schemas) {
      this.declaring = named.name;
      this.declareOne(named.name, named.schema);
    }
    this.declaring = undefined;
  }

  /** Follows references (and nullable unions) to the schema they stand for; undefined for a cycle of references. */
  resolve(schema: Schema, seen: Set<string> = new Set()): Schema | undefined {
    const plain = nonNull(schema);
    if (plain.kind !== "ref") return plain;
    if (seen.has(plain.name)) return undefined;
    seen.add(plain.name);
    const target = this.schemas.get(plain.name);
    return target === undefined ? undefined : this.resolve(target, seen);
  }

  /** A file, or a list of files: a multipart part. */
  isFile(schema: Schema): "one" | "many" | undefined {
    const s = this.resolve(schema);
    if (s?.kind === "file") return "one";
    if (s?.kind === "array" && this.resolve(s.items)?.kind === "file") return "many";
    return undefined;
  }

  private kindOfNamed(schema: Schema, seen: Set<string>): GoKind {
    const s = nonNull(schema);
    switch (s.kind) {
      case "ref": {
        if (seen.has(s.name)) return "nilable";
        const target = this.schemas.get(s.name);
        return target === undefined ? "nilable" : this.kindOfNamed(target, new Set([...seen, s.name]));
      }
      case "object":
        return s.properties.length > 0 ? "struct" : "nilable";
      case "intersection":
        return flattenObject(s, this.schemas).properties.length > 0 ? "struct" : "nilable";
      case "string":
      case "number":
      case "integer":
      case "boolean":
      case "json-text":
        return "scalar";
      case "enum":
        return enumBase(s.values) === undefined ? "nilable" : "scalar";
      case "union":
        return unionMembers(s).members.length > 0 ? "struct" : "nilable";
      default:
        return "nilable";
    }
  }

  /** Whether a named schema is declared as json.RawMessage (as declareOne and expr decide). */
  private isRaw(schema: Schema, seen: Set<string>): boolean {
    const s = nonNull(schema);
    switch (s.kind) {
      case "ref": {
        const target = this.schemas.get(s.name);
        return seen.has(s.name) || target === undefined || this.isRaw(target, new Set([...seen, s.name]));
      }
      case "enum":
        return enumBase(s.values) === undefined;
      case "intersection":
        return flattenObject(s, this.schemas).properties.length === 0;
      case "union":
        return unionMembers(s).members.length === 0;
      case "null":
      case "unknown":
        return true;
      default:
        return false;
    }
  }

  /** Whether a schema allows null: a union with null, an enum listing null, or a reference to such a schema. */
  private isNullable(schema: Schema, seen: Set<string> = new Set()): boolean {
    if (schema.kind === "union") return schema.members.some((m) => m.kind === "null" || (m.kind === "enum" && m.values.includes(null)));
    if (schema.kind === "enum") return schema.values.includes(null);
    if (schema.kind !== "ref" || seen.has(schema.name)) return false;
    const target = this.schemas.get(schema.name);
    return target !== undefined && this.isNullable(target, new Set([...seen, schema.name]));
  }

  private declareOne(schemaName: string, schema: Schema): void {
    const name = this.names.get(schemaName)!;
    const s = nonNull(schema);
    const doc = goDoc(name, `is the schema ${goString(schemaName).slice(1, -1)} of the description.`, s.description, "", {
      deprecated: schema.deprecated || s.deprecated ? "the description marks this schema deprecated." : undefined,
    });
    if (s.kind === "ref") {
      const target = this.resolve(s) === undefined ? "json.RawMessage" : this.nameOf(s.name);
      this.aliases.set(name, target);
      this.out.push(`${doc}\ntype ${name} = ${target}`);
      return;
    }
    if (s.kind === "object" && s.properties.length > 0) {
      this.struct(name, s, { doc });
      return;
    }
    if (s.kind === "intersection") {
      const flat = flattenObject(s, this.schemas);
      if (flat.properties.length > 0) {
        this.struct(name, flat, { doc });
        return;
      }
    }
    if (s.kind === "enum" && enumBase(s.values) === "string") {
      this.enumDecl(name, s.values, s.valueDescriptions, doc);
      return;
    }
    if (s.kind === "union" && unionMembers(s).members.length > 0) {
      this.union(name, s, doc);
      return;
    }
    const t = this.expr(s, name, "string");
    this.underlying.set(name, t.code);
    const alias = t.kind === "scalar" || t.code === RAW.code || t.code === FILE.code;
    this.out.push(`${doc}\ntype ${name} ${alias ? "= " : ""}${t.code}`);
  }

  /** The Go type of a schema; inline objects and string enums are declared under `hint`. */
  expr(schema: Schema, hint: string, jsonText: JsonTextMode): GoType {
    const s = nonNull(schema);
    switch (s.kind) {
      case "ref": {
        const name = this.nameOf(s.name);
        return { code: name, kind: this.kinds.get(name) ?? "nilable" };
      }
      case "string":
        return { code: "string", kind: "scalar" };
      case "integer":
        return { code: "int64", kind: "scalar" };
      case "number":
        return { code: "float64", kind: "scalar" };
      case "boolean":
        return { code: "bool", kind: "scalar" };
      case "enum": {
        const base = enumBase(s.values);
        if (base === "string") {
          const name = this.scope.claim(hint);
          this.enumDecl(name, s.values, s.valueDescriptions, goDoc(name, "is a set of allowed values.", s.description));
          return { code: name, kind: "scalar" };
        }
        return base === undefined ? RAW : { code: base, kind: "scalar" };
      }
      case "array":
        return { code: `[]${this.expr(s.items, `${hint}Item`, jsonText).code}`, kind: "nilable" };
      case "object":
        if (s.properties.length > 0) return this.hoist(hint, s);
        if (typeof s.additionalProperties === "object") {
          return { code: `map[string]${this.expr(s.additionalProperties, `${hint}Value`, jsonText).code}`, kind: "nilable" };
        }
        return { code: "map[string]json.RawMessage", kind: "nilable" };
      case "intersection": {
        // A reference inside an allOf to a schema that holds this allOf meets it again in the merged fields: the
        // struct declared for it the first time stands for it then, which ends the recursion.
        const declared = this.intersections.get(schema);
        if (declared !== undefined) return declared;
        const flat = flattenObject(s, this.schemas);
        if (flat.properties.length === 0) return RAW;
        return this.hoist(hint, flat, (t) => this.intersections.set(schema, t));
      }
      case "file":
        return FILE;
      case "json-text":
        return jsonText === "structured" ? this.expr(s.value, hint, jsonText) : { code: "string", kind: "scalar" };
      case "union": {
        if (unionMembers(s).members.length === 0) return RAW;
        const name = this.scope.claim(hint);
        this.union(name, s, goDoc(name, "is a union of the description.", s.description), jsonText);
        return { code: name, kind: "struct" };
      }
      default:
        return RAW;
    }
  }

  /**
   * Declares a union (oneOf or anyOf) as a struct with one field per member, `Of<Member>`, of which exactly one is
   * set: AsAny returns that member's value for a type switch, MarshalJSON encodes it, and UnmarshalJSON picks the
   * member by the discriminator or, without one, tries the members in order (sdkruntime.DecodeUnion). A null member
   * makes the union nullable: no member set is JSON null.
   */
  private union(name: string, schema: UnionSchema, doc: string, jsonText: JsonTextMode = "string"): void {
    const { members, nullable } = unionMembers(schema);
    const fieldScope = new NameScope(["AsAny", "MarshalJSON", "UnmarshalJSON"]);
    const planned = members.map((member, i) => {
      const inline =
        (member.kind === "object" || member.kind === "enum") && member.inlineName !== undefined ? goName(member.inlineName) : undefined;
      const t = this.expr(member, inline ?? `${name}Option${i + 1}`, jsonText);
      const field = fieldScope.claim(`Of${memberLabel(t.code, name)}`);
      const pointer = t.kind === "struct" || t.kind === "scalar";
      return { member, t, field, pointer };
    });
    this.unions.set(
      name,
      planned.map(({ member, t, field, pointer }) => ({ schema: member, field, type: t, pointer })),
    );
    const discriminator = this.unionDiscriminator(schema, members);
    const fields = planned.map(({ member, t, field, pointer }) => {
      const what = member.kind === "ref" ? `the schema ${goString(member.name).slice(1, -1)}` : `of Go type ${t.code}`;
      return `${goDoc(field, `is the member ${what}.`, member.kind === "ref" ? undefined : member.description, "\t")}\n\t${field} ${pointer ? "*" : ""}${t.code}`;
    });
    const choices = planned.map(({ t }) => t.code).join(", ");
    const asAny = planned.map(({ field, pointer }) => `\tcase u.${field} != nil:\n\t\treturn ${pointer ? "*" : ""}u.${field}`);
    const values = planned.map(
      ({ field }) => `\t\tsdkruntime.UnionValue{Field: ${goString(field)}, Set: u.${field} != nil, Value: u.${field}},`,
    );
    const decoders = planned.map(({ member, field, pointer }, i) => {
      const facts = this.memberFacts(member);
      const tags = discriminator?.tags[i] ?? [];
      const parts = [
        `Field: ${goString(field)}`,
        ...(facts.kind === "" ? [] : [`Kind: ${goString(facts.kind)}`]),
        ...(facts.values === undefined ? [] : [`Values: ${goStringList(facts.values)}`]),
        ...(facts.required.length === 0 ? [] : [`Required: ${goStringList(facts.required)}`]),
        ...(facts.known === undefined ? [] : [`Known: ${goStringList(facts.known)}`]),
        ...(facts.consts.length === 0
          ? []
          : [`Consts: map[string]string{${facts.consts.map(([k, v]) => `${goString(k)}: ${goString(v)}`).join(", ")}}`]),
        ...(tags.length === 0 ? [] : [`Tags: ${goStringList(tags)}`]),
        `Decode: sdkruntime.${pointer ? "Into" : "IntoValue"}(&u.${field})`,
      ];
      return `\t\tsdkruntime.UnionMember{${parts.join(", ")}},`;
    });
    const picks = discriminator
      ? `the member the discriminator ${goString(discriminator.property)} names`
      : "the first member, in order, whose kind, allowed values and required properties the value fits";
    const constructors = planned.map(({ t, field, pointer }) => {
      const fn = this.scope.claim(`${name}${field}`);
      return `${goDoc(fn, `returns the ${name} whose member ${field} is v.`, undefined)}\nfunc ${fn}(v ${t.code}) ${name} {\n\treturn ${name}{${field}: ${pointer ? "&v" : "v"}}\n}`;
    });
    const unmarshal = goDoc(
      "UnmarshalJSON",
      `decodes into ${picks}; null sets none, and a value of no member is a *sdkruntime.UnionError.`,
      undefined,
    );
    const marshal = goDoc(
      "MarshalJSON",
      `encodes the member that is set; ${nullable ? "none is null, and several set is" : "none or several set is"} a *sdkruntime.UnionError.`,
      undefined,
    );
    this.out.push(
      [
        `${doc}\n//\n${goDoc("Set", `exactly one of its fields (${choices}); AsAny returns the one that is set, for a type switch.`, undefined)}\ntype ${name} struct {\n${fields.join("\n")}\n}`,
        ...constructors,
        `${goDoc("AsAny", `returns the value of the member that is set (${choices}), nil when none is.`, undefined)}\nfunc (u ${name}) AsAny() any {\n\tswitch {\n${asAny.join("\n")}\n\t}\n\treturn nil\n}`,
        `${marshal}\nfunc (u ${name}) MarshalJSON() ([]byte, error) {\n\treturn sdkruntime.EncodeUnion(${goString(name)}, ${nullable},\n${values.join("\n")}\n\t)\n}`,
        `${unmarshal}\nfunc (u *${name}) UnmarshalJSON(data []byte) error {\n\t*u = ${name}{}\n\treturn sdkruntime.DecodeUnion(${goString(name)}, data, ${goString(discriminator?.property ?? "")},\n${decoders.join("\n")}\n\t)\n}`,
      ].join("\n\n"),
    );
  }

  /**
   * The discriminator of a union whose members are all objects, and per member the values that pick it: those the
   * mapping gives it, else the allowed values of its discriminator property, else (a reference) its schema's name;
   * undefined when a member has none.
   */
  private unionDiscriminator(schema: UnionSchema, members: readonly Schema[]): { property: string; tags: string[][] } | undefined {
    const d = schema.discriminator;
    if (d === undefined) return undefined;
    const objects = members.map((m) => this.objectOf(m));
    if (objects.some((o) => o === undefined)) return undefined;
    const tags = members.map((m, i) => {
      const mapped =
        m.kind === "ref"
          ? Object.entries(d.mapping)
              .filter(([, target]) => mappingTarget(target) === m.name)
              .map(([tag]) => tag)
          : [];
      if (mapped.length > 0) return mapped;
      const property = objects[i]!.properties.find((p) => p.name === d.property);
      const resolved = property === undefined ? undefined : this.resolve(property.schema);
      if (resolved?.kind === "enum") return resolved.values.filter((v): v is string => typeof v === "string");
      return m.kind === "ref" ? [m.name] : [];
    });
    // A member no value picks could never be decoded: then the members are told apart by their shape instead.
    if (tags.some((t) => t.length === 0)) return undefined;
    return { property: d.property, tags };
  }

  /** The object a schema stands for (following references, merging allOf), if it is one. */
  objectOf(schema: Schema): ObjectSchema | undefined {
    const s = this.resolve(schema);
    if (s?.kind === "object") return s;
    if (s?.kind === "intersection") return flattenObject(s, this.schemas);
    return undefined;
  }

  /** What sdkruntime.DecodeUnion checks of a member before decoding a value into it. */
  private memberFacts(member: Schema): {
    kind: string;
    values?: string[];
    required: string[];
    known?: string[];
    consts: (readonly [string, string])[];
  } {
    const s = this.resolve(member);
    const none = { required: [], consts: [] };
    switch (s?.kind) {
      case "string":
      case "json-text":
        return { kind: "string", ...none };
      case "integer":
      case "number":
        return { kind: s.kind, ...none };
      case "boolean":
        return { kind: "boolean", ...none };
      case "array":
        return { kind: "array", ...none };
      case "enum": {
        const base = enumBase(s.values);
        const kind =
          base === "string" ? "string" : base === "int64" ? "integer" : base === "float64" ? "number" : base === "bool" ? "boolean" : "";
        return { kind, values: s.values.filter((v) => v !== null).map((v) => JSON.stringify(v)), ...none };
      }
      case "object":
      case "intersection": {
        const object = this.objectOf(s)!;
        const declared = object.properties.map((p) => p.name);
        // A property of one allowed value (a const) must have it: a cat's "kind" is "cat".
        const consts = object.properties.flatMap((p) => {
          const value = this.resolve(p.schema);
          return value?.kind === "enum" && value.values.length === 1 ? [[p.name, JSON.stringify(value.values[0])] as const] : [];
        });
        return {
          kind: "object",
          required: object.properties.filter((p) => p.required).map((p) => p.name),
          ...(declared.length > 0 && { known: declared }),
          consts,
        };
      }
      default:
        return { kind: "", ...none };
    }
  }

  /** `claimed` learns the type before its fields are declared, so that a field may name the struct it is in. */
  private hoist(hint: string, object: ObjectSchema, claimed?: (t: GoType) => void): GoType {
    const name = this.scope.claim(hint);
    const t: GoType = { code: name, kind: "struct" };
    claimed?.(t);
    if (this.nesting.length >= MAX_NESTING) {
      const where =
        this.declaring === undefined
          ? `the type ${this.nesting[0]}`
          : `the schema #/components/schemas/${this.declaring.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      throw new Error(
        `go: ${where} nests inline objects more than ${MAX_NESTING} deep (${this.nesting.slice(-3).join(", ")}...); name some of them in components/schemas`,
      );
    }
    this.nesting.push(name);
    try {
      this.struct(name, object, { doc: goDoc(name, "is an object of the description.", object.description) });
    } finally {
      this.nesting.pop();
    }
    return t;
  }

  private enumDecl(
    name: string,
    values: readonly (string | number | boolean | null)[],
    descriptions: Readonly<Record<string, string>> | undefined,
    doc: string,
  ): void {
    const consts = values
      .filter((v): v is string => typeof v === "string")
      .map((v) => {
        const constName = this.scope.claim(`${name}${goName(v, v === "" ? "Empty" : "V")}`);
        return `${goDoc(constName, `is ${goString(v)}.`, descriptions && Object.hasOwn(descriptions, v) ? descriptions[v] : undefined, "\t")}\n\t${constName} ${name} = ${goString(v)}`;
      });
    this.underlying.set(name, "string");
    this.out.push(`${doc}\ntype ${name} string\n\n${goDoc("Values", `of ${name}.`, undefined)}\nconst (\n${consts.join("\n")}\n)`);
  }

  /**
   * Declares a struct for an object, with Extra and its JSON methods. `skip` leaves a property out (a variant's
   * discriminator, which its type writes: `fixed`).
   */
  struct(
    name: string,
    object: ObjectSchema,
    options: { doc: string; skip?: string; fixed?: readonly [string, string]; jsonText?: JsonTextMode },
  ): FieldInfo[] {
    const fieldScope = new NameScope(GO_STRUCT_MEMBERS);
    const fields: FieldInfo[] = [];
    const lines: string[] = [];
    for (const p of object.properties) {
      if (p.name === options.skip || !TAGGABLE.test(p.name)) continue;
      const field = fieldScope.claim(goName(p.name, "Field"));
      const info = this.field(name, field, p, options.jsonText ?? "string");
      fields.push(info);
      const omit = p.required ? "" : info.type.kind === "nullable" ? ",omitzero" : ",omitempty";
      const tag = info.file ? "-" : `${p.name === "-" ? "-," : p.name}${omit}`;
      // Every field has a comment line: it also keeps gofmt from aligning the fields.
      lines.push(
        goDoc(field, `is ${goString(p.name)}${p.required ? " (required)" : ""}.`, p.schema.description, "\t", {
          after: [fieldFacts(p)],
          deprecated: p.schema.deprecated ? "the description marks this field deprecated." : undefined,
        }),
      );
      lines.push(`\t${field} ${info.type.code} \`json:"${tag}"\``);
    }
    lines.push("\t// Extra holds the fields this release does not declare, kept as they were received; they are sent too.");
    lines.push('\tExtra map[string]json.RawMessage `json:"-"`');
    // A variant's discriminator is not a field: its type writes it, and it is kept out of Extra.
    const ignore = options.skip === undefined ? "" : `, ${goString(options.skip)}`;
    const fixed = options.fixed ? `, ${goString(options.fixed[0])}, ${goString(options.fixed[1])}` : "";
    this.out.push(
      [
        `${options.doc}\ntype ${name} struct {\n${lines.join("\n")}\n}`,
        `// UnmarshalJSON decodes the declared fields and keeps the others in Extra, with any whose value does\n// not fit its field.\nfunc (v *${name}) UnmarshalJSON(data []byte) error {\n\ttype plain ${name}\n\treturn sdkruntime.DecodeObject(data, (*plain)(v), &v.Extra${ignore})\n}`,
        `// MarshalJSON encodes the declared fields with Extra${options.fixed ? " and the variant's discriminator" : ""}.\nfunc (v ${name}) MarshalJSON() ([]byte, error) {\n\ttype plain ${name}\n\treturn sdkruntime.EncodeObject(plain(v), v.Extra${fixed})\n}`,
      ].join("\n\n"),
    );
    this.fields.set(name, fields);
    return fields;
  }

  private field(owner: string, field: string, p: Property, jsonText: JsonTextMode): FieldInfo {
    const file = this.isFile(p.schema);
    if (file !== undefined)
      return { property: p.name, field, type: file === "one" ? FILE : { code: "[]*sdkruntime.File", kind: "nilable" }, file: true };
    const t = this.expr(p.schema, `${owner}${field}`, jsonText);
    // A null must not read as "" or 0, and a request must be able to send one: json.RawMessage holds it itself.
    if (this.isNullable(p.schema) && t.code !== RAW.code && !this.raw.has(t.code)) {
      return { property: p.name, field, type: { code: `sdkruntime.Nullable[${t.code}]`, kind: "nullable" }, file: false };
    }
    const pointer = t.kind === "struct" || (t.kind === "scalar" && !p.required);
    return { property: p.name, field, type: pointer ? { code: `*${t.code}`, kind: "nilable" } : t, file: false };
  }
}

/** The members of a union other than null, and whether it allows null. */
function unionMembers(schema: UnionSchema): { members: Schema[]; nullable: boolean } {
  const members: Schema[] = [];
  let nullable = false;
  for (const m of schema.members) {
    if (m.kind === "null") nullable = true;
    else if (m.kind === "enum" && m.values.includes(null)) {
      nullable = true;
      const rest = m.values.filter((v) => v !== null);
      if (rest.length > 0) members.push({ ...m, values: rest });
    } else members.push(m);
  }
  return { members, nullable };
}

/** The schema name a discriminator mapping's value names: `#/components/schemas/Cat` or `Cat`. */
function mappingTarget(target: string): string {
  const prefix = "#/components/schemas/";
  return target.startsWith(prefix) ? target.slice(prefix.length).replaceAll("~1", "/").replaceAll("~0", "~") : target;
}

/** The part of a union member's field name after `Of`, from its Go type: OfString, OfInt, OfCat, OfStringArray. */
function memberLabel(code: string, union: string): string {
  if (code.startsWith("[]")) return `${memberLabel(code.slice(2), union)}Array`;
  if (code.startsWith("map[string]")) return `${memberLabel(code.slice("map[string]".length), union)}Map`;
  const builtin: Readonly<Record<string, string>> = {
    string: "String",
    int64: "Int",
    float64: "Float",
    bool: "Bool",
    "json.RawMessage": "Any",
    "*sdkruntime.File": "File",
  };
  const label = builtin[code] ?? code;
  return label.startsWith(union) && label.length > union.length && /^[A-Z]/.test(label.slice(union.length))
    ? label.slice(union.length)
    : label;
}

/** A Go []string literal. */
function goStringList(values: readonly string[]): string {
  return `[]string{${values.map(goString).join(", ")}}`;
}

/** A union of one schema with null stands for that schema (its field may be absent or null). */
function nonNull(schema: Schema): Schema {
  if (schema.kind !== "union") return schema;
  const rest = schema.members.filter((m) => m.kind !== "null" && !(m.kind === "enum" && m.values.every((v) => v === null)));
  if (rest.length !== 1 || rest.length === schema.members.length) return schema;
  const description = rest[0]!.description ?? schema.description;
  return description === undefined ? rest[0]! : { ...rest[0]!, description };
}

/** The Go type all non-null values of an enum share, if any. */
function enumBase(values: readonly (string | number | boolean | null)[]): "string" | "int64" | "float64" | "bool" | undefined {
  const set = values.filter((v) => v !== null);
  if (set.length === 0) return undefined;
  if (set.every((v) => typeof v === "string")) return "string";
  if (set.every((v) => typeof v === "number")) return set.every((v) => Number.isInteger(v)) ? "int64" : "float64";
  if (set.every((v) => typeof v === "boolean")) return "bool";
  return undefined;
}

/** A field's default, range and allowed values, as the TypeScript members carry them, after its description. */
function fieldFacts(p: Property): string {
  const s = p.schema;
  const parts: string[] = [];
  if (s.default !== undefined) parts.push(`Default: ${JSON.stringify(s.default)}.`);
  if ((s.kind === "number" || s.kind === "integer") && (s.minimum !== undefined || s.maximum !== undefined)) {
    parts.push(`Range: ${s.minimum ?? "-inf"} to ${s.maximum ?? "inf"}.`);
  }
  if (s.kind === "enum") parts.push(`One of ${s.values.map((v) => JSON.stringify(v)).join(", ")}.`);
  return parts.join(" ");
}
