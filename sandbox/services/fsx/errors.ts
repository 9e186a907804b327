import { AwsError } from '../../core/errors.js';

/** FSx's error codes (all 400 but InternalServerError), with the members its error shapes carry. */
export const badRequest = (message: string) => new AwsError('BadRequest', message, 400);
export const fileSystemNotFound = (id: string) =>
  new AwsError('FileSystemNotFound', `File system '${id}' does not exist.`, 400);
export const invalidNetworkSettings = (
  message: string,
  about: { InvalidSubnetId?: string; InvalidSecurityGroupId?: string } = {},
) => new AwsError('InvalidNetworkSettings', message, 400, about);
export const incompatibleParameter = (parameter: string, message: string) =>
  new AwsError('IncompatibleParameterError', message, 400, { Parameter: parameter });
export const invalidPerUnitStorageThroughput = (message: string) =>
  new AwsError('InvalidPerUnitStorageThroughput', message, 400);
export const invalidImportPath = (message: string) => new AwsError('InvalidImportPath', message, 400);
export const invalidExportPath = (message: string) => new AwsError('InvalidExportPath', message, 400);
export const resourceNotFound = (arn: string) =>
  new AwsError('ResourceNotFound', `The resource ARN '${arn}' does not exist.`, 400, { ResourceARN: arn });
