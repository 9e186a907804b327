import { CloudError, cloudTimeout } from '../../domain/errors.js';
import { DEFAULT_CLOUD_TIMEOUTS, secondsOf } from '../timeouts.js';

/**
 * The Hugging Face Hub's HTTP API, as downloaders use it (huggingface_hub's `model_info` and
 * `get_hf_file_metadata`): model information at a revision with its files' sizes, and whether a
 * file can be read with a token. The base URL is huggingface_hub's own setting, `HF_ENDPOINT`
 * (default https://huggingface.co), read from this server's environment like the AWS SDK reads
 * AWS_ENDPOINT_URL — so the sandbox's Hub simulation is reached exactly as the Hub is.
 *
 * Every call has a deadline. The Hub's refusals come back as HubRefusal (status, `X-Error-Code`,
 * its message) for the caller to name the field at fault; a Hub that cannot be reached is a
 * CloudError (502, or the retryable TimeoutError). A token is sent only as the Authorization
 * header and never appears in an error.
 */

export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

/** The Hub this server talks to: HF_ENDPOINT without a trailing slash, or the public Hub. */
export const hubEndpointFromEnvironment = (env: NodeJS.ProcessEnv = process.env): string =>
  (env.HF_ENDPOINT?.trim() || DEFAULT_HUB_ENDPOINT).replace(/\/+$/, '');

export interface HubModelRevision {
  id: string;
  /** The commit the revision resolved to. */
  sha: string;
  gated: false | 'auto' | 'manual';
  private: boolean;
  files: Array<{ path: string; size: number }>;
  totalBytes: number;
}

export interface HubRefusalOptions {
  status: number;
  /** The Hub's `X-Error-Code`, when it sent one. */
  code: string | undefined;
  message: string;
}

/** The Hub said no: its status, its `X-Error-Code` (RepoNotFound, RevisionNotFound, GatedRepo, …) and its sentence. */
export class HubRefusal extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor({ status, code, message }: HubRefusalOptions) {
    super(message);
    this.status = status;
    this.code = code;
    this.name = 'HubRefusal';
  }
}

export class HuggingFaceHub {
  constructor(
    readonly endpoint: string = hubEndpointFromEnvironment(),
    private readonly timeoutMs: number = DEFAULT_CLOUD_TIMEOUTS.requestMs,
  ) {}

  /** `GET /api/models/{repo}/revision/{rev}?blobs=true`: the commit, the gate and every file with its size. */
  async modelRevision(modelId: string, revision: string, token?: string): Promise<HubModelRevision> {
    const res = await this.call(
      'ModelInfo',
      `/api/models/${modelId}/revision/${encodeURIComponent(revision)}?blobs=true`,
      'GET',
      token,
    );
    if (!res.ok) throw await refusal(res);
    const info = (await res.json()) as Record<string, unknown>;
    const siblings = Array.isArray(info.siblings) ? (info.siblings as Array<Record<string, unknown>>) : [];
    const files = siblings
      .filter((s) => typeof s.rfilename === 'string')
      .map((s) => ({
        path: s.rfilename as string,
        size: Number((s.lfs as { size?: number } | undefined)?.size ?? s.size ?? 0) || 0,
      }));
    const gated = info.gated === 'auto' || info.gated === 'manual' ? info.gated : false;
    return {
      id: String(info.id ?? modelId),
      sha: String(info.sha ?? ''),
      gated,
      private: info.private === true,
      files,
      totalBytes: files.reduce((n, f) => n + f.size, 0),
    };
  }

  /**
   * Whether `path` at `commit` can be downloaded with `token`: `HEAD /{repo}/resolve/{commit}/{path}`
   * without following redirects (a redirect to the CDN means yes). The refusal when it cannot.
   */
  async fileRefusal(modelId: string, commit: string, path: string, token?: string): Promise<HubRefusal | undefined> {
    const res = await this.call(
      'GetFileMetadata',
      `/${modelId}/resolve/${commit}/${path.split('/').map(encodeURIComponent).join('/')}`,
      'HEAD',
      token,
    );
    if (res.ok || (res.status >= 300 && res.status < 400)) return undefined;
    return refusal(res);
  }

  private async call(
    operation: string,
    path: string,
    method: 'GET' | 'HEAD',
    token: string | undefined,
  ): Promise<Response> {
    try {
      return await fetch(`${this.endpoint}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          accept: 'application/json',
          'user-agent': 'instantstart',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
        throw cloudTimeout(
          'huggingface',
          operation,
          secondsOf(this.timeoutMs),
          `The Hugging Face Hub (${this.endpoint})`,
        );
      const cause =
        err instanceof Error && err.cause instanceof Error
          ? err.cause.message
          : err instanceof Error
            ? err.message
            : String(err);
      throw new CloudError({
        service: 'huggingface',
        operation,
        code: 'HubUnreachable',
        message: `The Hugging Face Hub at ${this.endpoint} cannot be reached (${cause}); check this server's network path to it, or HF_ENDPOINT.`,
        httpStatus: 502,
        retryable: true,
      });
    }
  }
}

async function refusal(res: Response): Promise<HubRefusal> {
  const code = res.headers.get('x-error-code') ?? undefined;
  let message = res.headers.get('x-error-message') ?? '';
  if (!message && res.status !== 204) {
    const body = await res.text().catch(() => '');
    try {
      const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
      message = String(parsed.error ?? parsed.message ?? '');
    } catch {
      message = body.slice(0, 300);
    }
  }
  return new HubRefusal({ status: res.status, code, message: message || `HTTP ${res.status}` });
}
