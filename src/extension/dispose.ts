/**
 * One way to own things in the extension host: a Disposable registers every subscription, emitter and timer it
 * creates, and disposing it lets all of them go, once, in reverse order.
 */
import * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private disposed = false;
  private readonly owned: vscode.Disposable[] = [];

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // one failing disposal must not keep the others alive
      }
    }
  }

  protected register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.owned.push(d);
    return d;
  }

  /** A timer that goes with this object. */
  protected registerTimeout(run: () => void, ms: number): vscode.Disposable {
    const timer = setTimeout(run, ms);
    return this.register({ dispose: () => clearTimeout(timer) });
  }
}
