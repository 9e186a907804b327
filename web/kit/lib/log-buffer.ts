/**
 * A ring buffer of log lines: a viewer keeps the newest `capacity` lines whatever its pods print, so
 * a 1 M-line follow costs the browser a fixed amount of memory (SkyPilot's dashboard froze on 100k
 * lines). Pushing is O(1); the oldest line goes when the buffer is full.
 */
export interface ViewLine {
  /** Order of arrival since the stream opened (stable across evictions). */
  seq: number;
  /** The stream's number for the pod (a training job's rank; an endpoint's pods numbered as first seen). */
  rank: number;
  /** The pod that printed the line, when the stream named it. */
  pod?: string;
  text: string;
  /** A note of the viewer itself (a pod started or ended), drawn apart from the pods' output. */
  note?: boolean;
}

export class LogRing {
  private readonly slots: Array<ViewLine | undefined>;
  private start = 0;
  private count = 0;
  private nextSeq = 0;
  /** Lines that were evicted (fell off the front) since the stream opened. */
  evicted = 0;
  /** How many of the lines held are the viewer's own notes (so "N of M lines match" counts the pods' lines only). */
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
