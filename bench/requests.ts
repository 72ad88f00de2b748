/**
 * The requests every server is measured on, and the key they are sent with. Paths are relative
 * to a base URL: `<origin>/v1` for the fake and the ceiling, `<origin>` for Prism, which ignores
 * the path of `servers[].url` and serves `/pets`.
 */

/** One benchmarked request. */
export interface BenchRequest {
  /** Short id used in tables and file names. */
  readonly id: 'list' | 'list-sold' | 'create' | 'get';
  /** As the interface writes it. */
  readonly label: string;
  readonly method: 'GET' | 'POST';
  /** Path under the base URL, query included. */
  readonly path: string;
  readonly body?: string;
  /** The status a correct answer has. */
  readonly status: number;
}

/**
 * The Enterprise demo key; the bench starts the fake with Enterprise limits so high
 * (`--enterprise 1000000000/1000000000000`) that they never bind, while every response still
 * carries the full X-RateLimit-* headers.
 */
export const benchKey = 'enterprise-demo-key';

/** `npm start` flags that make the bench key's limits unreachable. */
export const unboundLimitsFlags = ['--enterprise', '1000000000/1000000000000'] as const;

/** Headers of every benchmarked request. */
export const benchHeaders = {
  Authorization: `Bearer ${benchKey}`,
  'Content-Type': 'application/json',
} as const;

/** `POST /v1/pets`: a valid NewPet, created `sold` (see below). */
export const createRequest = {
  id: 'create',
  label: 'POST /v1/pets',
  method: 'POST',
  path: '/pets',
  body: JSON.stringify({ name: 'Bench pet', categoryId: 1, status: 'sold' }),
  status: 201,
} as const satisfies BenchRequest;

/**
 * The created pets are `sold`, so after the warm-up the `status=sold&limit=100` page is full
 * (the default seed has 81 sold pets) and every later round answers exactly the same bytes.
 */
export const benchRequests: readonly BenchRequest[] = [
  {
    id: 'list',
    label: 'GET /v1/pets?limit=20',
    method: 'GET',
    path: '/pets?limit=20',
    status: 200,
  },
  {
    id: 'list-sold',
    label: 'GET /v1/pets?status=sold&limit=100',
    method: 'GET',
    path: '/pets?status=sold&limit=100',
    status: 200,
  },
  createRequest,
  { id: 'get', label: 'GET /v1/pets/{id}', method: 'GET', path: '/pets/1', status: 200 },
];
