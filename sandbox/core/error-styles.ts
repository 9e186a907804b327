import type { ServiceErrorStyle } from './service.js';

/**
 * The error codes each protocol family really uses for the sandbox's cross-cutting failures
 * (signature, throttling, unknown operation, malformed input). Services pick one and override
 * the validation code where theirs differs.
 */
export function jsonRpcErrors(validationCode = 'ValidationException'): ServiceErrorStyle {
  return {
    validation: { style: 'coral', code: validationCode },
    throttling: { code: 'ThrottlingException', status: 400 },
    unknownOperation: { code: 'UnknownOperationException', status: 400 },
    serialization: { code: 'SerializationException', status: 400 },
    unknownKey: { code: 'UnrecognizedClientException', status: 400 },
    badSignature: { code: 'InvalidSignatureException', status: 400 },
    missingAuth: { code: 'MissingAuthenticationTokenException', status: 400 },
    internal: { code: 'InternalFailure', status: 500 },
  };
}

export function restJsonErrors(validationCode = 'InvalidParameterException'): ServiceErrorStyle {
  return {
    validation: { style: 'coral', code: validationCode },
    throttling: { code: 'ThrottlingException', status: 429 },
    unknownOperation: { code: 'UnknownOperationException', status: 404 },
    serialization: { code: 'SerializationException', status: 400 },
    unknownKey: { code: 'UnrecognizedClientException', status: 403 },
    badSignature: { code: 'InvalidSignatureException', status: 403 },
    missingAuth: { code: 'MissingAuthenticationTokenException', status: 403 },
    internal: { code: 'ServerException', status: 500 },
  };
}

export function ec2Errors(): ServiceErrorStyle {
  return {
    validation: { style: 'ec2', code: 'InvalidParameterValue', missingCode: 'MissingParameter' },
    throttling: { code: 'RequestLimitExceeded', status: 503 },
    unknownOperation: { code: 'InvalidAction', status: 400 },
    serialization: { code: 'InvalidParameterValue', status: 400 },
    unknownKey: { code: 'AuthFailure', status: 401 },
    badSignature: { code: 'AuthFailure', status: 401 },
    missingAuth: { code: 'MissingAuthenticationToken', status: 401 },
    internal: { code: 'InternalError', status: 500 },
  };
}

export function awsQueryErrors(): ServiceErrorStyle {
  return {
    validation: { style: 'coral', code: 'ValidationError' },
    throttling: { code: 'Throttling', status: 400 },
    unknownOperation: { code: 'InvalidAction', status: 400 },
    serialization: { code: 'MalformedQueryString', status: 400 },
    unknownKey: { code: 'InvalidClientTokenId', status: 403 },
    badSignature: { code: 'SignatureDoesNotMatch', status: 403 },
    missingAuth: { code: 'MissingAuthenticationToken', status: 403 },
    internal: { code: 'ServiceFailure', status: 500 },
  };
}

export function s3Errors(): ServiceErrorStyle {
  return {
    validation: { style: 'coral', code: 'InvalidArgument' },
    throttling: { code: 'SlowDown', status: 503 },
    unknownOperation: { code: 'NotImplemented', status: 501 },
    serialization: { code: 'MalformedXML', status: 400 },
    unknownKey: { code: 'InvalidAccessKeyId', status: 403 },
    badSignature: { code: 'SignatureDoesNotMatch', status: 403 },
    missingAuth: { code: 'AccessDenied', status: 403 },
    internal: { code: 'InternalError', status: 500 },
  };
}
