import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ViewLine } from '@kit/lib/log-buffer.js';
import { wrappedLayout } from './log-layout.js';

/** The line as the viewer shows it: every line of a job carries its rank, once. */
const displayText = (l: Pick<ViewLine, 'rank' | 'text'>) =>
  l.text.startsWith('[rank ') ? l.text : `[rank ${l.rank}] ${l.text}`;

/** Every row of text is this tall, so the list knows where any line is without measuring it. */
export const ROW_HEIGHT = 18;
const VIEW_HEIGHT = 440;
const OVERSCAN = 20;
const PADDING = 8;
const FONT = { fontFamily: 'Monaco, Menlo, Consolas, monospace', fontSize: 12 } as const;

interface Props {
  count: number;
  line(i: number): ViewLine | undefined;
  /** Changes whenever lines arrive (the buffer is mutated in place). */
  version: number;
  /** Wrap long lines onto as many rows as they need; otherwise each line is one row and the view scrolls sideways. */
  wrap?: boolean;
}

/**
 * The visible window of a long list of log lines: only the rows in view (plus a few) are in the DOM,
 * absolutely placed in a spacer as tall as all the lines, whatever their number. Sticks to the
 * bottom while the reader is there; scrolling up stays put as lines arrive.
 * A long line is never cut: unwrapped, the view scrolls sideways as far as the longest line in view; wrapped, a
 * line takes ceil(length / characters per row) rows — the font is monospaced and breaks anywhere, so that count is
 * known without measuring each line, and the window is still found by a binary search over the rows.
 */
export function LogLines({ count, line, version, wrap = false }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [columns, setColumns] = useState(120);
  const atBottom = useRef(true);

  // Characters per row: the text width over one character's width (measured once the font is in place).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const charWidth = (probe.current?.getBoundingClientRect().width ?? 72) / 10;
      setColumns(Math.max(20, Math.floor((el.clientWidth - 2 * PADDING) / charWidth)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const layout = useMemo(
    () =>
      wrap
        ? wrappedLayout(
            count,
            (i) => {
              const l = line(i);
              return l ? displayText(l).length : 0;
            },
            columns,
          )
        : undefined,
    // `line` reads a buffer mutated in place: `version` says when it changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [wrap, count, columns, version],
  );
  const totalRows = layout ? layout.totalRows : count;

  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) {
      el.scrollTop = el.scrollHeight;
      setScrollTop(el.scrollTop);
    }
  }, [version, count, wrap]);

  const firstRow = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const lastRow = Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN;
  const first = layout ? layout.lineAtRow(firstRow) : firstRow;
  const last = Math.min(count, layout ? layout.lineAtRow(lastRow) + 1 : lastRow);
  const rows = [];
  let widest = 0;
  for (let i = first; i < last; i++) {
    const l = line(i);
    if (!l) continue;
    const text = displayText(l);
    widest = Math.max(widest, text.length);
    const top = (layout ? layout.rowOf(i) : i) * ROW_HEIGHT;
    const height = (layout ? layout.rowsOf(i) : 1) * ROW_HEIGHT;
    rows.push(
      <div
        key={l.seq}
        data-testid="training-log-line"
        style={{
          position: 'absolute',
          top,
          left: PADDING,
          height,
          lineHeight: `${ROW_HEIGHT}px`,
          overflow: 'hidden',
          color: l.note ? '#8d6605' : undefined,
          ...(wrap
            ? { right: PADDING, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }
            : { whiteSpace: 'pre', minWidth: `calc(100% - ${2 * PADDING}px)` }),
        }}
      >
        {text}
      </div>,
    );
  }
  return (
    <div
      ref={box}
      data-testid="training-log-lines"
      data-count={count}
      data-wrap={wrap}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
        setScrollTop(el.scrollTop);
      }}
      style={{
        height: VIEW_HEIGHT,
        overflow: 'auto',
        position: 'relative',
        ...FONT,
        background: '#0f1b2a',
        color: '#d1d5db',
        borderRadius: 8,
      }}
    >
      <span ref={probe} aria-hidden style={{ position: 'absolute', visibility: 'hidden', whiteSpace: 'pre' }}>
        0123456789
      </span>
      {/* Unwrapped, the spacer is as wide as the longest line in view, so the view scrolls sideways to its end. */}
      <div
        style={{
          height: totalRows * ROW_HEIGHT,
          position: 'relative',
          ...(wrap ? {} : { width: `calc(${widest}ch + ${2 * PADDING}px)`, minWidth: '100%' }),
        }}
      >
        {rows}
      </div>
    </div>
  );
}
