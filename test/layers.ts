// Which test files run in which layer. QUICK: files that start no child process (test/architecture/layers.test.ts
// checks that over their imports), for `npm run test:quick`. CONTRACT: the slow tests against large public
// descriptions, for `npm run test:contract`, which .ci/run runs after `npm test`.
export const CONTRACT = [
  "test/prism/**/*.test.ts",
  "targets/python/test/github-pyright.test.ts",
  "targets/go/test/github-go.test.ts",
  "test/generator/compile.test.ts",
  "test/bench/**/*.test.ts",
  "test/behaviour/soak-contract.test.ts",
  // Releases through local registries (pypiserver, Verdaccio, a Go module proxy folder): minutes, not seconds.
  "test/publish/**/*.test.ts",
];

export const QUICK = [
  "test/architecture/boundaries.test.ts",
  "test/architecture/layers.test.ts",
  "test/reporters/**/*.test.ts",
  "test/spec/pointer.test.ts",
  "test/spec/facts.test.ts",
  "test/generator/fixture-sample.test.ts",
  "test/generator/fixtures.test.ts",
  "test/generator/names.test.ts",
  "test/generator/output.test.ts",
  "test/generator/progress.test.ts",
  "test/generator/publish-plan.test.ts",
  "test/generator/schema-check.test.ts",
  "test/diff/version.test.ts",
  "test/diff/judged.test.ts",
  "test/diff/pairs.test.ts",
  "test/diff/matching.test.ts",
  "test/conventions/middleware.test.ts",
  "test/conventions/spec.test.ts",
  "test/behaviour/soak-judge.test.ts",
  "test/mock/e2e-client.test.ts",
  "test/mock/faults.test.ts",
  "test/mock/jobs.test.ts",
  "test/mock/operations.test.ts",
  "test/mock/webhooks.test.ts",
  "test/mock-prism/answers.test.ts",
  "targets/typescript/test/runtime/**/*.test.ts",
  "targets/typescript/test/webhooks/**/*.test.ts",
  "targets/typescript/test/ts-type.test.ts",
  "targets/typescript/test/operation-signatures.test.ts",
  "targets/typescript/test/subscription-check.test.ts",
  "targets/python/test/py-names.test.ts",
  "targets/python/test/py-type.test.ts",
  "targets/go/test/go-names.test.ts",
];
