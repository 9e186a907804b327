import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import type { FlashbarProps } from '@cloudscape-design/components/flashbar';
import { keys } from '@kit/api/queries.js';
import { useConfig } from '@kit/api/server-config.js';
import type { CloudAccessProblem, ServerConfig } from '@kit/api/types.js';
import { useCloudClockNote } from '@kit/hooks/cloud-clock.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { formatTime, inFormWords } from '@kit/lib/format.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { checkCredentials } from '../../../src/capabilities/system/ui/index.js';

const HEADLINES: Record<CloudAccessProblem['code'], string> = {
  NoCredentials: 'No AWS credentials',
  CredentialsRejected: 'AWS refused the credentials',
  CloudUnreachable: 'AWS did not answer',
  DataDirectoryInUse: 'Another InstantStart server uses this account',
};

/** Why the server cannot act on AWS, what to do, and a "Check again" that needs no restart. */
function NotConnected({ config }: { config: ServerConfig }) {
  const problem = config.cloudAccess.problem;
  return (
    <Box data-testid="cloud-access-problem" data-code={problem?.code ?? ''}>
      <Box variant="p">{problem?.message ?? 'The server cannot act on AWS yet.'}</Box>
      {problem?.remedy && (
        <Box variant="p">
          <span data-testid="cloud-access-remedy" style={{ whiteSpace: 'pre-line' }}>
            {inFormWords(problem.remedy, undefined)}
          </span>
        </Box>
      )}
      <Box variant="small" color="inherit">
        Nothing can be listed or created until then. Last checked {formatTime(config.cloudAccess.checkedAt)}.
      </Box>
    </Box>
  );
}

/**
 * The notice saying which cloud this server uses and whether it costs money (dismissible once per
 * session), or — while `--cloud aws` has no usable credentials — the problem, its remedy and a
 * "Check again" button (not dismissible: nothing works until it is solved).
 */
export function useCloudNotice(): FlashbarProps.MessageDefinition[] {
  const config = useConfig();
  const clockNote = useCloudClockNote();
  const qc = useQueryClient();
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem('instantstart.cloudNotice') === 'dismissed');
  const check = useMutation({
    mutationFn: checkCredentials,
    onSuccess: (next) => {
      qc.setQueryData(keys.config, next);
      // Everything that answered 503 before can answer now.
      if (next.cloudAccess.ready) void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== keys.config[0] });
    },
  });
  if (!config.data) return [];
  const data = config.data;
  if (!data.cloudAccess.ready) {
    return [
      {
        id: 'cloud-access',
        type: 'error',
        header: `Not connected to AWS: ${HEADLINES[data.cloudAccess.problem?.code ?? 'NoCredentials']}`,
        content: (
          <>
            <NotConnected config={data} />
            {check.error && (
              <Box variant="small" color="text-status-error">
                The check itself failed: <ProblemText error={check.error} />
              </Box>
            )}
          </>
        ),
        action: (
          <Button data-testid="cloud-access-check" loading={check.isPending} onClick={() => check.mutate()}>
            Check again
          </Button>
        ),
      },
    ];
  }
  if (dismissed) return [];
  const dismiss = () => {
    sessionStorage.setItem('instantstart.cloudNotice', 'dismissed');
    setDismissed(true);
  };
  const sandbox = data.cloud === 'sandbox';
  return [
    {
      id: 'cloud-notice',
      type: sandbox ? 'info' : 'warning',
      header: sandbox ? 'Sandbox cloud' : `AWS account ${data.accountId ?? ''} (${data.region})`,
      content: sandbox
        ? `This server runs on the local sandbox cloud: clusters, nodes and storage are simulated, nothing is created in AWS and nothing costs money.${clockNote ? ` ${clockNote}` : ''}`
        : 'This server calls real AWS: clusters, instances and storage you create here are billed to this account.',
      dismissible: true,
      dismissLabel: 'Dismiss',
      onDismiss: dismiss,
    },
  ];
}
