import type { StatusCause } from '../../errors.js';
import { shown } from './walk.js';

/**
 * The causes of a 422, worded as kube-apiserver's field errors are: `Required value`,
 * `Invalid value: <value>: <detail>`, `Unsupported value: … supported values: …`,
 * `Duplicate value`, `Not found`.
 */

export const required = (field: string, detail = ''): StatusCause => ({
  field,
  reason: 'FieldValueRequired',
  message: `Required value${detail ? `: ${detail}` : ''}`,
});

export const invalidValue = (field: string, value: unknown, detail: string): StatusCause => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${shown(value)}: ${detail}`,
});

export const notSupported = (field: string, value: unknown, supported: string[]): StatusCause => ({
  field,
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${shown(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

export const duplicate = (field: string, value: unknown): StatusCause => ({
  field,
  reason: 'FieldValueDuplicate',
  message: `Duplicate value: ${shown(value)}`,
});

export const notFoundValue = (field: string, value: unknown): StatusCause => ({
  field,
  reason: 'FieldValueNotFound',
  message: `Not found: ${shown(value)}`,
});

/** An optional field limited to some values: nothing when absent or allowed. */
export const enumCause = (field: string, value: unknown, supported: string[]): StatusCause[] =>
  value === undefined || supported.includes(value as string) ? [] : [notSupported(field, value, supported)];

export const nonNegative = (field: string, value: unknown): StatusCause[] =>
  typeof value === 'number' && value < 0 ? [invalidValue(field, value, 'must be greater than or equal to 0')] : [];

export const portRange = (field: string, value: unknown): StatusCause[] =>
  typeof value === 'number' && (value < 1 || value > 65535)
    ? [invalidValue(field, value, 'must be between 1 and 65535, inclusive')]
    : [];
