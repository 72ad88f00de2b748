/**
 * The import rules `npm test` enforces (npm run lint:layers). Layers, lowest first:
 *   1. ground floor: the contract (mock/contract/), requests and answers, errors, the clock, quota
 *      arithmetic (rate-limit windows, bans, plans, key format) and Retry-After formatting;
 *   2. the pipeline (mock/pipeline.ts) and the fake's state and configuration;
 *   3. steps and routes (mock/policies/*-step.ts, auth, cors, host check, deprecation, control/,
 *      qa/, routes/, store/);
 *   4. the behaviour core and createFake (mock/behaviour.ts, mock/fake.ts);
 *   5. the doors (mock/doors/, mock/server/, mock/browser*, mock/node.ts);
 *   6. the tools built on the fake: contract-tests/, bench/, scripts/, and every test file.
 * A module may import its own layer or lower ones, never a higher one, and nothing may import in a
 * circle. There is no exception list: a rule that does not hold is fixed in the code.
 */
const ground =
  '^mock/(contract/|core/(answer|errors|clock|fake-request|config-error)\\.ts$|policies/(rate-limit|ban|retry-after|plans|key-format)\\.ts$)';
const steps = '^mock/(policies|control|qa|routes|store)/';
const core = '^mock/(behaviour|fake)\\.ts$';
const doors = '^mock/(doors/|server/|browser|node\\.ts$)';
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
      name: 'pipeline-knows-no-step',
      severity: 'error',
      comment: 'The pipeline runs steps; it never names one, nor a door.',
      from: { path: '^mock/(pipeline|core/(fake-state|config|profile))\\.ts$', pathNot: test },
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
      to: { path: [core, doors] },
    },
    {
      name: 'core-knows-no-door',
      severity: 'error',
      comment: 'Every door calls the behaviour core; the core calls none of them.',
      from: { path: core, pathNot: test },
      to: { path: '^mock/(server/|browser|node\\.ts$)' },
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
