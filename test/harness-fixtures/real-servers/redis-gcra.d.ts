/** Types of redis-gcra 0.3 (it ships none), as its README documents the API. */
declare module 'redis-gcra' {
  interface LimitResult {
    readonly limited: boolean;
    readonly remaining: number;
    /** Milliseconds until a refused request may be retried. */
    readonly retryIn: number;
    /** Milliseconds until the limiter has completely reset. */
    readonly resetIn: number;
  }
  interface Limits {
    readonly burst?: number;
    readonly rate?: number;
    readonly period?: number;
    readonly cost?: number;
  }
  interface Limiter {
    limit(options: { readonly key: string } & Limits): Promise<LimitResult>;
  }
  export default function RedisGCRA(options: { readonly redis: unknown } & Limits): Limiter;
}
