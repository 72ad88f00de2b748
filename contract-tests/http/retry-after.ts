/**
 * `Retry-After` as RFC 9110 defines it: delta-seconds or an HTTP-date (IMF-fixdate, or the
 * obsolete RFC 850 and asctime forms). The interface does not say which, so both are read.
 */

const imfFixdate =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const rfc850 =
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const asctime =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** A parsed Retry-After: how long to wait, in milliseconds from `now`. */
export interface RetryAfter {
  readonly form: 'seconds' | 'http-date';
  readonly waitMs: number;
}

function parseHttpDate(value: string): number | undefined {
  if (imfFixdate.test(value)) return Date.parse(value);
  if (asctime.test(value)) return Date.parse(`${value} GMT`);
  if (rfc850.test(value)) {
    // Two-digit years: RFC 9110 says to read them as the nearest year not more than 50 years ahead.
    const match = /-(\d{2}) /.exec(value);
    const yy = Number(match?.[1]);
    const now = new Date().getUTCFullYear();
    let year = Math.floor(now / 100) * 100 + yy;
    if (year > now + 50) year -= 100;
    return Date.parse(value.replace(/-(\d{2}) /, `-${year} `).replace(/^\w+, /, ''));
  }
  return undefined;
}

/**
 * Reads a Retry-After value; `undefined` when it is neither form.
 * @example parseRetryAfter('30', Date.now()) // { form: 'seconds', waitMs: 30000 }
 */
export function parseRetryAfter(value: string | null, now: number): RetryAfter | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return { form: 'seconds', waitMs: Number(trimmed) * 1000 };
  const at = parseHttpDate(trimmed);
  if (at === undefined || Number.isNaN(at)) return undefined;
  return { form: 'http-date', waitMs: Math.max(0, at - now) };
}
