/** The model-based run: random sequences of create, refused create, get and list (fc.commands). */
import fc from 'fast-check';
import { activeCheck, priorities } from './check.ts';
import { type PetCommand, petCommands, type RealSystem } from './model-commands.ts';
import { emptyModel } from './pet-model.ts';
import { forAll } from './property.ts';

/** Commands per sequence. */
const maxCommands = 6;

/**
 * Created pets round-trip and get unique ids; refused creations leave nothing. Its listings are
 * held to the page size and the status filter by those rules' judges (runner/judge-watch.ts).
 */
export const modelCreateListGet = activeCheck({
  id: 'model.createListGet',
  title:
    'in any sequence of creates, refused creates, gets and lists: created pets read back unchanged, ids are unique, a refused create leaves no pet',
  source: 'POST /pets, GET /pets, GET /pets/{petId}; Pet.id unique',
  needs: ['writes', 'semantics'],
  priority: priorities.model,
  cost: { fixed: 0, perRun: maxCommands },
  async run(context) {
    let counter = 0;
    const real: RealSystem = {
      context,
      nextName: (kind) => {
        counter += 1;
        return `${context.runPrefix}${kind === 'refused' ? 'refused' : 'm'}${counter}-`;
      },
    };
    const sequences = fc.commands<object & ReturnType<typeof emptyModel>, RealSystem, false>(
      petCommands(),
      {
        maxCommands,
      },
    );
    await forAll(context, sequences, async (commands: Iterable<PetCommand>) => {
      await fc.asyncModelRun(() => ({ model: emptyModel(), real }), commands);
    });
  },
});
