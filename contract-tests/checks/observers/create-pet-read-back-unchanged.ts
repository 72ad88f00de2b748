import { statefulObserverCheck } from '../check.ts';
import { samePet } from '../same-pet.ts';

/** Most created pets the read-back observer remembers: its memory stays bounded on a proxy. */
const rememberedPets = 10_000;

/** A created pet, read back later (by id or in a listing), is the pet the 201 returned. */
export const createPetReadBackUnchanged = statefulObserverCheck({
  id: 'createPet.readBackUnchanged',
  title: 'a created pet, whenever it is read back later (by id or in a listing), is unchanged',
  source: 'POST /pets, 201 "Animal added"; GET /pets/{petId} 200; no operation updates a pet',
  needs: ['writes', 'semantics'],
  start: () => {
    const created = new Map<bigint, unknown>();
    let compared = 0;
    const compare = (row: unknown): string | undefined => {
      const id = (row as { id?: unknown } | null)?.id;
      if (typeof id !== 'bigint' || !created.has(id)) return undefined;
      compared += 1;
      const difference = samePet(created.get(id), row);
      return difference === undefined
        ? undefined
        : `pet ${id} read back changed since its creation: ${difference}`;
    };
    return {
      observe(exchange) {
        const response = exchange.response;
        if (response === undefined) return undefined;
        if (exchange.spec.operationId === 'createPet' && response.status === 201) {
          const id = (response.exact as { id?: unknown } | null)?.id;
          if (typeof id !== 'bigint') return undefined;
          // Oldest first out: a proxy sees creates without end.
          if (created.size >= rememberedPets) created.delete(created.keys().next().value as bigint);
          created.set(id, response.exact);
          return undefined;
        }
        if (response.status !== 200) return undefined;
        if (exchange.spec.operationId === 'getPet') return compare(response.exact);
        if (exchange.spec.operationId === 'listPets' && Array.isArray(response.exact))
          for (const row of response.exact) {
            const problem = compare(row);
            if (problem !== undefined) return problem;
          }
        return undefined;
      },
      judged: () => compared,
    };
  },
  whenUnseen: () => ({
    reason: 'no created pet was read back',
    expected: (run) => run.writes && run.narrowed !== true,
  }),
});
