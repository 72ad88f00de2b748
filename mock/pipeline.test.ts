import { expect, test } from 'vitest';
import { type Answer, errorAnswer, jsonAnswer } from './core/answer.ts';
import type { FakeState } from './core/fake-state.ts';
import { type Exchange, runPipeline, type Step } from './pipeline.ts';

function exchange(operation: () => Answer): Exchange {
  return {
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:4010/v1/pets',
      header: () => null,
      headerList: () => [],
      body: async () => new Uint8Array(),
    },
    url: new URL('http://127.0.0.1:4010/v1/pets'),
    params: {},
    route: { operation },
    state: {} as FakeState,
    now: 0,
    caller: undefined,
    keyId: '-',
    rateLimit: undefined,
    refusedUntil: undefined,
  };
}

test('steps run in order in front of the operation, and each sees what came back', async () => {
  const seen: string[] = [];
  const step =
    (name: string): Step =>
    async (_exchange, next) => {
      seen.push(`${name} in`);
      const answer = await next();
      seen.push(`${name} out ${answer.status}`);
      return answer;
    };
  const answer = await runPipeline(
    [step('a'), step('b')],
    exchange(() => jsonAnswer(200, [])),
  );
  expect(answer.status).toBe(200);
  expect(seen).toEqual(['a in', 'b in', 'b out 200', 'a out 200']);
});

test('a step that answers stops the pipeline: later steps and the operation never run', async () => {
  let ran = false;
  const refuse: Step = () => errorAnswer('unauthorized');
  const later: Step = (_exchange, next) => {
    ran = true;
    return next();
  };
  const answer = await runPipeline(
    [refuse, later],
    exchange(() => {
      ran = true;
      return jsonAnswer(200, []);
    }),
  );
  expect(answer.errorCode).toBe('unauthorized');
  expect(ran).toBe(false);
});
