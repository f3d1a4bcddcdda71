/**
 * Sessions whose turns could not be read back from disk (a damaged archive line or snapshot range): their transcript
 * is read again, once per file at a time. Where the transcript is gone too, the turns are lost, and that is reported.
 */
import { stat } from 'node:fs/promises';
import type { Logger } from '../log.js';
import type { Session } from '../model.js';

export class Repairs {
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly reload: (file: string) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  request(session: Session): void {
    const file = session.file;
    if (this.pending.has(file)) return;
    const run = (async () => {
      if (await stat(file).catch(() => undefined)) await this.reload(file);
      else this.logger.warn(`${file}: the turns of ${session.id} are lost: its stored copy is damaged and the transcript no longer exists`);
    })().finally(() => this.pending.delete(file));
    this.pending.set(file, run);
  }

  /** Whether any transcript is being read again. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Settles when every repair under way has finished. */
  async settled(): Promise<void> {
    await Promise.all(this.pending.values());
  }
}
