import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import ColumnLayout from '@cloudscape-design/components/column-layout';
import Container from '@cloudscape-design/components/container';
import ExpandableSection from '@cloudscape-design/components/expandable-section';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useEffect, useRef, useState } from 'react';
import type { EndpointRef } from './api.js';
import { type ChatMessage, type ChatProgress, streamChat } from './stream-chat.js';

interface Props {
  cluster: string;
  region: string;
  endpoint: EndpointRef;
  /** Whether any replica is ready: before that a request has nowhere to go. */
  ready: boolean;
}

interface Turn {
  message: ChatMessage;
  /** The assistant's turns: what served it and how fast. */
  stats?: ChatProgress;
}

const bubble = (role: ChatMessage['role']) =>
  ({
    padding: '8px 12px',
    borderRadius: 8,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    background: role === 'user' ? '#f2f8fd' : '#f4f4f4',
    border: `1px solid ${role === 'user' ? '#b8d9f5' : '#e0e0e0'}`,
  }) as const;

const ms = (n: number | undefined) => (n === undefined ? undefined : `${Math.round(n)} ms`);

/** "Served by pod-a · first token 12 ms · 340 ms in all · 24 tokens". */
export function statsText(p: ChatProgress): string {
  return [
    p.servedBy ? `Served by ${p.servedBy}` : undefined,
    p.firstTokenMs !== undefined ? `first token ${ms(p.firstTokenMs)}` : undefined,
    p.totalMs !== undefined ? `${ms(p.totalMs)} in all` : undefined,
    p.latencyMs !== undefined ? `${ms(p.latencyMs)} at the server` : undefined,
    p.usage ? `${p.usage.completionTokens} tokens` : undefined,
    p.truncated ? 'cut short' : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * Try the model: a chat sent to the endpoint through the server and the Kubernetes API's service proxy, streamed, so
 * tokens show as they are generated; under each answer the pod that served it and the time it took.
 */
export function ChatBox({ cluster, region, endpoint, ready }: Props) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [draft, setDraft] = useState('');
  const [system, setSystem] = useState('');
  const [maxTokens, setMaxTokens] = useState('256');
  const [streaming, setStreaming] = useState<ChatProgress | undefined>();
  const [error, setError] = useState<unknown>();
  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => abort.current?.abort(), []);

  const send = async () => {
    const content = draft.trim();
    if (!content || streaming) return;
    const history = [...turns, { message: { role: 'user' as const, content } }];
    setTurns(history);
    setDraft('');
    setError(undefined);
    setStreaming({ content: '' });
    const controller = new AbortController();
    abort.current = controller;
    const messages: ChatMessage[] = [
      ...(system.trim() ? [{ role: 'system' as const, content: system.trim() }] : []),
      ...history.map((t) => t.message),
    ];
    try {
      const done = await streamChat({
        cluster,
        region,
        endpoint,
        messages,
        maxTokens: Number(maxTokens) || undefined,
        signal: controller.signal,
        onProgress: setStreaming,
      });
      setTurns([...history, { message: { role: 'assistant', content: done.content }, stats: done }]);
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setError(err);
      setTurns(history);
    } finally {
      setStreaming(undefined);
      abort.current = undefined;
    }
  };

  const shown: Turn[] = streaming
    ? [...turns, { message: { role: 'assistant', content: streaming.content }, stats: streaming }]
    : turns;
  return (
    <Container
      data-testid="inference-chat"
      header={
        <Header
          variant="h2"
          description="Chat with the model through the Kubernetes API's service proxy: nothing to port-forward."
          actions={
            <Button onClick={() => setTurns([])} disabled={turns.length === 0 || !!streaming}>
              Clear
            </Button>
          }
        >
          Try it
        </Header>
      }
    >
      <SpaceBetween size="m">
        {!ready && (
          <Alert type="info" data-testid="inference-chat-not-ready">
            No replica is ready yet: the chat answers once one is.
          </Alert>
        )}
        <SpaceBetween size="s">
          {shown.map((t, i) => (
            <div
              // Turns are only appended: their index is their identity.
              key={i}
              data-testid={`inference-chat-${t.message.role}`}
              data-streaming={streaming && i === shown.length - 1 ? 'true' : undefined}
            >
              <Box variant="small" color="text-status-inactive">
                {t.message.role === 'user' ? 'You' : 'Model'}
              </Box>
              <div style={bubble(t.message.role)} data-testid="inference-chat-text">
                {t.message.content || (streaming ? '…' : '')}
              </div>
              {t.stats && t.message.role === 'assistant' && statsText(t.stats) && (
                <Box variant="small" color="text-status-inactive" data-testid="inference-chat-stats">
                  {statsText(t.stats)}
                </Box>
              )}
            </div>
          ))}
        </SpaceBetween>
        {error !== undefined && (
          <Alert type="error" header="The model did not answer" data-testid="inference-chat-error">
            <ProblemText error={error} />
          </Alert>
        )}
        <FormField label="Message" stretch data-testid="inference-chat-input">
          <Textarea
            value={draft}
            onChange={({ detail }) => setDraft(detail.value)}
            onKeyDown={(event) => {
              if (event.detail.key !== 'Enter' || event.detail.shiftKey || event.detail.ctrlKey) return;
              event.preventDefault();
              void send();
            }}
            rows={2}
            placeholder="Ask the model something (Enter sends, Shift+Enter for a new line)"
          />
        </FormField>
        <SpaceBetween direction="horizontal" size="xs">
          <Button
            variant="primary"
            onClick={() => void send()}
            disabled={!draft.trim() || !!streaming}
            data-testid="inference-chat-send"
          >
            Send
          </Button>
          {streaming && (
            <Button onClick={() => abort.current?.abort()} data-testid="inference-chat-stop">
              Stop
            </Button>
          )}
        </SpaceBetween>
        <ExpandableSection headerText="Options">
          <ColumnLayout columns={2}>
            <FormField label="System prompt" constraintText="Optional">
              <Input value={system} onChange={({ detail }) => setSystem(detail.value)} />
            </FormField>
            <FormField label="Most tokens in the answer">
              <Input value={maxTokens} inputMode="numeric" onChange={({ detail }) => setMaxTokens(detail.value)} />
            </FormField>
          </ColumnLayout>
        </ExpandableSection>
      </SpaceBetween>
    </Container>
  );
}
