/**
 * What a larger fleet of replicas would serve, from one run's CPU per request: Redis runs every
 * command on one thread, so one core divided by Redis's CPU per request is the most requests a
 * second the whole fleet serves however many replicas it has; the replicas' CPU per request
 * says how many cores of replicas it takes to get there.
 */

/** The fleet's ceiling for one request. */
export interface FleetCeiling {
  /** Requests a second one Redis core allows, all replicas together. */
  readonly requestsPerSecond: number;
  /** Cores of replica processes busy at that rate. */
  readonly replicaCores: number;
}

/** The ceiling from Redis's and the replicas' CPU µs per request; NaN where a side is unknown. */
export function fleetCeiling(redisCpuUs: number, replicaCpuUs: number): FleetCeiling {
  const requestsPerSecond =
    Number.isFinite(redisCpuUs) && redisCpuUs > 0 ? 1e6 / redisCpuUs : Number.NaN;
  return { requestsPerSecond, replicaCores: (requestsPerSecond * replicaCpuUs) / 1e6 };
}
