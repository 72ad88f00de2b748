/**
 * The import rules `npm test` enforces (npm run lint:layers). The folders of mock/ are its layers,
 * lowest first; a module imports its own layer or lower ones, never a higher one:
 *   1. mock/base/      the contract, the request and answer with the error table, the clock,
 *                      quota arithmetic (windows, bans, plans, key format, Retry-After), ConfigError;
 *   2. mock/pipeline/  the generic pipeline (requests, answers, steps, slots), the fake's state and
 *                      session, and its configuration (pipeline/config/);
 *   3. mock/store/     the pets: frozen pets by id and in id-ordered lists, pages handed out once;
 *   4. mock/steps/     the steps and what they own: routes, policies, exchange, control, qa, journal, each
 *                      a folder that imports only the ones before it in that list;
 *   5. mock/control-ui/ the control UI (its reading of the fake's control functions, model,
 *                      view and styles), mounted twice: in the app's page as the panel (which the
 *                      browser door gives) and as the QA page the control surface serves (which
 *                      the assembly hands it); it imports no door and no assembly;
 *   6. mock/core/      the fake's assembly: which steps run in which order (api-pipeline.ts),
 *                      createFake (fake.ts), and the doors that need no environment (fake.fetch,
 *                      the msw handlers), as msw's core/ holds its handlers and its fetch;
 *   7. mock/*.ts       the package's entries that give it: the root (index.ts) and the QA
 *                      helpers (qa.ts);
 *   7b. mock/replicas/ what replicas of one fake share through Redis, and the Redis client:
 *                      Node only, above every layer a browser or shared entry loads, and only
 *                      the doors that start the HTTP door reach it (the rule below);
 *   8. mock/doors/     the doors of an environment (Node, browser, HTTP, the npm start CLI) and
 *                      the command-line pieces the CLIs share;
 *   9. mock/internal/  what the harness borrows from the fake beyond the package's entries;
 *  10. the tools built on the fake: contract-tests/, bench/, scripts/, test/support/ (browsers,
 *      processes, static servers and vitest's plumbing for the tests), test/harness-fixtures/
 *      (the servers and mutants the harness is tested against) and every test file.
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
  '^mock/store/',
  '^mock/steps/',
  '^mock/control-ui/',
  '^mock/core/',
  '^mock/[^/]+\\.ts$',
  '^mock/replicas/',
  '^mock/doors/',
  '^mock/internal/',
];
/** The folders of mock/steps/, in the order they may import each other. */
const stepFolders = ['routes', 'policies', 'exchange', 'control', 'qa', 'journal'];
/**
 * The folders of contract-tests/, lowest first: the ground (errors, the interface as data, the
 * HTTP client), what a check is and the checks, how a run goes, what it reports, who it runs
 * against, and the commands built on them. The servers and mutants it is tested against are
 * tools for tests (test/harness-fixtures/).
 */
const harnessLayers = [
  ['base', 'contract', 'http', 'arbitraries'],
  ['checks'],
  ['runner'],
  ['report', 'pact'],
  ['targets', 'proxy', 'calibrate'],
  ['cli'],
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
        'The folders of mock/steps/ import only the ones before them: routes, policies, exchange, control, qa, journal.',
      from: { path: `^mock/steps/${folder}/`, pathNot: test },
      to: { path: stepFolders.slice(index + 1).map((later) => `^mock/steps/${later}/`) },
    })),
    {
      name: 'doors-touch-only-the-core',
      severity: 'error',
      comment:
        "A door translates: it reads the fake's assembly (core/, the package entries), the control UI it mounts (control-ui/), the pipeline and base/, never a step; what it needs of a feature is a field of the Answer or a type the entries give.",
      from: {
        path: '^mock/doors/|^mock/core/(fake-fetch|fetch-adapter|msw-handlers)\\.ts$',
        pathNot: test,
      },
      to: { path: '^mock/steps/' },
    },
    {
      name: 'no-browser-or-shared-entry-reaches-redis',
      severity: 'error',
      comment:
        "Redis is for the HTTP door: the browser door, the msw doors and the package's shared entries never load the replicas' folder or a Redis client, directly or through another module. startFake, which the Node entry gives, loads its replica's module only when asked for one, by a dynamic import, which the cruise does not follow (options below).",
      from: { path: '^mock/(index|qa)\\.ts$|^mock/doors/(browser|node)/', pathNot: test },
      to: { path: '^mock/replicas/|node_modules/@redis/', reachable: true },
    },
    {
      name: 'only-the-replicas-import-redis',
      severity: 'error',
      comment:
        'One folder holds the Redis client and the scripts, so what the fleet shares has one home.',
      from: { pathNot: `^mock/replicas/|^(test|bench|scripts)/|${test}` },
      to: { path: 'node_modules/@redis/' },
    },
    {
      name: 'the-fake-knows-no-tool',
      severity: 'error',
      comment: 'The harness, the bench and the scripts are built on the fake, never the other way.',
      from: { path: '^mock/', pathNot: test },
      to: { path: '^(contract-tests|bench|scripts|test)/' },
    },
    {
      name: 'the-harness-knows-no-test-tool',
      severity: 'error',
      comment:
        'Tools for tests (test/support/) are not the product: the harness the package ships imports none of them.',
      from: { path: '^contract-tests/', pathNot: test },
      to: { path: '^test/' },
    },
    {
      name: 'the-harness-reaches-the-fake-through-its-entries',
      severity: 'error',
      comment:
        "contract-tests/ takes what it needs of the fake from the package's entries or mock/internal/entry.ts, which lists what it lends: a change inside the fake cannot break the harness unseen.",
      from: { path: '^contract-tests/' },
      to: {
        path: '^mock/',
        pathNot: '^mock/(index|qa)\\.ts$|^mock/doors/node/node\\.ts$|^mock/internal/entry\\.ts$',
      },
    },
    ...harness
      .slice(0, -1)
      .map((_, index) => staysBelow(harness, index, `harness-layer-${index + 1}-stays-down`)),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Dot-files are a test's scratch (worked-example.test.ts writes one beside the steps it
    // imports, and removes it): a cruise running meanwhile must not read it, or fail when it goes.
    // Packages are not followed but stay in the cruise as leaves, so a rule can name one
    // (only-the-replicas-import-redis).
    // A dynamic import loads its module only when its line runs, so it is no dependency of the
    // importer's: startFake loads a replica's module only when asked for a replica, and a bin's
    // gate its CLI only once the Node.js version is checked.
    exclude: { path: ['(^|/)\\.[^/]+\\.ts$'], dynamic: true },
    // TypeScript 7 has no compiler API for dependency-cruiser to parse with: swc reads the sources.
    parser: 'swc',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
