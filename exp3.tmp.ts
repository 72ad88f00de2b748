import { readFileSync, writeFileSync } from 'node:fs';
import { Verifier } from '@pact-foundation/pact';
import { createFake } from './mock/fake.ts';
import { listenHttp } from './mock/doors/http/http-server.ts';
process.env.PACT_DO_NOT_TRACK = 'true';
const base0 = JSON.parse(readFileSync('/tmp/s32/pact.json', 'utf8'));
const fake2 = await createFake();
const door = await listenHttp(fake2.behaviour, { port: 0, origin: fake2.config.origins[0] as string });
const base = `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
async function tryText(label: string, text: string | Buffer) {
  writeFileSync('/tmp/s32/p3.json', text);
  try {
    await new Verifier({ provider: 'petstore', providerBaseUrl: `${base}/v1`, pactUrls: ['/tmp/s32/p3.json'], providerStatesSetupUrl: `${base}/__control/provider-states`, logLevel: 'error' }).verifyProvider();
    console.log('OK  ', label);
  } catch (e) { console.log("FAIL", label, (/Failed to load pact.{0,300}/.exec(String(e))?.[0]) ?? String(e).slice(0, 200)); }
}
const p = structuredClone(base0);
p.interactions[0].request.body.content.note = 'a\ud800b';
await tryText('lone surrogate value', JSON.stringify(p));
const t = JSON.stringify(base0).replace('"Rex"', '"R\u00e9x"');
const buf = Buffer.from(t, 'utf8'); const i = buf.indexOf(0xc3); buf[i] = 0xff;
await tryText('invalid utf8', buf);
await tryText('bom', '\ufeff' + JSON.stringify(base0));
const p2 = structuredClone(base0);
p2.interactions[0].request.matchingRules.body = { "$.a b": { combine: 'AND', matchers: [{ match: 'type' }] } };
await tryText('request rule bad path', JSON.stringify(p2));
const p3 = structuredClone(base0);
p3.interactions[0].request.generators.body = { "$.a b": { type: 'RandomInt', min: 1, max: 2 } };
await tryText('request generator bad path', JSON.stringify(p3));
const p4 = structuredClone(base0);
p4.interactions[0].response.matchingRules.header = { "a b": { combine: 'AND', matchers: [{ match: 'type' }] } };
await tryText('header rule name with space', JSON.stringify(p4));
const p5 = structuredClone(base0);
p5.interactions[0].response.matchingRules.query = { "a b": { combine: 'AND', matchers: [{ match: 'type' }] } };
await tryText('response query rule with space', JSON.stringify(p5));
const p6 = structuredClone(base0);
p6.interactions[0].response.matchingRules.body = { "": { combine: 'AND', matchers: [{ match: 'type' }] } };
await tryText('empty body path', JSON.stringify(p6));
const p7 = structuredClone(base0);
p7.interactions[0].response.matchingRules.status = { "a b": { combine: 'AND', matchers: [{ match: 'type' }] } };
await tryText('status cat with key', JSON.stringify(p7));
const p8 = structuredClone(base0);
p8.interactions[0].response.matchingRules.weird = { "a b": { combine: 'AND', matchers: [{ match: 'type' }] } };
await tryText('unknown cat', JSON.stringify(p8));
await door.close();
