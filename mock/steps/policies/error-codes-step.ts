/**
 * Error codes as a real server spells them: a profile learned by `petstore-contract calibrate`
 * (or the `errorCodes` option) renames the fake's own codes in Error bodies. The request log
 * keeps the fake's code.
 */
import { stringifyJson } from '../../base/contract/lossless-json.ts';
import type { Answer } from '../../base/messages/answer.ts';
import type { ErrorCode } from '../../base/messages/errors.ts';
import type { Step } from '../../pipeline/pipeline.ts';

/** The answer with its Error `code` renamed as `codes` says; the same answer when there is nothing to rename. */
function withErrorCodes(
  answer: Answer,
  codes: Readonly<Partial<Record<ErrorCode, string>>>,
): Answer {
  const renamed = answer.errorCode === undefined ? undefined : codes[answer.errorCode];
  if (renamed === undefined || answer.body === undefined) return answer;
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  return { ...answer, body: stringifyJson({ ...body, code: renamed }) };
}

/** The step: renames the code of every Error answer that passes back through it. */
export function errorCodesStep(codes: Readonly<Partial<Record<ErrorCode, string>>>): Step {
  if (Object.keys(codes).length === 0) return (_context, next) => next();
  return { after: (_context, answer) => withErrorCodes(answer, codes) };
}
