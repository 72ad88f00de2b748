/**
 * A port or address a server cannot listen on, as one line naming the flag that chose it, for
 * every command that listens (the fake's two ports, the demo, the proxy).
 */

/**
 * Why listening failed, naming `flag` (or `--host` for the address), or undefined when the
 * error is not about the port or the address.
 * @example listenProblem(error, { flag: '--staging-port', port: 4011, host: '127.0.0.1' })
 */
export function listenProblem(
  error: unknown,
  where: {
    readonly flag: string;
    readonly port: number;
    readonly host: string;
    /** Whether the command takes port 0 for a free port and prints the one it got. */
    readonly zeroPicksFree?: boolean;
  },
): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return `${where.flag} ${where.port}: the port is in use on ${where.host}; pick another with ${where.flag}${where.zeroPicksFree === true ? ' (0 picks a free one)' : ''}`;
  if (code === 'EACCES')
    return `${where.flag} ${where.port}: no permission to listen on that port (ports below 1024 need privileges); pick another with ${where.flag}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `--host ${where.host}: not an address of this machine (${code}); pick another with --host`;
  return undefined;
}
