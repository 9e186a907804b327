import { SANDBOX_ACCESS_KEY_ID, SANDBOX_VIEWER_ACCESS_KEY_ID } from '../sandbox/core/credentials.js';

/**
 * What the kubeconfig's exec plugin (`instantstart token`) needs to sign an EKS token in a shell
 * that has none of the settings `instantstart kubeconfig` ran with: kubectl starts the plugin with
 * its own environment plus the exec `env` list. So the list carries the endpoint and where the
 * credentials come from (profile, config files) — never a real secret key: a kubeconfig is a file
 * people copy around. Static keys of real AWS stay in the user's shell, and `advice` says what to export.
 * The sandbox's keys are documented throwaway values (sandbox/core/credentials.ts), so they are carried.
 */
const CARRIED = [
  'AWS_ENDPOINT_URL',
  'AWS_ENDPOINT_URL_STS',
  'AWS_PROFILE',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
] as const;
const SANDBOX_KEYS: readonly string[] = [SANDBOX_ACCESS_KEY_ID, SANDBOX_VIEWER_ACCESS_KEY_ID];

export interface ExecCredentialSettings {
  /** The exec plugin's `env` list. */
  env: Record<string, string>;
  /** What the user must export in the shell that runs kubectl, when the kubeconfig cannot carry it. */
  advice?: string;
}

export function execCredentialSettings(from: NodeJS.ProcessEnv): ExecCredentialSettings {
  const env: Record<string, string> = {};
  for (const name of CARRIED) {
    const value = from[name];
    if (value) env[name] = value;
  }
  const keyId = from.AWS_ACCESS_KEY_ID;
  if (!keyId) return { env };
  if (SANDBOX_KEYS.includes(keyId) && from.AWS_SECRET_ACCESS_KEY) {
    env.AWS_ACCESS_KEY_ID = keyId;
    env.AWS_SECRET_ACCESS_KEY = from.AWS_SECRET_ACCESS_KEY;
    return { env };
  }
  const session = from.AWS_SESSION_TOKEN ? ', AWS_SESSION_TOKEN' : '';
  return {
    env,
    advice:
      `The kubeconfig does not hold your AWS secret key. Its token plugin signs with the credentials of the shell kubectl runs in: ` +
      `export AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY${session} there, or use a profile (export AWS_PROFILE=<name>, unset the keys) and run 'instantstart kubeconfig' again to carry it.`,
  };
}
