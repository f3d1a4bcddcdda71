/** Whether a process runs: apart from the writer lock, so that a client asking it loads no lock library. */
import { readFileSync } from 'node:fs';

/**
 * Whether a process of this machine runs under `pid` (one of another user's counts). A process that exited but was
 * never reaped (a zombie, where the parent of orphans does not reap them, as in some containers) does not run.
 */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    // the state is the field after the command name, which is in parentheses and may hold spaces
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
