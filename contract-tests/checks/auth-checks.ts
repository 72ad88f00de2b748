/** Checks of authentication: a missing, unknown or malformed key gets 401 on every operation. */
import fc from 'fast-check';
import { malformedAuthHeader, unknownKeyHeader } from '../arbitraries/auth-header.ts';
import { toJsonText } from '../http/exact-json.ts';
import { keyPlaceholder, type RequestSpec } from '../http/exchange.ts';
import { activeCheck, priorities } from './check.ts';
import type { CheckContext } from './check-context.ts';
import { expectJudged, expectStatus } from './expect.ts';
import { malformedHeaderJudge, missingKeyJudge } from './judges/auth-judges.ts';
import { forAll } from './property.ts';
import { type Auth, createPetRequest, getPetRequest, listPetsRequest } from './requests.ts';

type OperationName = 'listPets' | 'getPet' | 'createPet';

/** The operations a request without a valid key is aimed at (createPet only when writing). */
function operationNames(context: CheckContext): OperationName[] {
  return context.writes ? ['listPets', 'getPet', 'createPet'] : ['listPets', 'getPet'];
}

function request(context: CheckContext, operation: OperationName, auth: Auth): RequestSpec {
  if (operation === 'listPets') return listPetsRequest({}, auth);
  if (operation === 'getPet') return getPetRequest(1, auth);
  const body = toJsonText({ name: `${context.runPrefix}unauthorised`, categoryId: 1 });
  return createPetRequest(body, auth);
}

/** 401 without Authorization, on each operation. */
export const authMissingKey = activeCheck({
  id: 'auth.missingKey',
  title: 'answers 401 when no Authorization header is sent, on every operation',
  source: 'Authentication, "Failure"; 401 rows of every endpoint',
  priority: priorities.auth,
  cost: { fixed: 3, perRun: 0, withoutKey: true },
  judges: missingKeyJudge,
  async run(context) {
    for (const operation of operationNames(context)) {
      const spec = request(context, operation, 'none');
      expectJudged(await context.send(spec), missingKeyJudge, `${spec.method} ${spec.path}`);
    }
  },
});

/** 401 for a well-formed bearer token that is not a key. */
export const authUnknownKey = activeCheck({
  id: 'auth.unknownKey',
  title: 'answers 401 for a bearer token that is not a valid key',
  source: 'Authentication, "Missing or invalid API key gives 401"',
  needs: ['semantics'],
  priority: priorities.authAfterListing,
  cost: { fixed: 0, perRun: 1, withoutKey: true },
  async run(context) {
    await forAll(
      context,
      fc.tuple(fc.constantFrom(...operationNames(context)), unknownKeyHeader()),
      async ([operation, header]) => {
        const spec = request(context, operation, { header });
        expectStatus(
          await context.send(spec),
          [401],
          `${spec.method} ${spec.path} with an unknown key`,
        );
      },
    );
  },
});

/** 401 for an Authorization header that is not `Bearer <API_KEY>`. */
export const authMalformedHeader = activeCheck({
  id: 'auth.malformedHeader',
  title:
    'answers 401 when Authorization is not "Bearer <API_KEY>" (other scheme, no scheme, extra parts)',
  source: 'Authentication, scheme HTTP bearer, header "Authorization: Bearer <API_KEY>"',
  needs: ['semantics'],
  priority: priorities.authAfterGet,
  cost: { fixed: 0, perRun: 1, examples: 3, withoutKey: true },
  judges: malformedHeaderJudge,
  async run(context) {
    await forAll(
      context,
      fc.tuple(fc.constantFrom(...operationNames(context)), malformedAuthHeader()),
      async ([operation, header]) => {
        const spec = request(context, operation, { header });
        expectJudged(
          await context.send(spec),
          malformedHeaderJudge,
          `${spec.method} ${spec.path} with Authorization "${header}"`,
        );
      },
      {
        // The key without a scheme, under another scheme, and a scheme without a key, each on a
        // different operation (pairwise: a server whose routes parse the header apart shows it).
        examples: [
          ['listPets', keyPlaceholder],
          [context.writes ? 'createPet' : 'getPet', `Basic ${keyPlaceholder}`],
          ['getPet', 'Bearer'],
        ] satisfies [OperationName, string][],
      },
    );
  },
});
