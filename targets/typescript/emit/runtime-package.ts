// The runtime's npm package (targets/typescript/runtime/package.json) and the range a generated SDK depends on;
// checked against that package.json by test/package/package.test.ts.
export const RUNTIME_PACKAGE = { name: "@paperoffice/sdk-runtime", range: "^0.1.0" } as const;
