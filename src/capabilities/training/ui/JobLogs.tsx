import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import Header from '@cloudscape-design/components/header';
import Input from '@cloudscape-design/components/input';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Toggle from '@cloudscape-design/components/toggle';
import type { RankView } from '@domain/schemas/training.js';
import { apiToken } from '@kit/api/client.js';
import { useDebounced } from '@kit/hooks/use-debounced.js';
import { useMemo, useState } from 'react';
import { jobLogsDownloadUrl } from './api.js';
import { LogLines } from './LogLines.js';
import { LogStreamStatus } from '@kit/components/LogStreamStatus.js';
import { LOG_CAPACITY } from '@kit/hooks/use-log-stream.js';
import { TAIL_LINES, useJobLogStream } from './use-job-log-stream.js';

interface Props {
  cluster: string;
  region: string;
  namespace: string;
  job: string;
  ranks: readonly RankView[];
}

/**
 * The whole log, as the server streams it (format=text). A link the browser saves as it comes; with an
 * API token (a server bound beyond loopback) the request needs its header, so it is fetched first.
 */
async function download(url: string, name: string): Promise<void> {
  const a = document.createElement('a');
  a.download = name;
  const token = apiToken();
  if (!token) {
    a.href = url;
    a.click();
    return;
  }
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const blob = URL.createObjectURL(await res.blob());
  a.href = blob;
  a.click();
  setTimeout(() => URL.revokeObjectURL(blob), 1000);
}

/**
 * Live logs of one rank or all ranks merged ([rank N] prefixes), over the job's follow WebSocket:
 * the tail, then new lines. The newest 50 000 lines are kept and only the visible ones drawn. Search
 * filters what is held at once; Reconnect asks the server for matching lines only (grep). Download
 * is the whole log from the server, not only what the viewer holds.
 */
export function JobLogs({ cluster, region, namespace, job, ranks }: Props) {
  const [rank, setRank] = useState<'all' | number>('all');
  const [search, setSearch] = useState('');
  const [grep, setGrep] = useState<string | undefined>();
  const [paused, setPausedState] = useState(false);
  // Long lines scroll sideways by default; wrapped, each shows whole.
  const [wrap, setWrap] = useState(false);
  const stream = useJobLogStream({ cluster, region, namespace, job, rank, grep });
  const needle = useDebounced(search, 150);

  // With a search, the indexes of matching lines; recomputed as lines arrive (at most one frame's batch each time).
  const matches = useMemo(() => {
    if (!needle) return undefined;
    const out: number[] = [];
    for (let i = 0; i < stream.ring.length; i++) {
      const l = stream.ring.at(i)!;
      if (!l.note && l.text.includes(needle)) out.push(i);
    }
    return out;
  }, [needle, stream.version, stream.ring]);
  const count = matches ? matches.length : stream.ring.length;
  const line = (i: number) => stream.ring.at(matches ? matches[i]! : i);

  const rankOptions = [
    { value: 'all', label: 'All ranks' },
    ...ranks.map((r) => ({
      value: String(r.rank),
      label: `Rank ${r.rank}${r.role === 'submitter' ? ' (submitter)' : ''}`,
      description: r.pod,
    })),
  ];
  const togglePause = () => {
    stream.setPaused(!paused);
    setPausedState(!paused);
  };
  const reconnect = () => {
    setGrep(search.trim() || undefined);
    stream.reconnect();
  };
  const held = stream.ring.length;
  return (
    <Container
      data-testid="training-logs"
      header={
        <Header
          variant="h2"
          description={`The last ${TAIL_LINES} lines per rank, then new lines live. The viewer keeps the newest ${LOG_CAPACITY.toLocaleString()} lines (${held.toLocaleString()} held${stream.ring.evicted ? `, ${stream.ring.evicted.toLocaleString()} older dropped` : ''}).`}
          actions={
            <SpaceBetween direction="horizontal" size="xs" alignItems="center">
              <Toggle
                checked={wrap}
                onChange={({ detail }) => setWrap(detail.checked)}
                data-testid="training-logs-wrap"
              >
                Wrap lines
              </Toggle>
              <Button onClick={togglePause} data-testid="training-logs-pause">
                {paused ? 'Follow' : 'Pause'}
              </Button>
              <Button
                iconName="download"
                onClick={() =>
                  void download(
                    jobLogsDownloadUrl(cluster, region, { namespace, job }, rank),
                    `${job}${rank === 'all' ? '' : `-rank-${rank}`}.log`,
                  )
                }
                data-testid="training-logs-download"
              >
                Download
              </Button>
            </SpaceBetween>
          }
        >
          Logs
        </Header>
      }
    >
      <SpaceBetween size="s">
        <SpaceBetween direction="horizontal" size="s">
          <div style={{ minWidth: 200 }} data-testid="training-logs-rank">
            <Select
              selectedOption={rankOptions.find((o) => o.value === String(rank)) ?? rankOptions[0]!}
              options={rankOptions}
              onChange={({ detail }) =>
                setRank(detail.selectedOption.value === 'all' ? 'all' : Number(detail.selectedOption.value))
              }
            />
          </div>
          <div style={{ minWidth: 320 }} data-testid="training-logs-search">
            <Input
              type="search"
              value={search}
              onChange={({ detail }) => setSearch(detail.value)}
              placeholder="Search the lines held"
            />
          </div>
          {search.trim() && search.trim() !== grep && (
            <Button onClick={reconnect} data-testid="training-logs-server-search">
              Search the server
            </Button>
          )}
          {grep && (
            <Button
              iconName="close"
              onClick={() => {
                setSearch('');
                setGrep(undefined);
              }}
              data-testid="training-logs-clear-grep"
            >
              {`Server filter: ${grep}`}
            </Button>
          )}
          <LogStreamStatus
            testId="training-logs"
            status={stream.status}
            pending={stream.pending}
            onReconnect={reconnect}
          />
        </SpaceBetween>
        <LogLines count={count} line={line} version={stream.version} wrap={wrap} />
        {matches && (
          <Box
            variant="small"
            data-testid="training-logs-matches"
          >{`${matches.length} of ${held - stream.ring.notes} lines match`}</Box>
        )}
      </SpaceBetween>
    </Container>
  );
}
