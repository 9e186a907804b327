import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { defaultDownloadPath } from '@domain/model-downloads.js';
import { StartModelDownloadRequestSchema } from '@domain/schemas/model-downloads.js';
import { ProblemError } from '@kit/api/client.js';
import type { Accepted } from '@kit/api/types.js';
import { ProblemText } from '@kit/hooks/notifications.js';
import { useMemo, useState } from 'react';
import { type StartModelDownloadInput, useStartModelDownload } from './api.js';

const fields = StartModelDownloadRequestSchema.shape;
const FIELDS = ['modelId', 'revision', 'storage', 'prefix', 'token'] as const;
type Field = (typeof FIELDS)[number];

/** The schema's own message for a value, or undefined when it is valid (empty optional fields are fine). */
function problemOf(field: Field, value: string): string | undefined {
  if (value === '' && field !== 'modelId' && field !== 'storage') return undefined;
  const r = fields[field].safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}

interface Props {
  cluster: string;
  region: string;
  /** The cluster's S3 storages (claim names). */
  storages: string[];
  onDismiss(): void;
  onStarted(accepted: Accepted): void;
}

/**
 * Start a model download: model id, revision, storage, optional folder and an access token for
 * gated models (a password field: it is sent once, kept only in a Kubernetes Secret and never shown
 * again). The server checks the model on the Hub before anything is created; a refusal shows under
 * the field it names.
 */
export function StartDownloadModal({ cluster, region, storages, onDismiss, onStarted }: Props) {
  const [values, setValues] = useState<Record<Field, string>>({
    modelId: '',
    revision: '',
    storage: storages[0] ?? '',
    prefix: '',
    token: '',
  });
  const [touched, setTouched] = useState(false);
  // One key per opened form: a double click or a retry after a lost answer starts one download.
  const key = useMemo(() => `ui-model-download-${crypto.randomUUID()}`, []);
  const start = useStartModelDownload(cluster, region, onStarted);
  const set =
    (field: Field) =>
    ({ detail }: { detail: { value: string } }) =>
      setValues((v) => ({ ...v, [field]: detail.value }));
  const serverProblem = (field: Field) =>
    start.error instanceof ProblemError
      ? start.error.problem.errors?.find((e) => e.path === field)?.message
      : undefined;
  const errorOf = (field: Field) => (touched ? problemOf(field, values[field]) : undefined) ?? serverProblem(field);
  const invalid = FIELDS.some((f) => problemOf(f, values[f]));
  const submit = () => {
    setTouched(true);
    if (invalid) return;
    const body: StartModelDownloadInput = {
      modelId: values.modelId.trim(),
      storage: values.storage,
      ...(values.revision.trim() ? { revision: values.revision.trim() } : {}),
      ...(values.prefix.trim() ? { prefix: values.prefix.trim() } : {}),
      ...(values.token ? { token: values.token } : {}),
    };
    start.mutate({ body, key });
  };
  const validModel = !problemOf('modelId', values.modelId) && values.modelId !== '';
  const path = validModel
    ? defaultDownloadPath(values.modelId.trim(), values.revision.trim() || 'main')
    : 'models/<owner>/<name>/<revision>';
  return (
    <Modal
      visible
      onDismiss={onDismiss}
      header={`Download a model into ${cluster}`}
      data-testid="model-download-modal"
      footer={
        <Box float="right">
          <SpaceBetween direction="horizontal" size="xs">
            <Button variant="link" onClick={onDismiss}>
              Cancel
            </Button>
            <Button
              variant="primary"
              loading={start.isPending}
              disabled={storages.length === 0}
              onClick={submit}
              data-testid="model-download-submit"
            >
              Download
            </Button>
          </SpaceBetween>
        </Box>
      }
    >
      <Form>
        <SpaceBetween size="m">
          <FormField
            label="Model"
            description="Hugging Face Hub model id, owner/name."
            errorText={errorOf('modelId')}
            data-testid="model-download-model"
          >
            <Input
              value={values.modelId}
              onChange={set('modelId')}
              placeholder="Qwen/Qwen2.5-0.5B-Instruct"
              autoFocus
            />
          </FormField>
          <FormField
            label="Revision"
            description="Branch, tag or commit."
            constraintText="Default: main"
            errorText={errorOf('revision')}
            data-testid="model-download-revision"
          >
            <Input value={values.revision} onChange={set('revision')} placeholder="main" />
          </FormField>
          <FormField
            label="Storage"
            description="The cluster's S3 storage the files land in."
            errorText={storages.length === 0 ? 'The cluster has no S3 storage yet.' : serverProblem('storage')}
            data-testid="model-download-storage"
          >
            <Select
              selectedOption={values.storage ? { value: values.storage, label: values.storage } : null}
              onChange={({ detail }) => setValues((v) => ({ ...v, storage: detail.selectedOption.value ?? '' }))}
              options={storages.map((s) => ({ value: s, label: s }))}
              placeholder="Choose a storage"
            />
          </FormField>
          <FormField
            label="Folder"
            description="Where the files go inside the storage."
            constraintText={`Default: ${path}`}
            errorText={errorOf('prefix')}
            data-testid="model-download-prefix"
          >
            <Input value={values.prefix} onChange={set('prefix')} placeholder={path} />
          </FormField>
          <FormField
            label={
              <span>
                Access token <i>- optional</i>
              </span>
            }
            description="Only for gated or private models. Kept in a Kubernetes Secret for the download's Job and deleted when it ends; never stored or shown by InstantStart."
            errorText={errorOf('token')}
            data-testid="model-download-token"
          >
            <Input
              type="password"
              value={values.token}
              onChange={set('token')}
              placeholder="hf_…"
              autoComplete={false}
            />
          </FormField>
          {start.error && !FIELDS.some((f) => serverProblem(f)) && (
            <Alert type="error" header="The download was not started" data-testid="model-download-error">
              <ProblemText error={start.error} />
            </Alert>
          )}
        </SpaceBetween>
      </Form>
    </Modal>
  );
}
