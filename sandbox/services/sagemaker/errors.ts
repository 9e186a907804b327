import { AwsError } from '../../core/errors.js';

/** SageMaker's error codes for HyperPod (all HTTP 400, as the SageMaker JSON API sends them). */
export const validation = (message: string) => new AwsError('ValidationException', message, 400);
export const notFound = (message: string) => new AwsError('ResourceNotFound', message, 400);
export const inUse = (message: string) => new AwsError('ResourceInUse', message, 400);
export const limitExceeded = (message: string) => new AwsError('ResourceLimitExceeded', message, 400);
export const conflict = (message: string) => new AwsError('ConflictException', message, 400);

export const clusterNotFound = (nameOrArn: string) => notFound(`Cluster with name or ARN '${nameOrArn}' not found.`);
