import { hubEndpointOf } from './services/huggingface/http.js';
import { SANDBOX_ACCESS_KEY_ID, SANDBOX_DEFAULT_REGION, SANDBOX_SECRET_ACCESS_KEY } from './core/credentials.js';

/**
 * The standard AWS settings that point any SDK or the AWS CLI at a sandbox endpoint, and
 * huggingface_hub's HF_ENDPOINT that points the `hf` CLI (and InstantStart's model downloads) at
 * the sandbox's Hugging Face Hub simulation.
 */
export function sandboxEnvironment(endpointUrl: string, region = SANDBOX_DEFAULT_REGION): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: endpointUrl,
    AWS_ACCESS_KEY_ID: SANDBOX_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: SANDBOX_SECRET_ACCESS_KEY,
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    HF_ENDPOINT: hubEndpointOf(endpointUrl),
  };
}

/** `export …` lines a user pastes into a shell. */
export function exportLines(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `export ${k}=${v}`)
    .join('\n');
}
