import type { CursorPagination, LinkPagination, Operation } from "../../../../generator/ir/types.js";
import type { Expression } from "typescript";
import { isInheritedMember, tsDocCode } from "../escape.js";
import type { TsNames } from "../names.js";
import { call, type FunctionSpec, id, objectOf, readProperty, returns } from "../ts-functions.js";
import { factory as f, jsonExpression, MAX_LINE, propertyName, typeAlias, typeRef, wrapDoc } from "../ts-nodes.js";
import { ts } from "../typescript.js";
import type { BillingTypes } from "./operation-nodes.js";
import { isBinaryResponse, paginationNames, requestBodyContent } from "./spec.js";

/** The item type and auto-paging function of a paged operation, and the runtime names they use. */
export interface PagedDeclarations {
  readonly item: string;
  readonly function: FunctionSpec;
  readonly functions: readonly string[];
  readonly types: readonly string[];
}

type Context = { readonly names: TsNames; readonly billing: BillingTypes; readonly keys: ReadonlyMap<unknown, string> };

/**
 * The auto-paging function of an operation that pages (`x-paperoffice-pagination`): a Paginator over the items of
 * its pages, each page read by the operation's own function with the page's size and offset set. Nothing for an
 * operation whose answer is a file or is of several JSON types.
 */
export function paginatorDeclarations(op: Operation, context: Context): PagedDeclarations | undefined {
  const paging = op.pagination;
  if (paging === undefined || isBinaryResponse(op)) return undefined;
  // The item type indexes the answer's type: one JSON answer schema among the 2xx, not a union of several.
  const answers = new Set(
    op.responses
      .filter((r) => r.status.startsWith("2"))
      .flatMap((r) => r.contents.filter((c) => c.encoding === "json").map((c) => JSON.stringify(c.schema))),
  );
  if (answers.size !== 1) return undefined;
  if (paging.kind !== "offset") return nextPaginatorDeclarations(op, paging, context);
  const { names, billing, keys } = context;
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const keyOf = (name: string): string | undefined => {
    const p = op.parameters.query.find((q) => q.name === name);
    return p === undefined ? undefined : keys.get(p);
  };
  const limitKey = keyOf(paging.limit);
  const offsetKey = keyOf(paging.offset);
  // The description's check makes both query parameters exist; without them there is nothing to page by.
  if (limitKey === undefined || offsetKey === undefined) return undefined;
  const body = requestBodyContent(op);
  const optionalParams = !params.some((p) => p.required) && !(body && op.requestBody?.required);
  const response = typeRef(names.response(op));
  const itemType = f.createIndexedAccessTypeNode(
    typeRef("NonNullable", [f.createIndexedAccessTypeNode(response, f.createLiteralTypeNode(f.createStringLiteral(paging.items)))]),
    f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
  );
  const item = typeAlias(names.item(op), itemType, [
    `One item of the pages of \`${tsDocCode(op.id)}\` (its answer's \`${tsDocCode(paging.items)}\`).`,
  ]);
  const optionsType = op.servers ? "OperationServerOptions" : "RequestOptions";
  const page = (member: "limit" | "offset") => f.createPropertyAccessExpression(id("page"), member);
  const pageParams = f.createObjectLiteralExpression(
    [
      ...(params.length > 0 ? [f.createSpreadAssignment(id("params"))] : []),
      f.createPropertyAssignment(propertyName(limitKey), page("limit")),
      f.createPropertyAssignment(propertyName(offsetKey), page("offset")),
    ],
    false,
  );
  const fetchPage = f.createArrowFunction(
    undefined,
    undefined,
    [f.createParameterDeclaration(undefined, undefined, "page"), f.createParameterDeclaration(undefined, undefined, "pageOptions")],
    undefined,
    f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
    call(names.operation(op), undefined, [id("client"), pageParams, ...(body ? [id("body")] : []), id("pageOptions")]),
  );
  const start = objectOf([
    ["limit", readProperty("params", limitKey, optionalParams, isInheritedMember(limitKey))],
    ["offset", readProperty("params", offsetKey, optionalParams, isInheritedMember(offsetKey))],
  ]);
  const typeArgs = [
    typeRef(names.item(op)),
    response,
    ...(billing.alias === undefined ? [typeRef("BillingData")] : billing.extra()),
    typeRef(optionsType),
  ];
  const created = call("paginator", typeArgs, [
    f.createStringLiteral(op.id),
    fetchPage,
    jsonExpression(paginationNames(paging)),
    start,
    f.createBinaryExpression(id("options"), ts.SyntaxKind.QuestionQuestionToken, f.createObjectLiteralExpression([], false)),
  ]);
  const total = paging.total === undefined ? "" : `, or the items read reach the answer's \`${tsDocCode(paging.total)}\``;
  const doc = wrapDoc(
    [
      `Every item of \`${tsDocCode(op.id)}\`, page after page: \`for await (const item of ${names.paginate(op)}(client))\`; \`.pages()\` gives each page instead, with its items, the whole answer and its metadata.`,
      "",
      `Pages are read by \`${tsDocCode(paging.limit)}\` and \`${tsDocCode(paging.offset)}\`, from the parameters' offset (default 0) and page size (else \`options.pageSize\`, default 100), until a page comes back short or empty${total}. A deadline in the options (deadlineMs or timeout) bounds the whole iteration; without one each page has the client's. Errors are those of {@link ${names.operation(op)}}.`,
    ],
    MAX_LINE - 3,
  );
  return {
    item,
    functions: ["paginator"],
    types: ["Paginator", "PagingOptions"],
    function: {
      name: names.paginate(op),
      doc,
      parameters: [
        { name: "client", type: billing.client() },
        ...(params.length > 0 ? [{ name: "params", type: typeRef(names.params(op)), optional: optionalParams }] : []),
        ...(body ? [{ name: "body", type: typeRef(names.body(op)), optional: !op.requestBody?.required }] : []),
        {
          name: "options",
          type: op.servers ? f.createIntersectionTypeNode([typeRef(optionsType), typeRef("PagingOptions")]) : typeRef("PagingOptions"),
          optional: true,
        },
      ],
      returnType: typeRef("Paginator", typeArgs.slice(0, 3)),
      body: [returns(created)],
    },
  };
}

/**
 * The auto-paging function of a read by cursor or Link header: a Paginator whose first page is the operation's own
 * call with the caller's parameters, and each next page the same call with the answer's cursor set (cursor), or
 * the answer's next link followed at the operation's origin (link).
 */
function nextPaginatorDeclarations(
  op: Operation,
  paging: CursorPagination | LinkPagination,
  { names, billing, keys }: Context,
): PagedDeclarations | undefined {
  const params = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const cursorParam = paging.kind === "cursor" ? op.parameters.query.find((q) => q.name === paging.cursor) : undefined;
  const cursorKey = cursorParam === undefined ? undefined : keys.get(cursorParam);
  if (paging.kind === "cursor" && cursorKey === undefined) return undefined;
  const body = requestBodyContent(op);
  const optionalParams = !params.some((p) => p.required) && !(body && op.requestBody?.required);
  const response = typeRef(names.response(op));
  const list =
    paging.items === undefined
      ? response
      : f.createIndexedAccessTypeNode(response, f.createLiteralTypeNode(f.createStringLiteral(paging.items)));
  const itemType = f.createIndexedAccessTypeNode(typeRef("NonNullable", [list]), f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword));
  const where = paging.items === undefined ? "its answer's items" : `its answer's \`${tsDocCode(paging.items)}\``;
  const item = typeAlias(names.item(op), itemType, [`One item of the pages of \`${tsDocCode(op.id)}\` (${where}).`]);
  const optionsType = op.servers ? "OperationServerOptions" : "RequestOptions";
  const withBody = (args: Expression[]) => [...args, ...(body ? [id("body")] : []), id("pageOptions")];
  const first = call(names.operation(op), undefined, withBody([id("client"), ...(params.length > 0 ? [id("params")] : [])]));
  const functions = ["nextPaginator"];
  let following: Expression;
  if (paging.kind === "cursor") {
    const nextParams = f.createObjectLiteralExpression(
      [f.createSpreadAssignment(id("params")), f.createPropertyAssignment(propertyName(cursorKey!), id("next"))],
      false,
    );
    following = call(names.operation(op), undefined, withBody([id("client"), nextParams]));
  } else {
    functions.push("followLink");
    const follow = (options: string) => call("followLink", [response], [id("client"), id(names.spec(op)), id("next"), id(options)]);
    following = op.servers
      ? call("atOperationServer", undefined, [
          id("client"),
          id(names.spec(op)),
          id("pageOptions"),
          f.createArrowFunction(
            undefined,
            undefined,
            [f.createParameterDeclaration(undefined, undefined, "serverOptions")],
            undefined,
            f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
            follow("serverOptions"),
          ),
        ])
      : follow("pageOptions");
    if (op.servers) functions.push("atOperationServer");
  }
  const fetchPage = f.createArrowFunction(
    undefined,
    undefined,
    [f.createParameterDeclaration(undefined, undefined, "next"), f.createParameterDeclaration(undefined, undefined, "pageOptions")],
    undefined,
    f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
    f.createConditionalExpression(
      f.createBinaryExpression(id("next"), ts.SyntaxKind.EqualsEqualsEqualsToken, id("undefined")),
      f.createToken(ts.SyntaxKind.QuestionToken),
      first,
      f.createToken(ts.SyntaxKind.ColonToken),
      following,
    ),
  );
  const billingArgs = billing.alias === undefined ? [typeRef("BillingData")] : billing.extra();
  const typeArgs = [typeRef(names.item(op)), response, ...billingArgs, typeRef(optionsType)];
  const created = call("nextPaginator", typeArgs, [
    f.createStringLiteral(op.id),
    fetchPage,
    jsonExpression(paginationNames(paging)),
    f.createBinaryExpression(id("options"), ts.SyntaxKind.QuestionQuestionToken, f.createObjectLiteralExpression([], false)),
  ]);
  const how =
    paging.kind === "cursor"
      ? `Each next page is asked for with the answer's \`${tsDocCode(paging.next)}\` as \`${tsDocCode(paging.cursor)}\`, until an answer gives none or a page comes back empty.`
      : "Each next page is read from the answer's `Link` header (`rel=\"next\"`), only at the operation's own origin (a link elsewhere is an SdkError), until an answer gives none or a page comes back empty.";
  const doc = wrapDoc(
    [
      `Every item of \`${tsDocCode(op.id)}\`, page after page: \`for await (const item of ${names.paginate(op)}(client))\`; \`.pages()\` gives each page instead, with its items, the whole answer, its metadata and what leads to the next.`,
      "",
      `${how} The options reach every page; a deadline in them (deadlineMs or timeout) bounds the whole iteration, without one each page has the client's. Errors are those of {@link ${names.operation(op)}}.`,
    ],
    MAX_LINE - 3,
  );
  const pageType = typeRef("NextPage", [typeRef(names.item(op)), response, ...billingArgs]);
  return {
    item,
    functions,
    types: ["Paginator", "NextPage", optionsType],
    function: {
      name: names.paginate(op),
      doc,
      parameters: [
        { name: "client", type: billing.client() },
        ...(params.length > 0 ? [{ name: "params", type: typeRef(names.params(op)), optional: optionalParams }] : []),
        ...(body ? [{ name: "body", type: typeRef(names.body(op)), optional: !op.requestBody?.required }] : []),
        { name: "options", type: typeRef(optionsType), optional: true },
      ],
      returnType: typeRef("Paginator", [...typeArgs.slice(0, 3), pageType]),
      body: [returns(created)],
    },
  };
}
