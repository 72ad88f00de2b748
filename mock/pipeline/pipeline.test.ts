import { expect, test } from 'vitest';
import { errorAnswer, jsonAnswer } from '../base/messages/answer.ts';
import { type Context, createContext, createSlot, runPipeline, type Step } from './pipeline.ts';

function context(): Context {
  return createContext(
    {
      method: 'GET',
      url: 'http://127.0.0.1:4010/v1/pets',
      header: () => null,
      headerList: () => [],
      body: async () => new Uint8Array(),
    },
    new URL('http://127.0.0.1:4010/v1/pets'),
    0,
  );
}

/** An around-step that writes to `seen` when the request passes in and when its answer comes out. */
const around =
  (seen: string[], name: string): Step =>
  async (_context, next) => {
    seen.push(`${name} in`);
    const answer = await next();
    seen.push(`${name} out ${answer.status}`);
    return answer;
  };

test('steps run in order in front of the handler, and each sees what came back', async () => {
  const seen: string[] = [];
  const answer = await runPipeline(
    [around(seen, 'a'), around(seen, 'b')],
    () => jsonAnswer(200, []),
    context(),
  );
  expect(answer.status).toBe(200);
  expect(seen).toEqual(['a in', 'b in', 'b out 200', 'a out 200']);
});

test('a step that answers stops the pipeline: later steps and the handler never run', async () => {
  let ran = false;
  const refuse: Step = () => errorAnswer('unauthorized');
  const later: Step = (_context, next) => {
    ran = true;
    return next();
  };
  const answer = await runPipeline(
    [refuse, later],
    () => {
      ran = true;
      return jsonAnswer(200, []);
    },
    context(),
  );
  expect(answer.errorCode).toBe('unauthorized');
  expect(ran).toBe(false);
});

test('a slot carries what one step learned to the later ones, and reading an empty one is a wiring error', async () => {
  const caller = createSlot<string>('the caller');
  const sets: Step = (ctx, next) => {
    ctx.set(caller, 'key-1');
    return next();
  };
  const answer = await runPipeline(
    [sets],
    (ctx) => jsonAnswer(200, { caller: ctx.need(caller) }),
    context(),
  );
  expect(answer.body).toBe('{"caller":"key-1"}');
  await expect(
    runPipeline([], (ctx) => jsonAnswer(200, ctx.need(caller)), context()),
  ).rejects.toThrow('a step reads "the caller" before the step that sets it');
});

test('after-steps see the answer innermost first, between around-steps, and may replace it or wait', async () => {
  const seen: string[] = [];
  const after = (name: string): Step => ({
    after: (_context, answer) => {
      seen.push(`${name} ${answer.status}`);
      return answer;
    },
  });
  const replaces: Step = { after: async () => jsonAnswer(202, []) };
  const answer = await runPipeline(
    [after('a'), around(seen, 'b'), after('c'), replaces, after('d')],
    () => jsonAnswer(200, []),
    context(),
  );
  expect(answer.status).toBe(202);
  expect(seen).toEqual(['b in', 'd 200', 'c 202', 'b out 202', 'a 202']);
});

test('a failure passes after-steps by, as it passes an awaiting step by', async () => {
  const seen: string[] = [];
  const after: Step = {
    after: (_context, answer) => {
      seen.push('after');
      return answer;
    },
  };
  const throws: Step = {
    after: () => {
      throw new Error('recorder bug');
    },
  };
  await expect(runPipeline([after, throws], () => jsonAnswer(200, []), context())).rejects.toThrow(
    'recorder bug',
  );
  await expect(
    runPipeline(
      [after],
      () => {
        throw new Error('handler bug');
      },
      context(),
    ),
  ).rejects.toThrow('handler bug');
  expect(seen).toEqual([]);
});

test('a step that calls next() after waiting still runs the step after it, with after-steps between', async () => {
  const seen: string[] = [];
  const waiting: Step = async (_context, next) => {
    seen.push('waits');
    await new Promise((resolve) => setTimeout(resolve, 5));
    return next();
  };
  const after: Step = {
    after: (_context, answer) => {
      seen.push(`after ${answer.status}`);
      return answer;
    },
  };
  const answer = await runPipeline(
    [around(seen, 'a'), waiting, around(seen, 'b'), after, around(seen, 'c')],
    () => jsonAnswer(201, {}),
    context(),
  );
  expect(answer.status).toBe(201);
  expect(seen).toEqual([
    'a in',
    'waits',
    'b in',
    'c in',
    'c out 201',
    'after 201',
    'b out 201',
    'a out 201',
  ]);
});

test('a step that calls next() twice fails the request, as hono compose refuses it, and the rest runs once', async () => {
  let handled = 0;
  const twice: Step = async (_context, next) => {
    await next();
    return next();
  };
  const refused = runPipeline(
    [twice, { after: (_context, answer) => answer }],
    () => {
      handled += 1;
      return jsonAnswer(200, []);
    },
    context(),
  );
  await expect(refused).rejects.toThrow('petstore-fake: a step called next() more than once');
  expect(handled).toBe(1);
  // An outer step that calls next() again after an inner one answered is refused too.
  const refuse: Step = () => errorAnswer('unauthorized');
  const again: Step = async (_context, next) => {
    await next();
    return next();
  };
  await expect(runPipeline([again, refuse], () => jsonAnswer(200, []), context())).rejects.toThrow(
    'more than once',
  );
});
