import { createHash } from 'node:crypto';

/**
 * The models the Hugging Face Hub simulation knows: a few public ones (one with a tag besides
 * `main`) and one gated. Names are real Hub repositories so a demo reads naturally, but every file
 * is a small stand-in (a few bytes to a few MiB) with deterministic content: the same file of the
 * same commit always has the same bytes, so its size, sha256 and git blob id are stable and what a
 * download writes can be compared byte for byte. Commit hashes are derived from the repository and
 * the revision name, so they never change between runs.
 */

export type Gating = false | 'auto' | 'manual';

export interface HubFile {
  /** Path in the repository (`rfilename`), e.g. `model.safetensors` or `onnx/model.onnx`. */
  path: string;
  size: number;
  /** Stored with Git LFS (weights): the Hub reports `lfs {sha256, size, pointerSize}`. */
  lfs: boolean;
}

export interface HubCommit {
  sha: string;
  files: HubFile[];
  /** Sandbox-independent date of the commit (the Hub's `lastModified`). */
  date: string;
}

export interface HubModel {
  id: string;
  gated: Gating;
  pipelineTag: string;
  libraryName: string;
  tags: string[];
  downloads: number;
  likes: number;
  createdAt: string;
  /** Branch and tag names → commit; `main` is the default branch. */
  refs: ReadonlyMap<string, HubCommit>;
}

const KiB = 1024;
const MiB = 1024 * KiB;

/** A 40-hex commit hash derived from the repository and the ref. */
const commitSha = (repo: string, ref: string) => createHash('sha1').update(`commit|${repo}|${ref}`).digest('hex');

const text = (path: string, size: number): HubFile => ({ path, size, lfs: false });
const weights = (path: string, size: number): HubFile => ({ path, size, lfs: true });

function model(
  id: string,
  details: Omit<HubModel, 'id' | 'refs'>,
  refs: Record<string, { files: HubFile[]; date: string }>,
): HubModel {
  return {
    id,
    ...details,
    refs: new Map(
      Object.entries(refs).map(([ref, c]) => [ref, { sha: commitSha(id, ref), files: c.files, date: c.date }]),
    ),
  };
}

const GPT2_FILES = [
  text('.gitattributes', 1_519),
  text('README.md', 8_092),
  text('config.json', 665),
  text('generation_config.json', 124),
  text('merges.txt', 120 * KiB),
  text('tokenizer.json', 310 * KiB),
  text('vocab.json', 240 * KiB),
  weights('model.safetensors', 3 * MiB),
];

const QWEN_MAIN = [
  text('.gitattributes', 1_519),
  text('LICENSE', 11_343),
  text('README.md', 4_917),
  text('config.json', 659),
  text('generation_config.json', 242),
  text('merges.txt', 160 * KiB),
  text('tokenizer.json', 420 * KiB),
  text('tokenizer_config.json', 7_305),
  text('vocab.json', 270 * KiB),
  weights('model.safetensors', 4 * MiB),
];

export const HUB_MODELS: readonly HubModel[] = [
  model(
    'openai-community/gpt2',
    {
      gated: false,
      pipelineTag: 'text-generation',
      libraryName: 'transformers',
      tags: ['transformers', 'safetensors', 'gpt2', 'text-generation', 'en', 'license:mit'],
      downloads: 11_873_406,
      likes: 2_905,
      createdAt: '2022-03-02T23:29:04.000Z',
    },
    { main: { files: GPT2_FILES, date: '2024-02-19T10:57:45.000Z' } },
  ),
  model(
    'Qwen/Qwen2.5-0.5B-Instruct',
    {
      gated: false,
      pipelineTag: 'text-generation',
      libraryName: 'transformers',
      tags: [
        'transformers',
        'safetensors',
        'qwen2',
        'text-generation',
        'chat',
        'conversational',
        'en',
        'license:apache-2.0',
      ],
      downloads: 1_530_127,
      likes: 338,
      createdAt: '2024-09-16T11:52:47.000Z',
    },
    {
      main: { files: QWEN_MAIN, date: '2024-09-25T12:32:56.000Z' },
      // An older tagged snapshot: fewer files, so a revision visibly changes what lands.
      'v1.0': {
        files: QWEN_MAIN.filter((f) => !['LICENSE', 'tokenizer_config.json'].includes(f.path)),
        date: '2024-09-18T08:00:00.000Z',
      },
    },
  ),
  model(
    'sentence-transformers/all-MiniLM-L6-v2',
    {
      gated: false,
      pipelineTag: 'sentence-similarity',
      libraryName: 'sentence-transformers',
      tags: [
        'sentence-transformers',
        'pytorch',
        'onnx',
        'safetensors',
        'bert',
        'feature-extraction',
        'en',
        'license:apache-2.0',
      ],
      downloads: 84_223_590,
      likes: 3_684,
      createdAt: '2022-03-02T23:29:05.000Z',
    },
    {
      main: {
        files: [
          text('.gitattributes', 1_229),
          text('README.md', 10_454),
          text('config.json', 612),
          text('modules.json', 349),
          text('sentence_bert_config.json', 53),
          text('tokenizer.json', 455 * KiB),
          text('vocab.txt', 226 * KiB),
          weights('model.safetensors', 2 * MiB),
          weights('onnx/model.onnx', 1 * MiB),
        ],
        date: '2024-11-01T10:26:30.000Z',
      },
    },
  ),
  model(
    'meta-llama/Llama-3.2-1B',
    {
      gated: 'manual',
      pipelineTag: 'text-generation',
      libraryName: 'transformers',
      tags: [
        'transformers',
        'safetensors',
        'llama',
        'text-generation',
        'facebook',
        'meta',
        'pytorch',
        'llama-3',
        'license:llama3.2',
      ],
      downloads: 1_982_311,
      likes: 2_041,
      createdAt: '2024-09-18T15:03:14.000Z',
    },
    {
      main: {
        files: [
          text('.gitattributes', 1_519),
          text('LICENSE.txt', 7_712),
          text('README.md', 41_742),
          text('USE_POLICY.md', 6_021),
          text('config.json', 843),
          text('generation_config.json', 185),
          text('tokenizer.json', 512 * KiB),
          text('tokenizer_config.json', 50_500),
          weights('model.safetensors', 5 * MiB),
        ],
        date: '2024-10-24T15:07:13.000Z',
      },
    },
  ),
];

/** The model with this id (ids are case-sensitive on the Hub's API), or undefined. */
export const findModel = (id: string): HubModel | undefined => HUB_MODELS.find((m) => m.id === id);

/**
 * The commit a revision names: a branch or tag (`HEAD` is the default branch, as the JS client
 * asks), or a full 40-hex commit hash of the model; undefined when it names nothing.
 */
export function resolveRevision(model: HubModel, revision: string): (HubCommit & { ref: string }) | undefined {
  const ref = revision === 'HEAD' ? 'main' : revision;
  const byRef = model.refs.get(ref);
  if (byRef) return { ...byRef, ref };
  for (const [name, commit] of model.refs) if (commit.sha === revision) return { ...commit, ref: name };
  return undefined;
}
