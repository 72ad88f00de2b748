/**
 * An active check's judge as an observer, under the check's id and rule: what the proxy runs on
 * others' traffic, and what an active run holds every exchange to, whichever check sent it.
 */
import {
  type ActiveCheck,
  type ObserverCheck,
  observerCheck,
  statefulObserverCheck,
} from './check.ts';
import { notExercised } from './observers/observed-answer.ts';

/** An active check that has a judge. */
export type JudgedCheck = ActiveCheck & Required<Pick<ActiveCheck, 'judges'>>;

/** Whether an active check has a judge. */
export function hasJudge(check: ActiveCheck): check is JudgedCheck {
  return check.judges !== undefined;
}

/** The check's judge as an observer of every exchange, named and sourced as the check. */
export function judgeObserver(check: JudgedCheck): ObserverCheck {
  const { judges } = check;
  const info = {
    id: check.id,
    title: check.title,
    source: check.source,
    ...(check.advisory === undefined ? {} : { advisory: check.advisory }),
    whenUnseen: notExercised(judges.unseen),
  };
  return 'start' in judges
    ? statefulObserverCheck({ ...info, start: judges.start })
    : observerCheck({ ...info, appliesTo: judges.appliesTo, judge: judges.judge });
}
