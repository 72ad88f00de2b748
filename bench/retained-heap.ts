/**
 * How much memory the store really keeps per pet. Resident memory (what the scale section
 * reports for the HTTP fake) is mostly V8's heap high-water mark: garbage not yet collected and
 * pages not yet returned. This creates pets in process through the fake's own handlers, forces a
 * full GC before and after, and divides the heap that stays by the pets created.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getResponse } from 'msw';
import { createFake } from '../mock/fake.ts';
import { benchHeaders, createRequest } from './requests.ts';

const warmup = 2_000;

/** Heap kept after a full GC, per created pet. */
export interface RetainedHeap {
  readonly pets: number;
  readonly bytesPerPet: number;
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
}

function fullGc(): () => void {
  // The documented way to reach gc() without starting Node with --expose-gc.
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
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
      const response = await getResponse(fake.handlers, request);
      if (response?.status !== 201)
        throw new Error(`bench: in-process create answered ${response?.status}, expected 201`);
    }
  };
  // A first batch pays for compiled code and caches, which are not per pet.
  await create(warmup);
  gc();
  const heapBeforeBytes = process.memoryUsage().heapUsed;
  await create(pets);
  gc();
  const heapAfterBytes = process.memoryUsage().heapUsed;
  // Keep the fake reachable until after the measurement.
  if (fake.control.snapshot().pets.length !== warmup + pets)
    throw new Error('bench: pets went missing');
  return {
    pets,
    bytesPerPet: (heapAfterBytes - heapBeforeBytes) / pets,
    heapBeforeBytes,
    heapAfterBytes,
  };
}
