/**
 * The import rules `npm test` enforces (npm run lint:layers). Layers, lowest first:
 *   1. ground floor: the contract (mock/contract/), the request the core reads and the answer it
 *      writes with the error table (mock/messages/), the clock (mock/clock/), ConfigError, quota
 *      arithmetic (rate-limit windows, bans, plans, key format) and Retry-After formatting;
 *   2. the generic pipeline (mock/core/pipeline.ts: requests, answers, steps, slots), the fake's
 *      state and its configuration (mock/core/fake-state.ts, mock/config/);
 *   3. steps and routes (mock/policies/, mock/control/, mock/qa/, mock/routes/, mock/store/);
 *   4. the behaviour core that wires the steps (mock/core/behaviour.ts);
 *   5. the doors that need no environment, adapters over the core (mock/doors/fake-fetch.ts,
 *      msw-handlers.ts, fetch-adapter.ts);
 *   6. createFake (mock/fake.ts), which builds a fake with those two doors;
 *   7. the doors of an environment (mock/doors/node.ts, fetch-only-server.ts, fetch-fast-path.ts,
 *      browser/, http/) and the npm start CLI (mock/cli/);
 *   8. the tools built on the fake: contract-tests/, bench/, scripts/, and every test file.
 * A module may import its own layer or lower ones, never a higher one, and nothing may import in a
 * circle. There is no exception list: a rule that does not hold is fixed in the code.
 */
const ground =
  '^mock/(contract/|messages/|clock/|config/config-error\\.ts$|policies/(rate-limit|ban|retry-after|plans|key-format)\\.ts$)';
const steps = '^mock/(policies|control|qa|routes|store)/';
const core = '^mock/core/behaviour\\.ts$';
const adapters = '^mock/doors/(fake-fetch|msw-handlers|fetch-adapter)\\.ts$';
const createFake = '^mock/fake\\.ts$';
const doors = '^mock/(doors|cli)/';
const tools = '^(contract-tests|bench|scripts)/';
// Tests sit beside what they test and reach it through the door a user uses: they are tools.
const test = '\\.test\\.ts$';

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
    {
      name: 'ground-floor-stays-down',
      severity: 'error',
      comment:
        'The contract, answers, the clock and quota arithmetic know nothing of the pipeline, the state, steps or doors.',
      from: { path: ground, pathNot: test },
      to: { path: '^mock/', pathNot: ground },
    },
    {
      name: 'pipeline-is-generic',
      severity: 'error',
      comment:
        'The pipeline knows requests, answers, steps and slots: what a step learns is declared by that step.',
      from: { path: '^mock/core/pipeline\\.ts$' },
      to: { path: '^mock/', pathNot: [ground, '^mock/core/pipeline\\.ts$'] },
    },
    {
      name: 'state-and-config-know-no-step',
      severity: 'error',
      comment: 'The state and the configuration name no step, no core and no door.',
      from: { path: '^mock/(core/fake-state\\.ts$|config/)', pathNot: test },
      to: {
        path: [core, doors, '^mock/policies/.*-step\\.ts$', '^mock/(routes|control|qa)/.*step'],
      },
    },
    {
      name: 'steps-know-no-door',
      severity: 'error',
      comment:
        'Steps, routes and the store answer requests; which door brought them is not theirs to know.',
      from: { path: steps, pathNot: test },
      to: { path: [core, createFake, doors] },
    },
    {
      name: 'core-knows-no-door',
      severity: 'error',
      comment: 'Every door calls the behaviour core; the core calls none of them.',
      from: { path: core, pathNot: test },
      to: { path: [createFake, doors] },
    },
    {
      name: 'adapters-know-no-environment',
      severity: 'error',
      comment:
        'fake.fetch and the msw handlers adapt the core for any environment: no createFake, no Node or browser door.',
      from: { path: adapters, pathNot: test },
      to: { path: [createFake, doors], pathNot: adapters },
    },
    {
      name: 'createFake-knows-no-environment',
      severity: 'error',
      comment: 'createFake runs anywhere: Node, a service worker, a browser page.',
      from: { path: createFake },
      to: { path: doors, pathNot: adapters },
    },
    {
      name: 'the-fake-knows-no-tool',
      severity: 'error',
      comment: 'The harness, the bench and the scripts are built on the fake, never the other way.',
      from: { path: '^mock/', pathNot: test },
      to: { path: tools },
    },
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
