import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every setting the AWS SDK's default credential chain reads, besides the shared files. */
const CREDENTIAL_SETTINGS = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CREDENTIAL_EXPIRATION',
  'AWS_PROFILE',
  'AWS_DEFAULT_PROFILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_ROLE_ARN',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE',
];

/**
 * An environment in which the default credential chain finds nothing: no keys or profile, empty
 * shared config and credentials files (written in `dir`), no instance metadata. The shared files can
 * be filled later with {@link writeSandboxCredentials}, as `aws configure` or `aws sso login` would.
 */
export function withoutCredentials(
  base: NodeJS.ProcessEnv,
  dir: string,
): { env: NodeJS.ProcessEnv; credentialsFile: string } {
  const credentialsFile = join(dir, 'credentials');
  const configFile = join(dir, 'config');
  writeFileSync(credentialsFile, '');
  writeFileSync(configFile, '');
  const env: NodeJS.ProcessEnv = {
    ...base,
    AWS_SHARED_CREDENTIALS_FILE: credentialsFile,
    AWS_CONFIG_FILE: configFile,
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  for (const name of CREDENTIAL_SETTINGS) delete env[name];
  return { env, credentialsFile };
}

/** Puts the sandbox's documented access key in a shared credentials file (its default profile). */
export function writeSandboxCredentials(credentialsFile: string): void {
  writeFileSync(
    credentialsFile,
    '[default]\naws_access_key_id = AKIASANDBOX000000000\naws_secret_access_key = sandbox-secret\n',
  );
}
