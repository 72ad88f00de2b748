/**
 * `petstore-contract proxy`'s flags, their help and what they parse to (proxy-command.ts runs
 * the proxy with them).
 */
import {
  ConfigError,
  type FlagSpecs,
  flagHelp,
  parseFlags,
  parseInteger,
  resolveAllowedHosts,
} from '../../mock/internal/entry.ts';
import { ContractUsageError } from '../base/usage-error.ts';
import type { PlanName } from '../contract/interface-facts.ts';
import { defaultMaxBodyBytes } from '../http/send.ts';
import { normaliseBaseUrl } from '../targets/url-target.ts';
import { parsePlan } from './flag-values.ts';

/** The proxy's flags, with their help. */
const proxyFlags = {
  target: { type: 'string', value: '<url>', help: "the server's base address, ending in /v1" },
  port: {
    type: 'string',
    value: '<n>',
    help: ['port to listen on (default 4020, or a free one with a', 'command; 0 picks a free one)'],
  },
  host: {
    type: 'string',
    default: '127.0.0.1',
    value: '<address>',
    help: 'address to bind (default 127.0.0.1)',
  },
  'allowed-hosts': {
    type: 'string',
    value: '<names>',
    help: [
      'comma-separated Host names to answer besides the bound',
      'address, localhost, 127.0.0.1 and [::1] (any other: 403)',
    ],
  },
  plan: {
    type: 'string',
    value: '<name>',
    help: 'the plan of the keys in the traffic (free, pro, business)',
  },
  junit: { type: 'string', value: '<file>', help: 'write a JUnit XML report on exit' },
  coverage: {
    type: 'string',
    value: '<file>',
    help: [
      'on exit, write what the traffic exercised of the interface (.md,',
      '.xml JUnit, .ctrf.json CTRF, else JSON)',
    ],
  },
  'max-body-bytes': {
    type: 'string',
    default: String(defaultMaxBodyBytes),
    value: '<n>',
    help: `most bytes of a body kept to judge it (default ${defaultMaxBodyBytes})`,
  },
  help: { type: 'boolean', short: 'h', help: 'this text' },
} as const satisfies FlagSpecs;

/** The proxy's help text, for the command as it was invoked (`npm run contract --`, the bin). */
export function proxyUsage(command: string): string {
  return `Usage: ${command} proxy --target <url> [options] [-- <command> [args...]]

Forwards every request to the target unchanged and judges each exchange by every
rule one exchange can show, as the active checks judge their own: page sizes and
the status filter, shapes by the OpenAPI schemas, 201s against the body sent,
400s and 401s, Error bodies, rate-limit headers, Sunset; per key, Remaining going
down and pets read back unchanged. A rule the traffic never showed is "not
exercised". It sends no request of its own. Verdicts: GET /__contract/report
(?format=json) at any time, and at the end.

With a command after --, runs it with PETSTORE_PROXY_URL set to the proxy's base
URL (ending in /v1) and stops when it ends: exit with the command's code if it
failed, else the proxy's. Without one, runs until SIGINT, SIGTERM or its parent
process goes away. Exit 0: no rule seen broken, 1: a rule broken, 2: no verdict
(no exchange was judged, or a usage error).

Options:
${flagHelp(proxyFlags, 26)}`;
}

interface ProxyFlags {
  readonly target: string;
  readonly port: number;
  readonly host: string;
  /** The Host names the proxy answers (DNS rebinding: any other gets 403). */
  readonly allowedHosts: readonly string[];
  readonly plan: PlanName | undefined;
  readonly junit: string | undefined;
  readonly coverage: string | undefined;
  readonly maxBodyBytes: number;
  readonly help: boolean;
  /** The command to run through the proxy (after `--`), or undefined to run until stopped. */
  readonly command: readonly string[] | undefined;
}

export function parseProxyFlags(all: readonly string[]): ProxyFlags {
  const split = all.indexOf('--');
  const argv = split === -1 ? all : all.slice(0, split);
  const command = split === -1 ? undefined : all.slice(split + 1);
  if (command !== undefined && command.length === 0)
    throw new ContractUsageError(
      'proxy: nothing after --; name the command to run through the proxy',
    );
  const { values } = parseFlags(
    argv,
    proxyFlags,
    (message) => new ContractUsageError(`proxy: ${message}`),
  );
  const help = values.help === true;
  const target = values.target;
  if (!help && target === undefined)
    throw new ContractUsageError('proxy: --target <url> is required (the base URL, ending in /v1)');
  const bound = values.host.includes(':') ? `[${values.host}]` : values.host;
  let allowedHosts: readonly string[];
  try {
    const extra = (values['allowed-hosts'] ?? '').split(',').filter((name) => name !== '');
    allowedHosts = resolveAllowedHosts([`http://${bound}`], extra);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ContractUsageError(`proxy: --allowed-hosts ${error.problem}`);
  }
  return {
    help,
    allowedHosts,
    target: target === undefined ? '' : normaliseBaseUrl(target, '--target'),
    // With a command, the command learns the address: a free port never collides in CI.
    port: parseInteger('--port', values.port, { min: 0, max: 65_535 }) ?? (command ? 0 : 4020),
    host: values.host,
    plan: parsePlan(values.plan),
    junit: values.junit,
    coverage: values.coverage,
    maxBodyBytes: parseInteger('--max-body-bytes', values['max-body-bytes'], {
      min: 0,
      max: 1024 ** 3,
    }),
    command,
  };
}
