/**
 * The import rules `npm test` enforces (npm run lint:layers). The folders of mock/ are its layers,
 * lowest first; a module imports its own layer or lower ones, never a higher one:
 *   1. mock/base/      the contract, the request and answer with the error table, the clock,
 *                      quota arithmetic (windows, bans, plans, key format, Retry-After), ConfigError;
 *   2. mock/pipeline/  the generic pipeline (requests, answers, steps, slots), the fake's state and
 *                      session, and its configuration (pipeline/config/);
 *   3. mock/steps/     the steps and what they own: store, routes, policies, control, qa,
 *                      journal, each a folder that imports only the ones before it in that list;
 *   4. mock/core/      the behaviour core that wires the steps;
 *   5. mock/adapters/  the doors that need no environment (fake.fetch, the msw handlers);
 *   6. mock/*.ts       createFake (fake.ts) and the package's entries that give it: the root
 *                      (index.ts) and the QA helpers (qa.ts);
 *   7. mock/doors/     the doors of an environment (Node, browser, HTTP, the npm start CLI) and
 *                      the command-line pieces the CLIs share;
 *   8. the tools built on the fake: contract-tests/, bench/, scripts/, and every test file.
 * contract-tests/ is layered the same way (its rules below). No folder imports a folder that
 * imports it (scripts/folder-layers.test.ts reads the cruise to hold every pair of folders to it),
 * and nothing imports in a circle. There is no exception list: a rule that does not hold is fixed
 * in the code.
 */
const test = '\\.test\\.ts$';
/** The folders of mock/, lowest first; each may import only itself and the ones before it. */
const mockLayers = [
  '^mock/base/',
  '^mock/pipeline/',
  '^mock/steps/',
  '^mock/core/',
  '^mock/adapters/',
  '^mock/[^/]+\\.ts$',
  '^mock/doors/',
];
/** The folders of mock/steps/, in the order they may import each other. */
const stepFolders = ['store', 'routes', 'policies', 'control', 'qa', 'journal'];
/**
 * The folders of contract-tests/, lowest first: the ground (errors, the interface as data, the
 * HTTP client), what a check is and the checks, how a run goes, what it reports, who it runs
 * against, the commands built on them, and the test fixtures.
 */
const harnessLayers = [
  ['base', 'contract', 'http', 'arbitraries'],
  ['checks'],
  ['runner'],
  ['report', 'pact'],
  ['targets', 'proxy', 'calibrate'],
  ['cli'],
  ['bad-servers', 'real-servers', 'mutants'],
];

/** A rule that layer `index` of `layers` imports nothing above it. */
function staysBelow(layers, index, name) {
  const above = layers.slice(index + 1);
  return {
    name,
    severity: 'error',
    comment: 'A layer imports itself and the layers below it (see the top of this file).',
    from: { path: layers[index], pathNot: test },
    to: { path: above },
  };
}

const harness = harnessLayers.map((folders) => `^contract-tests/(${folders.join('|')})/`);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle means two modules are one idea split in two, or a lower layer that knows a higher one.',
      from: {},
      to: { circular: true },
    },
    ...mockLayers
      .slice(0, -1)
      .map((_, index) => staysBelow(mockLayers, index, `mock-layer-${index + 1}-stays-down`)),
    ...stepFolders.slice(0, -1).map((folder, index) => ({
      name: `steps-${folder}-stays-down`,
      severity: 'error',
      comment:
        'The folders of mock/steps/ import only the ones before them: store, routes, policies, control, qa, journal.',
      from: { path: `^mock/steps/${folder}/`, pathNot: test },
      to: { path: stepFolders.slice(index + 1).map((later) => `^mock/steps/${later}/`) },
    })),
    {
      name: 'the-fake-knows-no-tool',
      severity: 'error',
      comment: 'The harness, the bench and the scripts are built on the fake, never the other way.',
      from: { path: '^mock/', pathNot: test },
      to: { path: '^(contract-tests|bench|scripts)/' },
    },
    ...harness
      .slice(0, -1)
      .map((_, index) => staysBelow(harness, index, `harness-layer-${index + 1}-stays-down`)),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with: swc reads the sources.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
