/** The one way tests wait: poll a condition until it holds, with a deadline and a message saying what never happened. */

export interface EventuallyOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Time between checks (default 20 ms). */
  intervalMs?: number;
  /** More to say when it fails (state at the deadline). */
  debug?: () => string;
}

/** Resolves once `check` holds (it may be async); rejects with `what` when it does not within the time allowed. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, options: EventuallyOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not met within ${timeoutMs} ms: ${what}${options.debug ? ` (${options.debug()})` : ''}`);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 20));
  }
}
