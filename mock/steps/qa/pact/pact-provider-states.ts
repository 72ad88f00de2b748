/**
 * The provider states a recorded Pact interaction names ("a key on the free plan", "the key is
 * banned", "pet 42 exists", "no pets"...), each what the store, the clock or the usage ledger held
 * when the request arrived, and how the fake puts itself in one when a Pact verifier POSTs
 * `{ state, params, action }`. A state's request is checked whole before anything changes: a plan
 * of the plan table's own names (never `__proto__`), an id the store can hold, every parameter the
 * name implies present and equal to it. A state that cannot be made is a 400, never a guess (a
 * "no pets with status sold" without its status would empty the store).
 */
import type { ControllableClock } from '../../../base/clock/clock.ts';
import { isJsonObject } from '../../../base/contract/lossless-json.ts';
import { petStatuses } from '../../../base/contract/schemas.ts';
import type { Pet, PetStatus } from '../../../base/contract/types.ts';
import { type KeyEntry, type Limits, limitsFor } from '../../../base/quota/plans.ts';
import type { QuotaLedger } from '../../../base/quota/quota.ts';
import { emptyUsage, type KeyUsage } from '../../../base/quota/rate-limit.ts';
import { ControlInputError } from '../../../pipeline/control-input-error.ts';
import type { PetStore, SharedStore } from '../../../pipeline/fake-state.ts';
import { maxPetId } from '../../../pipeline/persistence.ts';
import { validateNewPet } from '../../routes/create-pet.ts';

/** A Pact provider state: its name and the values it was recorded with. */
export interface ProviderState {
  readonly name: string;
  readonly params?: Readonly<Record<string, unknown>>;
}

/** What a Pact verifier sends to set a state up (or tear it down). */
export interface ProviderStateRequest {
  readonly state: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly action?: 'setup' | 'teardown';
}

/** What setting states up changes: the store, the keys, their usage and the clock it reads. */
export interface ProviderStateParts {
  readonly store: PetStore | SharedStore;
  readonly keys: KeyEntry[];
  readonly plans: Readonly<Record<string, Limits>>;
  readonly quota: QuotaLedger;
  readonly clock: ControllableClock;
  /** The longest pet name a create takes: a state's pet meets the rules a create meets. */
  readonly config: { readonly maxNameLength: number };
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How long "the key is banned" bans for: long past any verification run. */
const BAN_MS = 3_600_000;

/**
 * A state of the caller's key on `plan`: the key itself ("a key on the free plan", whose setup
 * answers the key to send), its minute and day windows spent (its requests get 429), or its ban
 * for ignoring Retry-After.
 */
export const keyState = (name: string, plan: string): ProviderState => ({ name, params: { plan } });

/** The state of a pet that exists, with the fields it was answered with. */
export const petExistsState = (pet: Readonly<Record<string, unknown>>): ProviderState => ({
  name: `pet ${String(pet.id)} exists`,
  params: { ...pet },
});

/** The state of a pet id the store does not hold. */
export const petMissingState = (id: number): ProviderState => ({
  name: `pet ${id} does not exist`,
  params: { id },
});

/** The state of a list that came back empty (or non-empty), with the status it was filtered by. */
export const listState = (empty: boolean, status: string | undefined): ProviderState =>
  status === undefined
    ? { name: empty ? 'no pets' : 'pets exist' }
    : {
        name: empty ? `no pets with status ${status}` : `a pet with status ${status} exists`,
        params: { status },
      };

/** The key the verifier's requests use for `plan`: one the fake adds for Pact, never a seeded one. */
function pactKey(parts: ProviderStateParts, plan: string): KeyEntry {
  const id = `pact-${plan}`.slice(0, 64).replace(/[^A-Za-z0-9._-]/g, '-');
  let key = parts.keys.find((entry) => entry.id === id);
  if (key === undefined) {
    key = { id, key: `pact-${crypto.randomUUID()}`, plan };
    parts.keys.push(key);
  }
  return key;
}

type Params = Readonly<Record<string, unknown>>;

/**
 * The plan a key state names, in its name (`a key on the pro plan`) or `params.plan`: one of the
 * plan table's own names. When both say one, they must agree.
 */
function planOf(parts: ProviderStateParts, named: string | undefined, params: Params): string {
  const plans = Object.keys(parts.plans).join(', ');
  const given = params.plan;
  if (given !== undefined && typeof given !== 'string')
    throw new ControlInputError(`params.plan must be one of ${plans}; got ${typeof given}`);
  if (named !== undefined && given !== undefined && named !== given)
    throw new ControlInputError(
      `params.plan ${JSON.stringify(given.slice(0, 60))} does not match the state's plan ${JSON.stringify(named.slice(0, 60))}`,
    );
  const plan = named ?? given;
  if (plan === undefined)
    throw new ControlInputError(`params.plan is required for this state: one of ${plans}`);
  // Own names only: `__proto__`, `constructor` and `toString` are no plan of the table.
  if (!Object.hasOwn(parts.plans, plan))
    throw new ControlInputError(
      `params.plan must be one of ${plans}; got ${JSON.stringify(plan.slice(0, 60))}`,
    );
  return plan;
}

/** Refuses params whose `field` is not `value`, which the state's name says (as `shown`). */
function repeats(params: Params, field: string, value: unknown, shown: string): void {
  if (params[field] === undefined)
    throw new ControlInputError(
      `params.${field} is required for this state: ${shown}, as its name says`,
    );
  if (params[field] !== value)
    throw new ControlInputError(
      `params.${field} must be ${shown}, as the state's name says; got ${JSON.stringify(params[field])?.slice(0, 40)}`,
    );
}

/** The pet id a pet state names (`pet 42 exists`), which `params.id` must repeat, in range. */
function idOf(named: string, params: Params): number {
  const id = Number(named);
  if (!/^\d{1,16}$/.test(named) || !Number.isSafeInteger(id) || id < 1 || id > maxPetId)
    throw new ControlInputError(
      `the state's pet id must be an integer from 1 to ${maxPetId} (2^53 - 1); got ${named.slice(0, 40)}`,
    );
  repeats(params, 'id', id, String(id));
  return id;
}

/**
 * The status a list state names (`no pets with status sold`), which `params.status` must repeat;
 * undefined for a state that names none, which then takes no status.
 */
function statusOf(named: string | undefined, params: Params): PetStatus | undefined {
  const { status } = params;
  if (named === undefined) {
    if (status !== undefined)
      throw new ControlInputError(
        "params.status is not taken by this state; name the status in the state (e.g. 'no pets with status sold')",
      );
    return undefined;
  }
  if (!(petStatuses as readonly string[]).includes(named))
    throw new ControlInputError(
      `the state's status must be one of ${petStatuses.join(', ')}; got ${JSON.stringify(named.slice(0, 40))}`,
    );
  repeats(params, 'status', named, JSON.stringify(named));
  return named as PetStatus;
}

/**
 * Replaces the store's pets with those `change` returns, keeping ids and the id counter. A pet
 * the store cannot hold (not a valid Pet) is a 400 and changes nothing.
 */
async function editPets(
  store: PetStore | SharedStore,
  change: (pets: Pet[]) => Pet[],
): Promise<void> {
  const snapshot = await store.snapshot();
  const pets = change([...snapshot.pets]);
  const largest = pets.reduce((max, pet) => Math.max(max, Number(pet.id)), 0);
  // Past 2^53 - 1 no id is exact: a pet at the last id leaves the store full (507 on create).
  const nextId = Math.min(Math.max(snapshot.nextId, largest + 1), maxPetId);
  try {
    await store.restore({ pets, nextId });
  } catch (error) {
    if (error instanceof RangeError)
      throw new ControlInputError(`the state's pet cannot be stored: ${error.message}`);
    throw error;
  }
}

/** A state's setup, given what its name's pattern captured and the request's params. */
type Setup = (
  parts: ProviderStateParts,
  params: Params,
  named: readonly (string | undefined)[],
) => Promise<Record<string, unknown>>;

/** A key state's setup: the verifier's key for the plan, with the usage `usageOf` gives it. */
const keySetup =
  (usageOf: (parts: ProviderStateParts, key: KeyEntry) => KeyUsage): Setup =>
  async (parts, params, [plan]) => {
    const key = pactKey(parts, planOf(parts, plan, params));
    await parts.quota.write(key.id, usageOf(parts, key));
    return { apiKey: key.key, keyId: key.id };
  };

/** Each state's setup, by the pattern of its name; the answer is what the verifier may inject. */
const setups: readonly (readonly [RegExp, Setup])[] = [
  // A fresh window for every interaction: a verification run is many requests on one key.
  [/^a key on the (.+) plan$/, keySetup(emptyUsage)],
  [
    /^the key's window is spent$/,
    keySetup((parts, key) => {
      const limits = limitsFor(parts.plans, key);
      const now = parts.clock.now();
      return {
        ...emptyUsage(),
        minute: { start: Math.floor(now / MINUTE_MS) * MINUTE_MS, count: limits.perMinute },
        // The day window too: the minute one could roll over between setup and request.
        day: { start: Math.floor(now / DAY_MS) * DAY_MS, count: limits.perDay },
      };
    }),
  ],
  [
    /^the key is banned$/,
    keySetup((parts) => ({ ...emptyUsage(), bannedUntil: parts.clock.now() + BAN_MS })),
  ],
  [
    /^pet (\d+) exists$/,
    async ({ store, config }, params, [named = '']) => {
      const id = idOf(named, params);
      const { status = 'available' } = params;
      if (!(petStatuses as readonly unknown[]).includes(status))
        throw new ControlInputError(`params.status must be one of ${petStatuses.join(', ')}`);
      const { id: _named, ...fields } = params;
      // A state that names no field gets a pet of its own; one that names any states a pet, which
      // must meet the rules a create meets (a blank name, a missing categoryId: a 400 naming the
      // field, nothing stored), as a create's body would.
      const given = Object.keys(fields).some((field) => field !== 'status')
        ? fields
        : { name: 'Rex', categoryId: 1, ...fields };
      const checked = validateNewPet(given, config.maxNameLength, 'refuse');
      if ('error' in checked)
        throw new ControlInputError(`params must be a pet a create would store: ${checked.error}`);
      const pet = { ...checked.pet, id, status } as Pet;
      await editPets(store, (pets) => [...pets.filter((each) => Number(each.id) !== id), pet]);
      return { petId: id };
    },
  ],
  [
    /^pet (\d+) does not exist$/,
    async ({ store }, params, [named = '']) => {
      const id = idOf(named, params);
      await editPets(store, (pets) => pets.filter((each) => Number(each.id) !== id));
      return { petId: id };
    },
  ],
  [
    /^no pets(?: with status (\w+))?$/,
    async ({ store }, params, [named]) => {
      const status = statusOf(named, params);
      await editPets(store, (pets) =>
        status === undefined ? [] : pets.filter((pet) => pet.status !== status),
      );
      return {};
    },
  ],
  [
    /^(?:pets exist|a pet with status (\w+) exists)$/,
    async ({ store }, params, [named]) => {
      const status = statusOf(named, params);
      if ((await store.list(1, status)).length === 0)
        await store.create({ name: 'Rex', categoryId: 1, status: status ?? 'available' });
      return {};
    },
  ],
];

/** The state names the fake can set up, for the error that names an unknown one. */
const knownStates =
  "a key on the <plan> plan, the key's window is spent, the key is banned, pet <id> exists, pet <id> does not exist, no pets [with status <status>], pets exist, a pet with status <status> exists";

/**
 * Sets a provider state up (or tears it down: nothing to undo, as every setup states the whole
 * of what it needs). Answers the values a verifier may inject into the request (`apiKey`).
 */
export async function applyProviderState(
  parts: ProviderStateParts,
  request: ProviderStateRequest,
): Promise<Record<string, unknown>> {
  const { state = '', params = {}, action = 'setup' } = request;
  if (typeof state !== 'string') throw new ControlInputError('state must be a string');
  if (action !== 'setup' && action !== 'teardown')
    throw new ControlInputError('action must be "setup" or "teardown"');
  if (!isJsonObject(params)) throw new ControlInputError('params must be a JSON object');
  // A verifier calls with no state for an interaction that names none: nothing to set up.
  if (state === '') return {};
  for (const [pattern, setup] of setups) {
    const match = pattern.exec(state);
    if (match === null) continue;
    if (action === 'teardown') return {};
    return setup(parts, params, match.slice(1));
  }
  throw new ControlInputError(
    `unknown provider state ${JSON.stringify(state.slice(0, 100))}; known: ${knownStates}`,
  );
}
