import { useLayoutEffect, useRef, useState } from 'react';
import { displayText, type ViewLine } from './log-buffer.js';

/** Every row is this tall, so the list knows where any line is without measuring it. */
export const ROW_HEIGHT = 18;
const VIEW_HEIGHT = 440;
const OVERSCAN = 20;

interface Props {
  count: number;
  line(i: number): ViewLine | undefined;
  /** Changes whenever lines arrive (the buffer is mutated in place). */
  version: number;
}

/**
 * The visible window of a long list of log lines: only the rows in view (plus a few) are in the DOM,
 * absolutely placed in a spacer as tall as all the lines, whatever their number. Sticks to the
 * bottom while the reader is there; scrolling up stays put as lines arrive.
 */
export function LogLines({ count, line, version }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) {
      el.scrollTop = el.scrollHeight;
      setScrollTop(el.scrollTop);
    }
  }, [version, count]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const rows = [];
  for (let i = first; i < last; i++) {
    const l = line(i);
    if (!l) continue;
    rows.push(
      <div
        key={l.seq}
        data-testid="training-log-line"
        style={{ position: 'absolute', top: i * ROW_HEIGHT, left: 0, right: 0, height: ROW_HEIGHT, lineHeight: `${ROW_HEIGHT}px`, whiteSpace: 'pre', overflow: 'hidden', textOverflow: 'ellipsis', color: l.note ? '#8d6605' : undefined }}
        title={l.text.length > 160 ? l.text : undefined}
      >
        {displayText(l)}
      </div>,
    );
  }
  return (
    <div
      ref={box}
      data-testid="training-log-lines"
      data-count={count}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
        setScrollTop(el.scrollTop);
      }}
      style={{ height: VIEW_HEIGHT, overflow: 'auto', position: 'relative', fontFamily: 'Monaco, Menlo, Consolas, monospace', fontSize: 12, background: '#0f1b2a', color: '#d1d5db', borderRadius: 8, padding: '0 8px' }}
    >
      <div style={{ height: count * ROW_HEIGHT, position: 'relative' }}>{rows}</div>
    </div>
  );
}
