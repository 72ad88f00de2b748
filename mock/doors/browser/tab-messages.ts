/**
 * What the tabs of one browser say to each other about the fake they share (shared-fake.ts), as
 * structured-clone data, the only kind a BroadcastChannel carries: a Fetch `Request` becomes a
 * WireRequest; an Answer, plain data with its marks (`drop`, `injected`), travels as it is.
 */
import type { Answer } from '../../base/messages/answer.ts';
import {
  type BodyBytes,
  type FakeRequest,
  tabConnectionPrefix,
} from '../../base/messages/fake-request.ts';
import type { ControlReply } from '../../pipeline/control-call.ts';

/** A request as it travels between tabs: its body read already (or `too-large`). */
export interface WireRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: BodyBytes;
}

/** One thing a tab asks of the fake: answer a request, or run a control function. */
export type Call =
  | { readonly kind: 'request'; readonly request: WireRequest }
  | { readonly kind: 'control'; readonly method: string; readonly args: readonly unknown[] };

/** What a call gets back. A control function's error travels as its name, message and code. */
export type Reply = { readonly kind: 'answer'; readonly answer: Answer } | ControlReply;

/** Every message on the tabs' channel. `to` names the one tab a message is for. */
export type TabMessage =
  /** A tab joined: the leading tab says who it is. */
  | { readonly type: 'hello' }
  /** The tab that leads now: the others send their calls to it, again if need be. */
  | { readonly type: 'leader'; readonly leader: string }
  | {
      readonly type: 'call';
      readonly to: string;
      readonly from: string;
      readonly id: string;
      readonly call: Call;
    }
  | { readonly type: 'reply'; readonly to: string; readonly id: string; readonly reply: Reply };

/** A WireRequest as the behaviour core reads it; its connection names the tab it came from. */
export function fakeRequestOf(wire: WireRequest, tab: string): FakeRequest {
  const headers = new Headers(wire.headers as [string, string][]);
  return {
    method: wire.method,
    url: wire.url,
    header: (name) => headers.get(name),
    headerList: () => wire.headers.map(([name, value]) => [name, value]),
    body: () => wire.body,
    connection: `${tabConnectionPrefix}${tab}`,
  };
}
