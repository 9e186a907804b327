import type { CloudAccessProblem } from './schemas/config.js';

/** The ways to give `instantstart serve --cloud aws` credentials: the AWS SDK's default chain, in its order. */
export const AWS_CREDENTIALS_REMEDY = [
  'Give InstantStart AWS credentials in one of the standard ways:',
  '• a profile: AWS_PROFILE=<profile> (from ~/.aws/config or ~/.aws/credentials);',
  '• IAM Identity Center (SSO): aws sso login --profile <profile>, with AWS_PROFILE=<profile>;',
  "• access keys: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys) in the server's environment;",
  '• on EC2, ECS or EKS: the instance profile, task role or pod identity (nothing to set).',
  'Check them with `aws sts get-caller-identity`. A login or an edited credentials file is picked up by "Check again" in the UI ' +
    '(POST /api/v1/config/credentials/check); environment variables are read at start, so restart `instantstart serve` after changing them.',
].join('\n');

/**
 * The problem shown in the terminal, the UI banner and every 503 while the server has no usable
 * credentials. `message` keeps the SDK's or AWS's own words so people can search for them.
 *
 * @example
 * credentialsProblem('NoCredentials', 'Could not load credentials from any providers');
 */
export function credentialsProblem(
  code: Exclude<CloudAccessProblem['code'], 'DataDirectoryInUse'>,
  detail: string,
): CloudAccessProblem {
  const lead =
    code === 'NoCredentials'
      ? 'No usable AWS credentials'
      : code === 'CredentialsRejected'
        ? 'AWS refused the credentials (expired, wrong, or not allowed to call sts:GetCallerIdentity)'
        : 'AWS STS did not answer, so the account is unknown';
  return { code, message: `${lead}: ${detail}`, remedy: AWS_CREDENTIALS_REMEDY };
}
