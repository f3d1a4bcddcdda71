/**
 * Whether the data folder can be kept: a read-only, full or unwritable folder does not stop answers (they come from
 * memory), but nothing is kept for the next start, and the user must hear it where they look (every answer's `storage`
 * field, the command line's stderr, the status bar), with what to do; not only in a log.
 */
import type { StorageProblem } from '../contracts.js';
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';

const KINDS: Record<string, StorageProblem['problem']> = {
  EROFS: 'read-only',
  EACCES: 'unwritable',
  EPERM: 'unwritable',
  ENOSPC: 'full',
  EDQUOT: 'full',
};

/** The problem an error of writing the data folder says, or undefined when it is not one of storage. */
export function storageProblemOf(err: unknown, dataDir: string): StorageProblem | undefined {
  const problem = KINDS[(err as NodeJS.ErrnoException | undefined)?.code ?? ''];
  if (!problem) return undefined;
  const what =
    problem === 'full'
      ? `the disk holding the data folder ${dataDir} is full`
      : problem === 'read-only'
        ? `the data folder ${dataDir} is on a read-only file system`
        : `the data folder ${dataDir} cannot be written by this user`;
  const fix =
    problem === 'full'
      ? 'free some space'
      : 'make it writable, or name another data folder (--data DIR, SESSION_SEARCH_HOME, or the sessionSearch.dataFolder setting)';
  return {
    problem,
    detail: `${what} (${errorMessage(err)})`,
    advice: `answers are right, but nothing is kept: the engine holds the index in memory while it runs and reads every transcript again when it starts; ${fix}`,
  };
}

/** What a library knows of its data folder's storage, from the writes it tried. */
export class StorageState {
  private current: StorageProblem | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly logger: Logger,
  ) {}

  /** The problem the last write met (undefined: none, or the last write went through). */
  get problem(): StorageProblem | undefined {
    return this.current;
  }

  /** A write failed: whether it was for want of storage (then said once, until a write goes through). */
  failed(err: unknown): boolean {
    const problem = storageProblemOf(err, this.dataDir);
    if (!problem) return false;
    if (this.current?.problem !== problem.problem) this.logger.warn(`${problem.detail}: ${problem.advice}`);
    this.current = problem;
    return true;
  }

  /** A write went through. */
  ok(): void {
    if (!this.current) return;
    this.current = undefined;
    this.logger.info(`${this.dataDir}: the data folder is written again`);
  }
}
