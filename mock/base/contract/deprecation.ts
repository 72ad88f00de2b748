/**
 * Deprecation of `GET /pets/{petId}`: the interface gives the removal date (5 December 2030)
 * and the replacement. The headers follow RFC 9745 (`Deprecation: @<unix-seconds>`) and
 * RFC 8594 (`Sunset: <HTTP-date>`); past the sunset the endpoint is gone.
 */

/** When the endpoint was deprecated and when it is removed, in epoch ms. */
export interface DeprecationSchedule {
  readonly deprecatedAt: number;
  readonly sunsetAt: number;
}

/** Sunset from the interface; the deprecation date is not shown there, so this is the fake's choice. */
export const getPetDeprecation: DeprecationSchedule = {
  deprecatedAt: Date.UTC(2025, 0, 1),
  sunsetAt: Date.UTC(2030, 11, 5),
};

/** The headers every getPet response carries; `successor` is the replacement's URL. */
export function deprecationHeaders(
  schedule: DeprecationSchedule,
  successor: string,
): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(schedule.deprecatedAt / 1000)}`,
    Sunset: new Date(schedule.sunsetAt).toUTCString(),
    Link: `<${successor}>; rel="successor-version"`,
  };
}

/** Whether the endpoint is past its sunset at `now`. */
export function isSunset(schedule: DeprecationSchedule, now: number): boolean {
  return now >= schedule.sunsetAt;
}
