import { AwsError } from '../../core/errors.js';

/** S3's error codes and wording for the failures the sandbox reproduces. */
export const noSuchBucket = (bucket: string) =>
  new AwsError('NoSuchBucket', 'The specified bucket does not exist', 404, { BucketName: bucket });
export const noSuchKey = (key: string) =>
  new AwsError('NoSuchKey', 'The specified key does not exist.', 404, { Key: key });
export const noSuchUpload = (uploadId: string) =>
  new AwsError(
    'NoSuchUpload',
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    404,
    { UploadId: uploadId },
  );
export const malformedXml = () =>
  new AwsError(
    'MalformedXML',
    'The XML you provided was not well-formed or did not validate against our published schema',
    400,
  );
export const invalidArgument = (message: string, name: string, value: string | undefined) =>
  new AwsError('InvalidArgument', message, 400, { ArgumentName: name, ArgumentValue: value ?? '' });
export const invalidRequest = (message: string) => new AwsError('InvalidRequest', message, 400);
export const preconditionFailed = (condition: string) =>
  new AwsError('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', 412, {
    Condition: condition,
  });
export const notImplemented = (what: string) =>
  new AwsError(
    'NotImplemented',
    `A header or query you provided implies functionality that is not implemented: ${what} is not supported by the sandbox`,
    501,
  );
