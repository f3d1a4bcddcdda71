/**
 * Prefix search over session titles, for search-as-you-type (the palette, Go to Symbol): FlexSearch's forward
 * tokenizer finds `auth` in "Authentication flow" in microseconds. Full-text ranking lives in engine.ts.
 */
import FlexSearch from 'flexsearch';

export class TitleIndex {
  private readonly index = new FlexSearch.Index({ tokenize: 'forward', encoder: FlexSearch.Charset.LatinBalance, resolution: 9 });
  private readonly keys: string[] = [];
  private readonly byKey = new Map<string, number>();

  add(key: string, title: string): void {
    let id = this.byKey.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.byKey.set(key, id);
    } else this.index.remove(id);
    this.index.add(id, title);
  }

  remove(key: string): void {
    const id = this.byKey.get(key);
    if (id !== undefined) this.index.remove(id);
    this.byKey.delete(key);
  }

  /** Keys of sessions whose title has words starting with every word typed, best first. */
  search(prefix: string, limit = 20): string[] {
    return (this.index.search(prefix, { limit }) as number[]).map((id) => this.keys[id]).filter((k) => this.byKey.has(k));
  }
}
