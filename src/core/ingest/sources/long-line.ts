/**
 * A JSON line too long to hold (one record of hundreds of MB: a whole file an agent read, a runaway command output)
 * is read as it streams by, byte by byte: its structure is kept and every string in it keeps its first
 * KEPT_STRING_BYTES, followed by a note of how much was left out. The record then parses as any other, so the prompt
 * in it is found and the first page of its huge output is indexed, in bounded memory whatever the line's size.
 */

/** Bytes each string of a long line keeps (more than the 512,000 characters of a tool output that are indexed). */
export const KEPT_STRING_BYTES = 1024 * 1024;
/** What a long line may be reduced to at most; past it (a line of millions of short strings) it is skipped. */
export const KEPT_LINE_BYTES = 32 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class LongLine {
  /** Bytes seen, strings cut short. */
  bytes = 0;
  cut = 0;
  /** The reduced line outgrew KEPT_LINE_BYTES: it cannot be read. */
  overflow = false;
  private out = Buffer.allocUnsafe(1024 * 1024);
  private used = 0;
  private inString = false;
  /** -1: a backslash was just read; n > 0: bytes of a \u escape still to come. */
  private escape = 0;
  private kept = 0;
  private dropped = 0;
  /** The open objects and arrays (their opening byte), and whether the next string is an object's key: keys are kept whole. */
  private readonly containers: number[] = [];
  private expectKey = false;
  private isKey = false;

  constructor(private readonly keep = KEPT_STRING_BYTES) {}

  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    for (let i = 0; i < chunk.length && !this.overflow; i++) {
      const b = chunk[i];
      if (!this.inString) {
        this.emit(b);
        if (b === QUOTE) [this.inString, this.kept, this.dropped, this.isKey] = [true, 0, 0, this.expectKey && this.containers.at(-1) === 0x7b];
        else if (b === 0x7b || b === 0x5b) [this.expectKey] = [b === 0x7b, this.containers.push(b)];
        else if (b === 0x7d || b === 0x5d) this.containers.pop();
        else if (b === 0x2c) this.expectKey = this.containers.at(-1) === 0x7b;
        else if (b === 0x3a) this.expectKey = false;
        continue;
      }
      const inEscape = this.escape !== 0;
      let ends = false;
      if (this.escape === -1) this.escape = b === 0x75 ? 4 : 0;
      else if (this.escape > 0) this.escape--;
      else if (b === BACKSLASH) this.escape = -1;
      else if (b === QUOTE) ends = true;
      if (ends) {
        if (this.dropped) {
          this.cut++;
          this.emitText(` … [${this.dropped} more bytes not kept: a line too long to keep whole]`);
        }
        this.emit(QUOTE);
        this.inString = false;
        continue;
      }
      // cut only where a character and an escape begin, so what is kept is valid text
      if (!this.dropped && !this.isKey && this.kept >= this.keep && !inEscape && (b & 0xc0) !== 0x80) this.dropped = 1;
      else if (this.dropped) this.dropped++;
      if (!this.dropped) {
        this.emit(b);
        this.kept++;
      }
    }
  }

  /** The reduced line, or undefined when it outgrew its bound. */
  finish(): string | undefined {
    return this.overflow ? undefined : this.out.toString('utf8', 0, this.used);
  }

  private emitText(text: string): void {
    for (const b of Buffer.from(text, 'utf8')) this.emit(b);
  }

  private emit(b: number): void {
    if (this.used === this.out.length) {
      if (this.out.length >= KEPT_LINE_BYTES) {
        this.overflow = true;
        return;
      }
      const grown = Buffer.allocUnsafe(Math.min(KEPT_LINE_BYTES, this.out.length * 2));
      this.out.copy(grown, 0, 0, this.used);
      this.out = grown;
    }
    this.out[this.used++] = b;
  }
}
