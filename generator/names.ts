// Names the generated code and the command share with the packages: one place, checked against the package.json
// files by test/package/names.test.ts.

/** The toolchain's command (package.json "bin"), named in every generated file's header. */
export const BIN = "paperoffice-sdk";
