/**
 * How much memory the store really keeps per pet. Resident memory (what the scale section
 * reports for the HTTP fake) is mostly V8's heap high-water mark: garbage not yet collected and
 * pages not yet returned. This creates pets in process through `fake.fetch`, forces a full GC
 * before and after, and divides the heap that stays by the pets created; then does the same
 * with a bare @msw/data collection of the same schema, for comparison: the record a store that
 * kept its pets in one would pay (mock/store/pet-store.ts says why it keeps none).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Collection } from '@msw/data';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { checkPet } from '../mock/base/contract/schemas.ts';
import type { Pet } from '../mock/base/contract/types.ts';
import { createFake } from '../mock/core/fake.ts';
import { benchHeaders, createRequest } from './requests.ts';

/** Pet as a Standard Schema, as an @msw/data collection of pets takes it. */
const petStandardSchema: StandardSchemaV1<Pet, Pet> = {
  '~standard': {
    version: 1,
    vendor: 'petstore-openapi',
    validate(value) {
      const issues = checkPet(value);
      if (issues.length === 0) return { value: value as Pet };
      return {
        issues: issues.map(({ path, message }) => ({ message, path: path.split('/').slice(1) })),
      };
    },
  },
};

const warmup = 2_000;

/** Heap kept after a full GC, per created pet. */
export interface RetainedHeap {
  readonly pets: number;
  readonly bytesPerPet: number;
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
  /**
   * The same pets in a bare @msw/data collection (no indexes, no fake), bytes per pet: what a
   * store keeping a collection's record of each pet would pay.
   */
  readonly mswDataBytesPerPet: number;
}

function fullGc(): () => void {
  // The documented way to reach gc() without starting Node with --expose-gc.
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * The heap in use once full GCs stop freeing anything. One GC is not always enough after the
 * bench's other sections in this process (weakly held caches go at a later collection), and the
 * difference would then miss most of the real figure.
 */
function settledHeap(gc: () => void): number {
  let used = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    gc();
    const now = process.memoryUsage().heapUsed;
    if (used - now < 64 * 1024) return now;
    used = now;
  }
  return used;
}

/** Creates `pets` pets with `POST /v1/pets` through `getResponse` and measures the heap they keep. */
export async function measureRetainedHeap(pets: number): Promise<RetainedHeap> {
  const gc = fullGc();
  const fake = await createFake({
    seed: 'empty',
    enterpriseLimits: { perMinute: 1e9, perDay: 1e12 },
  });
  const url = `${fake.config.origins[0]}/v1${createRequest.path}`;
  const create = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const request = new Request(url, {
        method: 'POST',
        headers: benchHeaders,
        body: createRequest.body,
      });
      const response = await fake.fetch(request);
      if (response?.status !== 201)
        throw new Error(`bench: in-process create answered ${response?.status}, expected 201`);
    }
  };
  // A first batch pays for compiled code and caches, which are not per pet.
  await create(warmup);
  const heapBeforeBytes = settledHeap(gc);
  await create(pets);
  const heapAfterBytes = settledHeap(gc);
  // Keep the fake reachable until after the measurement.
  if (fake.control.snapshot().pets.length !== warmup + pets)
    throw new Error('bench: pets went missing');
  const sample = fake.control.snapshot().pets.slice(0, 1)[0];
  return {
    pets,
    bytesPerPet: (heapAfterBytes - heapBeforeBytes) / pets,
    heapBeforeBytes,
    heapAfterBytes,
    mswDataBytesPerPet: await mswDataBytesPerPet(pets, gc, sample),
  };
}

/** Heap kept per pet by a bare @msw/data collection holding `pets` pets like `sample`. */
async function mswDataBytesPerPet(
  pets: number,
  gc: () => void,
  sample: { name: string; categoryId: number | bigint; status?: string } | undefined,
): Promise<number> {
  const collection = new Collection({ schema: petStandardSchema });
  const base = sample ?? { name: 'bench pet', categoryId: 1, status: 'sold' };
  const fill = async (from: number, count: number) => {
    for (let id = from; id < from + count; id++)
      await collection.create({ ...base, id, status: base.status ?? 'sold' } as never);
  };
  await fill(1, warmup);
  const before = settledHeap(gc);
  await fill(warmup + 1, pets);
  const after = settledHeap(gc);
  if (collection.count() !== warmup + pets) throw new Error('bench: @msw/data lost pets');
  return (after - before) / pets;
}
