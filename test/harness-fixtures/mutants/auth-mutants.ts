/** Single-fault variants of the fake for authentication. */
import { after, withAuth } from './fault-helpers.ts';
import { intercept, withJson } from './intercept.ts';
import { type Mutant, mutant } from './mutant.ts';

/** Mutants of authentication. */
export const authMutants: readonly Mutant[] = [
  mutant({
    name: 'missing-key-accepted',
    fault: 'a request without Authorization is served as if it had a valid key',
    expect: 'auth.missingKey',
    wrap: (fake) =>
      intercept(fake, (call) =>
        call.request.headers.has('Authorization')
          ? call.forward()
          : call.forward(withAuth(call, 'Bearer enterprise-demo-key')),
      ),
  }),
  mutant({
    name: 'unknown-key-accepted',
    fault: 'a well-formed but unknown bearer token is accepted',
    expect: 'auth.unknownKey',
    wrap: (fake) =>
      intercept(fake, async (call) => {
        const response = await call.forward();
        const header = call.request.headers.get('Authorization') ?? '';
        return response.status === 401 && /^Bearer [\w.~+/-]+=*$/.test(header)
          ? call.forward(withAuth(call, 'Bearer enterprise-demo-key'))
          : response;
      }),
  }),
  mutant({
    name: 'basic-scheme-accepted',
    fault: 'a key sent as "Basic <key>" or without a scheme is accepted',
    expect: 'auth.malformedHeader',
    wrap: (fake) =>
      intercept(fake, (call) => {
        const header = call.request.headers.get('Authorization');
        const token = header?.replace(/^(Basic|Token) /, '');
        return token !== undefined && token !== header && !token.includes(' ')
          ? call.forward(withAuth(call, `Bearer ${token}`))
          : header !== null && /^[\w.~+/-]+$/.test(header)
            ? call.forward(withAuth(call, `Bearer ${header}`))
            : call.forward();
      }),
  }),
  mutant({
    name: 'unauthorised-403',
    fault: 'a request without a key gets 403 instead of 401',
    expect: 'auth.missingKey',
    wrap: after(async (response) =>
      response.status === 401
        ? withJson(response, (body) => ({ ...(body as object), status: 403 }), 403)
        : response,
    ),
  }),
];
