/**
 * A store change that could not be saved (state file full, I/O error). The store has already
 * undone the change when this is thrown, so the caller answers an Error and serves nothing new.
 */

/** Why a change was not saved: the disk is full, or any other write failure. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  /** `full` for ENOSPC, EDQUOT and EFBIG (answered 507), `failed` for anything else (500). */
  readonly kind: 'full' | 'failed';

  constructor(cause: unknown) {
    const code = (cause as { code?: unknown } | null | undefined)?.code;
    super(`the state file could not be written (${String(code ?? cause)})`, { cause });
    this.kind = code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' ? 'full' : 'failed';
  }
}
