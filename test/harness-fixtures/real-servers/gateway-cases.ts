/**
 * The gateway cases, written once for both places they run: stand-ins in
 * `npm test` (gateways.test.ts, Node only) and the real gateways from Debian's packages in
 * `npm run test:gateways` (scripts/test-gateways.ts). Each stock gateway in front of a
 * conforming server must pass a default and a `--rate-limits` run (every probe is one HTTP or the
 * interface lets a client demand: checks/request-size-checks.ts); each gateway set to refuse a
 * request the interface allows must still be caught, with the finding naming the rule and the
 * setting to change.
 */
import {
  caddySmallBody,
  type GatewayModel,
  nginxSmallBody,
  nginxSmallBuffers,
  stockApache,
  stockCaddy,
  stockHaproxy,
  stockNginx,
} from './gateway-models.ts';

/** The gateways, by the name of their Debian package. */
export type GatewayName = 'nginx' | 'apache2' | 'caddy' | 'haproxy';

/** One harness run through the gateway, and the verdict the interface decides. */
export interface GatewayRun {
  readonly flags: readonly string[];
  readonly code: 0 | 1;
  /** What the output must say (a finding names the check and the gateway's setting). */
  readonly says?: RegExp;
}

/** A gateway, the one setting the case adds to its stock configuration, and the runs. */
export interface GatewayCase {
  readonly gateway: GatewayName;
  /** The lines the case adds to the gateway's stock site configuration (none: stock limits). */
  readonly setting?: readonly string[];
  /** The stand-in modelled on that configuration. */
  readonly standIn: GatewayModel;
  readonly runs: readonly GatewayRun[];
}

/** A stock gateway passes whatever the run asks (default and `--rate-limits`). */
const passes: readonly GatewayRun[] = [
  { flags: [], code: 0 },
  { flags: ['--rate-limits'], code: 0 },
];

/**
 * Every case: the four stock gateways, and the three settings that refuse a request the
 * interface allows (a create with a long name; a request line inside RFC 9112's 8,000 octets).
 */
export const gatewayCases: readonly GatewayCase[] = [
  { gateway: 'nginx', standIn: stockNginx, runs: passes },
  { gateway: 'apache2', standIn: stockApache, runs: passes },
  { gateway: 'caddy', standIn: stockCaddy, runs: passes },
  { gateway: 'haproxy', standIn: stockHaproxy, runs: passes },
  {
    gateway: 'nginx',
    setting: ['client_max_body_size 1k;'],
    standIn: nginxSmallBody,
    runs: [
      {
        flags: [],
        code: 1,
        says: /errors\.largeRequests[\s\S]*a 4 KiB body without a key got 413 \(text\/html\) that is no Error[^\n]*nginx `client_max_body_size`/,
      },
    ],
  },
  {
    gateway: 'caddy',
    setting: ['request_body {', 'max_size 1KB', '}'],
    standIn: caddySmallBody,
    runs: [
      {
        flags: [],
        code: 1,
        // Caddy's docs promise 413; Debian's Caddy 2.6.2 answers 502 (gateway-models.ts).
        says: /errors\.largeRequests[\s\S]*a 4 KiB body without a key got (?:413|502) \([^)]*\)[^\n]*Caddy `request_body max_size`/,
      },
    ],
  },
  {
    gateway: 'nginx',
    setting: ['large_client_header_buffers 2 1k;'],
    standIn: nginxSmallBuffers,
    runs: [
      {
        flags: [],
        code: 1,
        says: /errors\.largeRequests[\s\S]*a 7,900-octet request line without a key got 414 \(text\/html\) that is no Error[^\n]*nginx `large_client_header_buffers`/,
      },
    ],
  },
];

/** A case's name, e.g. `nginx, stock limits` or `nginx, client_max_body_size 1k;`. */
export function caseTitle(gatewayCase: GatewayCase): string {
  return `${gatewayCase.gateway}, ${gatewayCase.setting === undefined ? 'stock limits' : gatewayCase.setting.join(' ')}`;
}
