import type { FlashbarProps } from '@cloudscape-design/components/flashbar';
import { ProblemError } from '@kit/api/client.js';
import { type FormWords, inFormWords } from '@kit/lib/format.js';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

export interface Notice {
  type: 'success' | 'error' | 'warning' | 'info';
  header: string;
  content?: ReactNode;
  /** Stays until dismissed when false; success and info notices go after 8 s by default. */
  autoDismiss?: boolean;
}

interface NotificationsValue {
  items: FlashbarProps.MessageDefinition[];
  notify(notice: Notice): void;
  notifyError(header: string, error: unknown): void;
}

const NotificationsContext = createContext<NotificationsValue>({
  items: [],
  notify: () => undefined,
  notifyError: () => undefined,
});

/** The problem+json `detail` and every `errors[].path: message`, as the user should read them. */
/** A problem as a sentence and its fields' messages; `words`: the form's own words for the request fields it names. */
export function ProblemText({ error, words }: { error: unknown; words?: FormWords }) {
  if (!(error instanceof ProblemError)) return <>{error instanceof Error ? error.message : String(error)}</>;
  const fields = error.fieldMessages.map((m) => inFormWords(m, words));
  return (
    <>
      {inFormWords(error.problem.detail ?? error.problem.title ?? '', words)}
      {error.problem.code ? ` (${error.problem.code})` : ''}
      {fields.length > 0 && (
        <ul data-testid="problem-field-errors" style={{ margin: '4px 0 0', paddingLeft: 20 }}>
          {fields.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
    </>
  );
}

let nextId = 1;

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<FlashbarProps.MessageDefinition[]>([]);
  const dismiss = useCallback((id: string) => setItems((list) => list.filter((i) => i.id !== id)), []);
  const notify = useCallback(
    (notice: Notice) => {
      const id = `n${nextId++}`;
      const item: FlashbarProps.MessageDefinition = {
        id,
        type: notice.type,
        header: notice.header,
        content: notice.content,
        dismissible: true,
        dismissLabel: 'Dismiss',
        onDismiss: () => dismiss(id),
      };
      setItems((list) => [item, ...list].slice(0, 5));
      if (notice.autoDismiss ?? (notice.type === 'success' || notice.type === 'info'))
        setTimeout(() => dismiss(id), 8000);
    },
    [dismiss],
  );
  const notifyError = useCallback(
    (header: string, error: unknown) => notify({ type: 'error', header, content: <ProblemText error={error} /> }),
    [notify],
  );
  const value = useMemo(() => ({ items, notify, notifyError }), [items, notify, notifyError]);
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>;
}

export function useNotifications(): NotificationsValue {
  return useContext(NotificationsContext);
}
