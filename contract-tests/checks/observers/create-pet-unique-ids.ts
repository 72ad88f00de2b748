import { statefulObserverCheck } from '../check.ts';

/** Most ids the unique-id observer remembers. */
const rememberedIds = 200_000;

/** Created ids are new. */
export const createPetUniqueIds = statefulObserverCheck({
  id: 'createPet.uniqueIds',
  title: 'every created pet gets an id no other pet seen in the run has',
  source: 'Pet.id, "Unique identifier assigned by the service on creation"',
  needs: ['writes', 'semantics'],
  start: () => {
    const seen = new Set<bigint>();
    let created = 0;
    const remember = (value: unknown) => {
      const id = (value as { id?: unknown } | null)?.id;
      if (typeof id !== 'bigint') return;
      // Bounded on a proxy that runs for days: the oldest ids are forgotten first.
      if (seen.size >= rememberedIds) seen.delete(seen.values().next().value as bigint);
      seen.add(id);
    };
    return {
      observe(exchange) {
        const response = exchange.response;
        if (response === undefined || response.status >= 300) return undefined;
        if (exchange.spec.operationId !== 'createPet' || response.status !== 201) {
          if (Array.isArray(response.exact)) for (const pet of response.exact) remember(pet);
          else if (exchange.spec.operationId === 'getPet') remember(response.exact);
          return undefined;
        }
        created += 1;
        const id = (response.exact as { id?: unknown } | null)?.id;
        if (typeof id !== 'bigint') return undefined;
        if (seen.has(id)) return `POST /pets assigned id ${id}, which another pet already has`;
        remember(response.exact);
        return undefined;
      },
      judged: () => created,
    };
  },
  whenUnseen: () => ({
    reason: 'no pet was created',
    expected: (run) => run.writes && run.narrowed !== true,
  }),
});
