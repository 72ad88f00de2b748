/**
 * A port or address a server cannot listen on, as one line naming the flag that chose it, for
 * every command that listens (the fake's two ports, the demo, the proxy).
 */

/**
 * Why listening failed, naming `flag` (and `hostFlag` for the address), or undefined when the
 * error is not about the port or the address.
 * @example listenProblem(error, { flag: '--staging-port', port: 4011, host: '127.0.0.1' })
 */
export function listenProblem(
  error: unknown,
  where: {
    readonly flag: string;
    readonly port: number;
    readonly host: string;
    readonly hostFlag?: string;
  },
): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const hostFlag = where.hostFlag ?? '--host';
  if (code === 'EADDRINUSE')
    return `${where.flag} ${where.port}: the port is in use on ${where.host}; pick another with ${where.flag} (0 picks a free one)`;
  if (code === 'EACCES')
    return `${where.flag} ${where.port}: no permission to listen on that port (ports below 1024 need privileges); pick another with ${where.flag}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${hostFlag} ${where.host}: not an address of this machine (${code}); pick another with ${hostFlag}`;
  return undefined;
}
