/**
 * Writes fixtures/pets.json: 180 seed pets across every status and six categories, from a fixed
 * seed so the file only changes when this script does. Run with `npm run generate`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const names = [
  'Rex',
  'Bella',
  'Milo',
  'Luna',
  'Charlie',
  'Zoë',
  'Max',
  'Daisy',
  'Oscar',
  'Nala',
  'Kiki',
  'Björn',
  'Pepper',
  'Simba',
  'Coco',
  'Hachi 八',
  'Toby',
  'Lola',
  'Ziggy',
  'Fenrir',
];
const kinds = ['the dog', 'the cat', 'the rabbit', 'the parrot', 'the hamster', 'the tortoise'];
const statuses = ['available', 'pending', 'sold'] as const;

/** mulberry32: a tiny seeded PRNG, so the fixture is reproducible. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(20261122);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
const pets = Array.from({ length: 180 }, (_, index) => {
  const categoryId = 1 + Math.floor(next() * kinds.length);
  return {
    id: index + 1,
    name: `${pick(names)} ${kinds[categoryId - 1]}`,
    categoryId,
    status: index < statuses.length ? statuses[index] : pick(statuses),
  };
});
const path = fileURLToPath(new URL('../fixtures/pets.json', import.meta.url));
writeFileSync(path, `${JSON.stringify(pets, null, 1)}\n`);
console.log(`generate-fixtures: wrote ${pets.length} pets to ${path}`);
