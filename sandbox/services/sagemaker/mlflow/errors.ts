import { AwsError } from '../../../core/errors.js';

/**
 * MLflow's REST errors: a JSON body `{"error_code": …, "message": …}` whose HTTP status follows
 * the code (mlflow/exceptions.py ERROR_CODE_TO_HTTP_STATUS). They are AwsErrors so the sandbox's
 * shared helpers (paging) can throw them; the MLflow endpoint renders them in MLflow's shape.
 */
const STATUS: Record<string, number> = {
  RESOURCE_DOES_NOT_EXIST: 404,
  NOT_FOUND: 404,
  ENDPOINT_NOT_FOUND: 404,
  INVALID_PARAMETER_VALUE: 400,
  BAD_REQUEST: 400,
  RESOURCE_ALREADY_EXISTS: 400,
  PERMISSION_DENIED: 403,
  UNAUTHENTICATED: 401,
  RESOURCE_CONFLICT: 409,
  REQUEST_LIMIT_EXCEEDED: 429,
  INVALID_STATE: 500,
  INTERNAL_ERROR: 500,
  TEMPORARILY_UNAVAILABLE: 503,
};

export const mlflowStatusOf = (code: string): number => STATUS[code] ?? 500;

export const mlflowError = (code: keyof typeof STATUS | string, message: string): AwsError =>
  new AwsError(code, message, mlflowStatusOf(code));

export const invalidParameter = (message: string) => mlflowError('INVALID_PARAMETER_VALUE', message);

export const missingParameter = (name: string) =>
  invalidParameter(
    `Missing value for required parameter '${name}'. See the API docs for more information about request parameters.`,
  );

export const notFound = (message: string) => mlflowError('RESOURCE_DOES_NOT_EXIST', message);
