/**
 * For `npm run test:gateways`: how to run each real gateway (Debian 12's nginx, Apache httpd,
 * Caddy, HAProxy) in the foreground from a configuration of its own in a temporary folder,
 * listening on 127.0.0.1 only and proxying everything to the fake. Each configuration is the
 * gateway's stock one as far as sizes go (no limit directive unless the case adds one), so what
 * it refuses is what its defaults refuse.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GatewayName } from '../test/harness-fixtures/real-servers/gateway-cases.ts';

/** Where a gateway listens and forwards, and the folder its files go in. */
export interface GatewaySite {
  readonly port: number;
  readonly upstreamPort: number;
  /** A temporary folder of its own (configuration, pid file, logs, body buffers). */
  readonly dir: string;
  /** Lines the case adds to the site (none: stock limits). */
  readonly setting?: readonly string[];
}

/** A gateway process to start: its command, arguments and environment. */
export interface GatewayCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

const indent = (lines: readonly string[] | undefined, by: string) =>
  (lines ?? []).map((line) => `${by}${line}`).join('\n');

/** Whether this process runs as root (then Apache httpd must be told whom to run as). */
const asRoot = () => process.getuid?.() === 0;

/**
 * nginx in the foreground (`daemon off`), one worker, its temporary files in `dir`; the limits
 * are nginx's defaults (`large_client_header_buffers 4 8k`, `client_max_body_size 1m`) unless
 * the case's setting says otherwise (both are valid in a server block, ngx_http_core_module).
 */
function nginx(site: GatewaySite): GatewayCommand {
  const path = join(site.dir, 'nginx.conf');
  const temp = (name: string) => `${name}_temp_path ${join(site.dir, name)};`;
  writeFileSync(
    path,
    `daemon off;
worker_processes 1;
pid ${join(site.dir, 'nginx.pid')};
error_log ${join(site.dir, 'error.log')};
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${join(site.dir, 'client_body')};
  ${['proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server {
    listen 127.0.0.1:${site.port};
${indent(site.setting, '    ')}
    location / { proxy_pass http://127.0.0.1:${site.upstreamPort}; }
  }
}
`,
  );
  // -e: the error log before the configuration is read (else /var/log/nginx/error.log).
  return {
    command: 'nginx',
    args: ['-p', site.dir, '-e', join(site.dir, 'error.log'), '-c', path],
  };
}

/**
 * Apache httpd in the foreground with the event MPM and mod_proxy_http (Debian's apache2 loads
 * modules from /usr/lib/apache2/modules); `LimitRequestLine` and `LimitRequestFieldSize` keep
 * their defaults (8190).
 */
function apache2(site: GatewaySite): GatewayCommand {
  const path = join(site.dir, 'httpd.conf');
  const load = (name: string) =>
    `LoadModule ${name}_module /usr/lib/apache2/modules/mod_${name}.so`;
  writeFileSync(
    path,
    `ServerRoot ${site.dir}
ServerName 127.0.0.1
Listen 127.0.0.1:${site.port}
PidFile ${join(site.dir, 'httpd.pid')}
ErrorLog ${join(site.dir, 'error.log')}
Mutex file:${site.dir} default
DefaultRuntimeDir ${site.dir}
${['mpm_event', 'authz_core', 'proxy', 'proxy_http'].map(load).join('\n')}
${asRoot() ? 'User nobody\nGroup nogroup\n' : ''}${(site.setting ?? []).join('\n')}
ProxyPass / http://127.0.0.1:${site.upstreamPort}/
ProxyPassReverse / http://127.0.0.1:${site.upstreamPort}/
`,
  );
  return { command: 'apache2', args: ['-f', path, '-DFOREGROUND'] };
}

/**
 * Caddy with its admin endpoint off (no fixed port 2019) and no automatic HTTPS, its data and
 * autosaved configuration in `dir` (XDG_DATA_HOME, XDG_CONFIG_HOME); no `request_body` limit
 * unless the case sets one.
 */
function caddy(site: GatewaySite): GatewayCommand {
  const path = join(site.dir, 'Caddyfile');
  writeFileSync(
    path,
    `{
\tadmin off
\tauto_https off
}
http://127.0.0.1:${site.port} {
${indent(site.setting, '\t')}
\treverse_proxy 127.0.0.1:${site.upstreamPort}
}
`,
  );
  return {
    command: 'caddy',
    args: ['run', '--config', path, '--adapter', 'caddyfile'],
    env: { XDG_DATA_HOME: site.dir, XDG_CONFIG_HOME: site.dir, HOME: site.dir },
  };
}

/** HAProxy in the foreground (`-db`), HTTP mode; `tune.bufsize` keeps its default (16384). */
function haproxy(site: GatewaySite): GatewayCommand {
  const path = join(site.dir, 'haproxy.cfg');
  writeFileSync(
    path,
    `global
\tmaxconn 256
defaults
\tmode http
\ttimeout connect 5s
\ttimeout client 60s
\ttimeout server 60s
frontend petstore
\tbind 127.0.0.1:${site.port}
${indent(site.setting, '\t')}
\tdefault_backend app
backend app
\tserver fake 127.0.0.1:${site.upstreamPort}
`,
  );
  return { command: 'haproxy', args: ['-db', '-f', path] };
}

/** Writes `gateway`'s configuration for `site` and says how to start it. */
export const gatewayCommand: Record<GatewayName, (site: GatewaySite) => GatewayCommand> = {
  nginx,
  apache2,
  caddy,
  haproxy,
};

/** The command that prints each gateway's version (some print it on stderr). */
export const versionCommand: Record<GatewayName, readonly string[]> = {
  nginx: ['nginx', '-v'],
  apache2: ['apache2', '-v'],
  caddy: ['caddy', 'version'],
  haproxy: ['haproxy', '-v'],
};
