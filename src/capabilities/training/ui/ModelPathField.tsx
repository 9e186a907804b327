import Autosuggest from '@cloudscape-design/components/autosuggest';
import type { ModelDownloadView } from '@domain/schemas/model-downloads.js';
import { DATA_ROOT } from '@domain/training/data-contract.js';
import { useModelDownloads } from '../../model-downloads/ui/index.js';

/** The recipe parameter that names the model folder (every recipe with a model calls it so: ModelPathSchema). */
export const MODEL_PATH_PARAM = 'modelPath';

/** Where a download's files are in a job's pods: the storage is mounted at /data. */
export const mountedPath = (d: Pick<ModelDownloadView, 'path'>) => `${DATA_ROOT}/${d.path.replace(/\/+$/, '')}`;

interface Props {
  cluster: string;
  region: string;
  value: string;
  onChange(value: string): void;
  /** The storage chosen for /data, and the storages the job's namespace can mount. */
  storage: string;
  storages: readonly string[];
  /** Choosing a model in another storage mounts that storage instead. */
  onStorage(storage: string): void;
}

/**
 * The model folder: a model downloaded into one of the namespace's storages is chosen from a list (its path under
 * /data, and its storage chosen with it); any other folder can still be typed.
 */
export function ModelPathField({ cluster, region, value, onChange, storage, storages, onStorage }: Props) {
  const downloads = useModelDownloads(cluster, region);
  const landed = (downloads.data?.downloads ?? []).filter(
    (d) => d.status === 'succeeded' && storages.includes(d.storage),
  );
  // The chosen storage's models first: picking one of them leaves the storage as it is.
  const ordered = [...landed.filter((d) => d.storage === storage), ...landed.filter((d) => d.storage !== storage)];
  const options = ordered.map((d) => ({
    value: mountedPath(d),
    label: `${d.modelId} @ ${d.revision}`,
    description: `${mountedPath(d)} · storage ${d.storage}`,
    tags: [d.storage],
  }));
  return (
    <Autosuggest
      value={value}
      onChange={({ detail }) => onChange(detail.value)}
      onSelect={({ detail }) => {
        const picked = ordered.find((d) => mountedPath(d) === detail.value);
        if (picked && picked.storage !== storage) onStorage(picked.storage);
      }}
      options={options}
      filteringType="none"
      enteredTextLabel={(v) => `Use ${v}`}
      statusType={downloads.isLoading ? 'loading' : 'finished'}
      loadingText="Reading the cluster's model downloads"
      empty={
        storages.length === 0
          ? 'No storage in this namespace'
          : 'No model downloaded into these storages yet: download one on the Models tab, or type a folder under /data.'
      }
      placeholder={`${DATA_ROOT}/models/<owner>/<name>/<revision>`}
      ariaLabel="Model folder"
      data-testid="training-model-path"
    />
  );
}
