/**
 * One method of the generated Client per operation: a params struct with the parameters and the body, and a method
 * that takes a context first, fills an sdkruntime.Request and calls the runtime. Job submission with pipelines is
 * pipelines.ts's business.
 */
import { jsonBodyMediaType, requestBodyContent, sentAgainAfterFailure } from "../../../generator/emit/operation-files.js";
import type { IR, Operation, Parameter, Schema } from "../../../generator/ir/types.js";
import { itemSchemaOf } from "../../../generator/emit/pagination.js";
import { goComment, goDoc, goString, summaryLead } from "./escape.js";
import type { GoTypes } from "./go-type.js";
import { bodyKind, isBinaryResponse, operationLiteral } from "./operation-spec.js";
import { goName, NameScope } from "./names.js";

/** The comment lines on what an operation's method returns on an error answer, and for a write it does not send twice. */
function errorsDoc(op: Operation): string[] {
  // Paragraphs of the method's doc, wrapped with the rest of it.
  const answer =
    "An error answer is a *sdkruntime.ServiceError: match it with errors.Is and the code's Err constant or the " +
    "status class (sdkruntime.ErrNotFound, sdkruntime.ErrInternalServer, ...), or read it with errors.As.";
  if (sentAgainAfterFailure(op)) return [answer];
  const kind = op.job?.role === "submit" ? "JobMayExistError" : "MayHaveBeenProcessedError";
  return [
    answer,
    `A 5xx answer (not 503, retried) or a failure after sending is a *sdkruntime.${kind}, wrapping the ` +
      "answer's *sdkruntime.ServiceError when there was one; it is not sent again.",
  ];
}

const LOCATION_SETTER: Readonly<Record<Parameter["in"], string>> = {
  path: "SetPath",
  query: "SetQuery",
  header: "SetHeader",
  cookie: "SetCookie",
};

/** The Go names a caller of one generated method uses: the method, its params struct and the fields of that struct. */
export interface GoOperationPlan {
  readonly operationId: string;
  readonly method: string;
  /** The params struct; undefined when the method takes none. */
  readonly params?: string;
  /** The params struct's field of each parameter, in the order of path, query, header and cookie parameters. */
  readonly parameters: readonly { readonly in: Parameter["in"]; readonly name: string; readonly field: string; readonly type: string }[];
  /** The body's field and how it travels; for a form body, the struct fields holding its files. */
  readonly body?: {
    readonly field: string;
    /** The field's Go type, as the params struct declares it. */
    readonly type: string;
    readonly kind: "json" | "form" | "raw";
    readonly files: readonly { readonly property: string; readonly field: string; readonly many: boolean }[];
  };
  /** The method takes an io.Writer the answer's bytes are copied to. */
  readonly binary: boolean;
  /** The iterator over the items of a paged read, when the operation has one. */
  readonly paginate?: string;
  /** The iterator over its pages, beside paginate. */
  readonly paginatePages?: string;
}

/** The Go code of one operation, with the names a caller uses. */
export function operationCode(
  op: Operation,
  names: { method: string; params: string; opVar: string; paginate?: { items: string; pages: string } },
  types: GoTypes,
  ir?: IR,
): { code: string; plan: GoOperationPlan } {
  const planned: { in: Parameter["in"]; name: string; field: string; type: string }[] = [];
  let bodyPlan: GoOperationPlan["body"];
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const body = bodyKind(op);
  const fieldScope = new NameScope();
  const fields: string[] = [];
  const fills: string[] = [];
  for (const p of params) {
    const field = fieldScope.claim(goName(p.name, "Param"));
    const t = types.expr(p.schema, `${names.params}${field}`, "string");
    const required = p.required || p.in === "path";
    const code = t.kind === "struct" || (t.kind === "scalar" && !required) ? `*${t.code}` : t.code;
    fields.push(
      goDoc(field, `is the ${p.in} parameter ${goString(p.name)}${required ? " (required)" : ""}.`, p.description, "\t", {
        deprecated: p.deprecated || p.schema.deprecated ? "the description marks this parameter deprecated." : undefined,
      }),
    );
    fields.push(`\t${field} ${code}`);
    fills.push(`\treq.${LOCATION_SETTER[p.in]}(${goString(p.name)}, in.${field})`);
    planned.push({ in: p.in, name: p.name, field, type: code });
  }
  if (body) {
    const field = fieldScope.claim("Body");
    const content = requestBodyContent(op);
    const sentAs = (body.kind === "json" && jsonBodyMediaType(op)) || body.mediaType;
    const required = op.requestBody?.required ?? false;
    fields.push(
      goDoc(field, `is the request body (${goComment(sentAs)}${required ? ", required" : ""}).`, op.requestBody?.description, "\t"),
    );
    if (body.kind === "raw" || content === undefined) {
      bodyPlan = { field, type: "io.Reader", kind: "raw", files: [] };
      fields.push(`\t${field} io.Reader`);
      fills.push(`\tif in.${field} != nil {\n\t\treq.Body = in.${field}\n\t}`);
    } else {
      const t = types.expr(content.schema, `${names.params}${field}`, "string");
      const pointer = t.kind === "struct" || (t.kind === "scalar" && !required);
      const type = `${pointer ? "*" : ""}${t.code}`;
      fields.push(`\t${field} ${type}`);
      const nilable = pointer || t.kind === "nilable";
      fills.push(...exactlyOneChecks(types, content.schema, t.code, `in.${field}`));
      if (body.kind === "json") {
        bodyPlan = { field, type, kind: "json", files: [] };
        fills.push(nilable ? `\tif in.${field} != nil {\n\t\treq.Body = in.${field}\n\t}` : `\treq.Body = in.${field}`);
      } else {
        const files = t.kind === "struct" ? types.fieldsOf(t.code).filter((f) => f.file) : [];
        bodyPlan = {
          field,
          type,
          kind: "form",
          files: files.map((f) => ({ property: f.property, field: f.field, many: f.type.code.startsWith("[]") })),
        };
        const addFiles = files.map(
          (f) =>
            `\t\tsdkruntime.${f.type.code.startsWith("[]") ? "AddFiles" : "AddFile"}(form, ${goString(f.property)}, in.${field}.${f.field})`,
        );
        fills.push(
          [
            nilable ? `\tif in.${field} != nil {` : "\t{",
            `\t\tform, err := sdkruntime.FormOf(in.${field})`,
            "\t\tif err != nil {",
            `\t\t\treturn nil, &sdkruntime.ConfigError{Message: ${goString(`${op.id}: the body cannot be encoded: `)} + err.Error()}`,
            "\t\t}",
            ...addFiles,
            "\t\treq.Body = form",
            "\t}",
          ].join("\n"),
        );
      }
    }
  }
  const hasIn = fields.length > 0;
  const lines: string[] = [];
  lines.push(`// ${names.opVar} describes ${goComment(op.id)} to the runtime.`);
  lines.push(`var ${names.opVar} = ${operationLiteral(op)}`);
  if (hasIn) {
    lines.push("");
    lines.push(goDoc(names.params, `holds the parameters and body of ${names.method}.`, undefined));
    lines.push(`type ${names.params} struct {\n${fields.join("\n")}\n}`);
  }
  const binary = isBinaryResponse(op);
  const result = binary ? undefined : resultType(op, names.method, types);
  const args = ["ctx context.Context", ...(hasIn ? [`in *${names.params}`] : []), ...(binary ? ["w io.Writer"] : []), "opts ...CallOption"];
  const returns = binary ? "(*sdkruntime.DownloadInfo, error)" : `(*sdkruntime.Response[${result}], error)`;
  const route = `${op.method.toUpperCase()} ${op.path}`;
  const summary = summaryLead(op.summary, op.method, route);
  lines.push("");
  lines.push(
    goDoc(names.method, summary ?? `calls ${route}.`, op.description, "", {
      after: [...(summary === undefined || summary.startsWith("calls ") ? [] : [`It calls ${route}.`]), ...errorsDoc(op)],
      deprecated: op.deprecated ? "the description marks this operation deprecated." : undefined,
    }),
  );
  const bodyLines: string[] = [];
  if (hasIn) bodyLines.push(`\tif in == nil {\n\t\tin = &${names.params}{}\n\t}`);
  bodyLines.push("\treq := sdkruntime.Request{}");
  bodyLines.push(...fills);
  if (binary) {
    bodyLines.push(`\treturn c.CallDownload(ctx, &${names.opVar}, req, w, opts...)`);
  } else {
    bodyLines.push(`\tvar out ${result}`);
    bodyLines.push(`\tmeta, err := c.CallInto(ctx, &${names.opVar}, req, &out, opts...)`);
    bodyLines.push("\tif err != nil {\n\t\treturn nil, err\n\t}");
    bodyLines.push(`\treturn &sdkruntime.Response[${result}]{Data: out, Meta: *meta}, nil`);
  }
  lines.push(`func (c *Client) ${names.method}(${args.join(", ")}) ${returns} {\n${bodyLines.join("\n")}\n}`);
  // A paged read's iterators fill the same request; a fill that can fail (a body check) has no error to return there.
  const paged = names.paginate && op.pagination && result !== undefined && ir !== undefined && !fills.some((f) => f.includes("return "));
  if (paged && names.paginate && result !== undefined && ir !== undefined) {
    lines.push(...pagerCode(ir, op, { ...names, paginate: names.paginate }, types, { hasIn, result, fills }));
  }
  const plan: GoOperationPlan = {
    operationId: op.id,
    method: names.method,
    ...(hasIn && { params: names.params }),
    parameters: planned,
    ...(bodyPlan && { body: bodyPlan }),
    binary,
    ...(paged && names.paginate ? { paginate: names.paginate.items, paginatePages: names.paginate.pages } : {}),
  };
  return { code: lines.join("\n"), plan };
}

/**
 * The iterators of a paged read: over its items and over its pages, each of iter.Seq2's type (the module stays on
 * Go 1.22, so the type is written out), both through sdkruntime.Pages with the request the operation's method fills.
 */
function pagerCode(
  ir: IR,
  op: Operation,
  names: { method: string; params: string; opVar: string; paginate: { items: string; pages: string } },
  types: GoTypes,
  made: { hasIn: boolean; result: string; fills: readonly string[] },
): string[] {
  const paging = op.pagination!;
  const content = op.responses
    .filter((r) => r.status.startsWith("2"))
    .flatMap((r) => r.contents)
    .find((c) => c.encoding === "json");
  const itemSchema = content === undefined ? undefined : itemSchemaOf(ir, content.schema, paging.items);
  const item = itemSchema === undefined ? "any" : types.expr(itemSchema, `${names.method}Item`, "string").code;
  const page = `*sdkruntime.Page[${item}, ${made.result}]`;
  const args = ["ctx context.Context", ...(made.hasIn ? [`in *${names.params}`] : []), "opts ...CallOption"];
  const pass = ["ctx", ...(made.hasIn ? ["in"] : []), "opts..."].join(", ");
  const how =
    paging.kind === "offset"
      ? `Pages are read by the query parameters ${goString(paging.limit)} and ${goString(paging.offset)}, from in's offset (default 0) and page size (default sdkruntime.DefaultPageSize), until a page comes back short or empty${paging.total === undefined ? "" : ` or the items read reach the answer's ${goString(paging.total)}`}.`
      : paging.kind === "cursor"
        ? `Each next page is asked for with the answer's ${goString(paging.next)} as the query parameter ${goString(paging.cursor)}, until an answer gives none or a page comes back empty.`
        : "Each next page is read from the answer's Link header (rel=\"next\"), only at the operation's own origin (a link elsewhere is an error matching sdkruntime.ErrForeignLink), until an answer gives none or a page comes back empty.";
  const where = paging.items === undefined ? "the answer's items" : `the answer's ${goString(paging.items)}`;
  const body: string[] = [];
  if (made.hasIn) body.push(`\tif in == nil {\n\t\tin = &${names.params}{}\n\t}`);
  body.push("\treq := sdkruntime.Request{}", ...made.fills);
  body.push(`\treturn sdkruntime.Pages[${item}, ${made.result}](ctx, c.Client, &${names.opVar}, req, opts...)`);
  return [
    "",
    goDoc(
      names.paginate.items,
      `reads every item of ${names.method} (${where}), page after page, as an iter.Seq2[${item}, error]: range over it with Go 1.23 or later.`,
      undefined,
      "",
      {
        after: [
          how,
          "The context's deadline and a CallTimeout bound the whole iteration, not each page; the error that ends it is yielded last. Errors are those of " +
            `${names.method}.`,
        ],
      },
    ),
    `func (c *Client) ${names.paginate.items}(${args.join(", ")}) func(yield func(${item}, error) bool) {\n\treturn sdkruntime.Items(c.${names.paginate.pages}(${pass}))\n}`,
    "",
    goDoc(
      names.paginate.pages,
      `reads the pages of ${names.method} as ${names.paginate.items} does, each with its items, the whole answer and its meta, as an iter.Seq2[${page}, error].`,
      undefined,
      "",
    ),
    `func (c *Client) ${names.paginate.pages}(${args.join(", ")}) func(yield func(${page}, error) bool) {\n${body.join("\n")}\n}`,
  ];
}

/**
 * The "exactly one of" groups of a struct body, checked before anything is sent (a *sdkruntime.ConfigError). A
 * member the struct cannot declare is looked for in Extra.
 */
function exactlyOneChecks(types: GoTypes, schema: Schema, goType: string, value: string): string[] {
  const resolved = types.resolve(schema);
  const object = resolved?.kind === "object" ? resolved : undefined;
  const fields = types.fieldsOf(goType);
  if (object === undefined || fields.length === 0 || (object.exactlyOne ?? []).length === 0) return [];
  const present = (property: string): string => {
    const f = fields.find((x) => x.property === property);
    if (f === undefined) return `${value}.Extra[${goString(property)}] != nil`;
    if (f.type.kind === "nullable") return `${value}.${f.field}.IsSet()`;
    return f.type.kind === "scalar" || f.type.kind === "struct" ? "true" : `${value}.${f.field} != nil`;
  };
  const checks = (object.exactlyOne ?? []).map(
    (group) =>
      `\t\tif err := sdkruntime.ExactlyOne(${goString(group.join(", "))}, ${group.map(present).join(", ")}); err != nil {\n\t\t\treturn nil, err\n\t\t}`,
  );
  return [`\tif ${value} != nil {\n${checks.join("\n")}\n\t}`];
}

/** The Go type of the first 2xx JSON answer (json.RawMessage when there is none). */
function resultType(op: Operation, method: string, types: GoTypes): string {
  const ok = op.responses.filter((r) => r.status.startsWith("2"));
  const content = ok.flatMap((r) => r.contents).find((c) => c.encoding === "json");
  if (content === undefined) return "json.RawMessage";
  return types.expr(content.schema, `${method}Result`, "string").code;
}
