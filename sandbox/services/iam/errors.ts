import { AwsError } from '../../core/errors.js';

/** IAM's error codes and HTTP statuses, with its own message wording. */
export const noSuchEntity = (message: string) => new AwsError('NoSuchEntity', message, 404);
export const alreadyExists = (message: string) => new AwsError('EntityAlreadyExists', message, 409);
export const deleteConflict = (message: string) => new AwsError('DeleteConflict', message, 409);
export const limitExceeded = (message: string) => new AwsError('LimitExceeded', message, 409);
export const invalidInput = (message: string) => new AwsError('InvalidInput', message, 400);

export const noSuchRole = (name: string) => noSuchEntity(`The role with name ${name} cannot be found.`);
