/**
 * The provider states a recorded Pact interaction names, and how the fake puts itself in each
 * one when a Pact verifier asks (`{ state, params, action }`, as the verifier POSTs it to its
 * provider-states URL). A state names what the store, the clock and the usage ledger held when
 * the consumer's request arrived: "a key on the free plan", "the key's window is spent", "the key
 * is banned", "pet 42 exists", "pet 7 does not exist", "no pets", "pets exist".
 */
import type { ControllableClock } from '../clock/clock.ts';
import { isJsonObject } from '../contract/lossless-json.ts';
import { petStatuses } from '../contract/schemas.ts';
import type { Pet, PetStatus } from '../contract/types.ts';
import { ControlInputError } from '../control/control-input-error.ts';
import { type KeyEntry, type Limits, limitsFor } from '../policies/plans.ts';
import { emptyUsage, type KeyUsage } from '../policies/rate-limit.ts';
import type { PetStore } from '../store/pet-store.ts';

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
  readonly store: PetStore;
  readonly keys: KeyEntry[];
  readonly plans: Readonly<Record<string, Limits>>;
  readonly usage: Map<string, KeyUsage>;
  readonly clock: ControllableClock;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How long "the key is banned" bans for: long past any verification run. */
const BAN_MS = 3_600_000;

/** The state of a request sent with a known key of `plan` (its setup answers the key to send). */
export const keyState = (plan: string): ProviderState => ({
  name: `a key on the ${plan} plan`,
  params: { plan },
});

/** The state of a key whose minute and day windows are spent (its requests get 429). */
export const spentState = (plan: string): ProviderState => ({
  name: "the key's window is spent",
  params: { plan },
});

/** The state of a key banned for ignoring Retry-After. */
export const bannedState = (plan: string): ProviderState => ({
  name: 'the key is banned',
  params: { plan },
});

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
export const listState = (empty: boolean, status: string | undefined): ProviderState => {
  const name = empty
    ? status === undefined
      ? 'no pets'
      : `no pets with status ${status}`
    : status === undefined
      ? 'pets exist'
      : `a pet with status ${status} exists`;
  return status === undefined ? { name } : { name, params: { status } };
};

/** The key the verifier's requests use for `plan`: one the fake adds for Pact, never a seeded one. */
function pactKey(parts: ProviderStateParts, plan: string): KeyEntry {
  if (parts.plans[plan] === undefined)
    throw new ControlInputError(
      `params.plan must be one of ${Object.keys(parts.plans).join(', ')}; got ${JSON.stringify(plan).slice(0, 60)}`,
    );
  const id = `pact-${plan}`.slice(0, 64).replace(/[^A-Za-z0-9._-]/g, '-');
  let key = parts.keys.find((entry) => entry.id === id);
  if (key === undefined) {
    key = { id, key: `pact-${crypto.randomUUID()}`, plan };
    parts.keys.push(key);
  }
  return key;
}

const planOf = (params: Readonly<Record<string, unknown>>) =>
  typeof params.plan === 'string' ? params.plan : 'free';

function idOf(params: Readonly<Record<string, unknown>>): number {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id < 1)
    throw new ControlInputError('params.id must be a positive integer');
  return id;
}

function statusOf(params: Readonly<Record<string, unknown>>): PetStatus | undefined {
  const { status } = params;
  if (status === undefined) return undefined;
  if (!(petStatuses as readonly unknown[]).includes(status))
    throw new ControlInputError(`params.status must be one of ${petStatuses.join(', ')}`);
  return status as PetStatus;
}

/** Replaces the store's pets with those `change` returns, keeping ids and the id counter. */
async function editPets(store: PetStore, change: (pets: Pet[]) => Pet[]): Promise<void> {
  const snapshot = store.snapshot();
  const pets = change([...snapshot.pets]);
  const largest = pets.reduce((max, pet) => Math.max(max, Number(pet.id)), 0);
  await store.restore({ pets, nextId: Math.max(snapshot.nextId, largest + 1) });
}

type Setup = (
  parts: ProviderStateParts,
  params: Readonly<Record<string, unknown>>,
) => Promise<Record<string, unknown>>;

/** Each state's setup, by the pattern of its name; the answer is what the verifier may inject. */
const setups: readonly (readonly [RegExp, Setup])[] = [
  [
    /^a key on the .+ plan$/,
    async (parts, params) => {
      const key = pactKey(parts, planOf(params));
      // A fresh window for every interaction: a verification run is many requests on one key.
      parts.usage.set(key.id, emptyUsage());
      return { apiKey: key.key, keyId: key.id };
    },
  ],
  [
    /^the key's window is spent$/,
    async (parts, params) => {
      const key = pactKey(parts, planOf(params));
      const limits = limitsFor(parts.plans, key);
      const now = parts.clock.now();
      const usage = emptyUsage();
      usage.minute = { start: Math.floor(now / MINUTE_MS) * MINUTE_MS, count: limits.perMinute };
      // The day window too: the minute one could roll over between setup and request.
      usage.day = { start: Math.floor(now / DAY_MS) * DAY_MS, count: limits.perDay };
      parts.usage.set(key.id, usage);
      return { apiKey: key.key, keyId: key.id };
    },
  ],
  [
    /^the key is banned$/,
    async (parts, params) => {
      const key = pactKey(parts, planOf(params));
      const usage = emptyUsage();
      usage.bannedUntil = parts.clock.now() + BAN_MS;
      parts.usage.set(key.id, usage);
      return { apiKey: key.key, keyId: key.id };
    },
  ],
  [
    /^pet \d+ exists$/,
    async ({ store }, params) => {
      const id = idOf(params);
      const status = statusOf(params) ?? 'available';
      const pet = {
        ...params,
        id,
        name: typeof params.name === 'string' ? params.name : 'Rex',
        categoryId: Number.isSafeInteger(params.categoryId) ? params.categoryId : 1,
        status,
      } as Pet;
      await editPets(store, (pets) => [...pets.filter((each) => Number(each.id) !== id), pet]);
      return { petId: id };
    },
  ],
  [
    /^pet \d+ does not exist$/,
    async ({ store }, params) => {
      const id = idOf(params);
      await editPets(store, (pets) => pets.filter((each) => Number(each.id) !== id));
      return { petId: id };
    },
  ],
  [
    /^no pets( with status \w+)?$/,
    async ({ store }, params) => {
      const status = statusOf(params);
      await editPets(store, (pets) =>
        status === undefined ? [] : pets.filter((pet) => pet.status !== status),
      );
      return {};
    },
  ],
  [
    /^(pets exist|a pet with status \w+ exists)$/,
    async ({ store }, params) => {
      const status = statusOf(params);
      if (store.list(1, status).length === 0)
        store.create({ name: 'Rex', categoryId: 1, status: status ?? 'available' });
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
  const setup = setups.find(([pattern]) => pattern.test(state))?.[1];
  if (setup === undefined)
    throw new ControlInputError(
      `unknown provider state ${JSON.stringify(state.slice(0, 100))}; known: ${knownStates}`,
    );
  if (action === 'teardown') return {};
  return setup(parts, params);
}
