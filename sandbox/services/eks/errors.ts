import { AwsError } from '../../core/errors.js';

/**
 * EKS's error shapes: each carries the cluster (and add-on) it is about, which the SDK exposes as
 * `clusterName` / `addonName` on the exception.
 */
type About = { clusterName?: string; addonName?: string };

function extra(about: About): Record<string, string> {
  const out: Record<string, string> = {};
  if (about.clusterName) out.clusterName = about.clusterName;
  if (about.addonName) out.addonName = about.addonName;
  return out;
}

export const notFound = (message: string, about: About = {}) =>
  new AwsError('ResourceNotFoundException', message, 404, extra(about));
export const inUse = (message: string, about: About = {}) =>
  new AwsError('ResourceInUseException', message, 409, extra(about));
export const invalidParameter = (message: string, about: About = {}) =>
  new AwsError('InvalidParameterException', message, 400, extra(about));
export const invalidRequest = (message: string, about: About = {}) =>
  new AwsError('InvalidRequestException', message, 400, extra(about));
export const clientError = (message: string, about: About = {}) =>
  new AwsError('ClientException', message, 400, extra(about));

export const clusterNotFound = (name: string) => notFound(`No cluster found for name: ${name}.`, { clusterName: name });
