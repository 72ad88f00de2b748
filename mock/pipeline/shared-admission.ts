/**
 * A request's quota decision on a shared state, held open until the route's store call can go
 * with it (SharedQuota.decideWith), so that the decision and the store call are one round trip
 * to the engine: the quota step runs the route while the decision is open, and the first call
 * the route makes on `store` carries it. A route that answers without calling the store (a bad
 * body, a bad id) sends the decision alone. The store changes only if the decision admitted the
 * request; the route's answer is sent only then, which is the quota step's part.
 */
import type { BanPolicy } from '../base/quota/ban.ts';
import type { Limits } from '../base/quota/plans.ts';
import type { QuotaDecision } from '../base/quota/quota.ts';
import type { RouteStore, SharedQuota, SharedStore, StoreCall } from './fake-state.ts';

/** One request's open decision. */
export interface SharedAdmission {
  /** The store the route calls: its first call carries the decision. */
  readonly store: RouteStore;
  /** The decision, once the engine made it. */
  readonly decision: Promise<QuotaDecision>;
  /** Sends the decision without a store call, unless a call carried it already. */
  send(): void;
}

/** What a route's store call rejects with when the decision refused its request. */
class NotAdmittedError extends Error {
  override readonly name: string = 'NotAdmittedError';
}

/** What the decision is about: the key, its limits, the request's time and the ban policy. */
export interface AdmissionRequest {
  readonly keyId: string;
  readonly limits: Limits;
  readonly now: number;
  readonly policy: BanPolicy;
}

/**
 * Opens the decision of `request` on `quota`; a second store call of the same route goes to
 * `store` once the decision admitted it.
 */
export function openAdmission(
  quota: SharedQuota,
  store: SharedStore,
  request: AdmissionRequest,
): SharedAdmission {
  const { keyId, limits, now, policy } = request;
  const decided = Promise.withResolvers<QuotaDecision>();
  let sent = false;
  const send = (call: StoreCall | undefined) => {
    sent = true;
    const made =
      call === undefined
        ? quota
            .decide(keyId, limits, now, policy)
            .then((decision) => ({ decision, stored: undefined }))
        : quota.decideWith(keyId, limits, now, policy, call);
    made.then(({ decision }) => decided.resolve(decision), decided.reject);
    return made;
  };
  const carry = async <Answer>(call: StoreCall, alone: () => Answer | Promise<Answer>) => {
    if (sent) {
      if ((await decided.promise).verdict !== 'admitted') throw new NotAdmittedError();
      return alone();
    }
    const { decision, stored } = await send(call);
    if (decision.verdict !== 'admitted') throw new NotAdmittedError();
    return stored as Answer;
  };
  return {
    decision: decided.promise,
    send: () => {
      // Its failure reaches the quota step through `decision`.
      if (!sent) send(undefined).catch(() => {});
    },
    store: {
      create: (pet, maxPets) =>
        carry({ call: 'create', pet, maxPets }, () => store.create(pet, maxPets)),
      get: (id) => carry({ call: 'get', id }, () => store.get(id)),
      list: (limit, status, order) =>
        carry({ call: 'list', limit, status, order }, () => store.list(limit, status, order)),
    },
  };
}
