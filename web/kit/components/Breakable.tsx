import { Fragment } from 'react';

/**
 * A long identifier (a model id, an S3 URI, a Kubernetes object's name) that may wrap after its separators
 * (`/`, `-`, `.`, `_`, `:`) and nowhere else: a narrow column wraps it at a readable place instead of squeezing it
 * to one letter per line (what `overflow-wrap: anywhere` does to a table's column).
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[/\-._:])/);
  return (
    <span style={{ overflowWrap: 'break-word' }}>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {p}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}
