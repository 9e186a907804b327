/**
 * A ring buffer of log lines: the viewer keeps the newest `capacity` lines whatever a job prints, so
 * a 1 M-line follow costs the browser a fixed amount of memory (SkyPilot's dashboard froze on 100k
 * lines). Pushing is O(1); the oldest line goes when the buffer is full.
 */
export interface ViewLine {
  /** Order of arrival since the stream opened (stable across evictions). */
  seq: number;
  rank: number;
  text: string;
  /** A note of the viewer itself (a rank started or ended), drawn apart from the job's output. */
  note?: boolean;
}

export class LogRing {
  private readonly slots: Array<ViewLine | undefined>;
  private start = 0;
  private count = 0;
  private nextSeq = 0;
  /** Lines that were evicted (fell off the front) since the stream opened. */
  evicted = 0;
  /** How many of the lines held are the viewer's own notes (so "N of M lines match" counts the job's lines only). */
  notes = 0;

  constructor(readonly capacity: number) {
    this.slots = new Array<ViewLine | undefined>(capacity);
  }

  get length(): number {
    return this.count;
  }

  push(line: Omit<ViewLine, 'seq'>): void {
    const entry = { ...line, seq: this.nextSeq++ };
    if (entry.note) this.notes++;
    if (this.count < this.capacity) {
      this.slots[(this.start + this.count) % this.capacity] = entry;
      this.count++;
    } else {
      if (this.slots[this.start]?.note) this.notes--;
      this.slots[this.start] = entry;
      this.start = (this.start + 1) % this.capacity;
      this.evicted++;
    }
  }

  /** The i-th line held, oldest first. */
  at(i: number): ViewLine | undefined {
    return i >= 0 && i < this.count ? this.slots[(this.start + i) % this.capacity] : undefined;
  }

  clear(): void {
    this.slots.fill(undefined);
    this.start = 0;
    this.count = 0;
    this.evicted = 0;
    this.notes = 0;
  }
}

/** The line as the viewer shows it: every line of a job carries its rank, once. */
export const displayText = (l: Pick<ViewLine, 'rank' | 'text'>) =>
  l.text.startsWith('[rank ') ? l.text : `[rank ${l.rank}] ${l.text}`;
