import fastJsonPatch from 'fast-json-patch';
import { badRequest, KubeError } from '../errors.js';
import type { KubeObject } from '../types.js';

/**
 * RFC 6902 JSON Patch (`application/json-patch+json`), applied by fast-json-patch. A patch that is
 * not a list of well-formed operations is a 400; an operation that cannot apply to this object
 * (missing path, index out of range, failed `test`) is the API server's 422 Invalid, its message
 * followed by the reason (the API server itself stops at the message).
 */

/** fast-json-patch's names for a patch that is malformed whatever the document. */
const MALFORMED = new Set([
  'SEQUENCE_NOT_AN_ARRAY',
  'OPERATION_NOT_AN_OBJECT',
  'OPERATION_OP_INVALID',
  'OPERATION_PATH_INVALID',
  'OPERATION_FROM_REQUIRED',
  'OPERATION_VALUE_REQUIRED',
  'OPERATION_VALUE_CANNOT_CONTAIN_UNDEFINED',
]);

interface PatchError {
  name: string;
  message: string;
  index?: number;
  operation?: { op?: string; path?: string; from?: string };
}

export function applyJsonPatch(doc: KubeObject, ops: unknown): KubeObject {
  if (!Array.isArray(ops)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let result: unknown;
  try {
    result = fastJsonPatch.applyPatch(
      structuredClone(doc),
      structuredClone(ops) as fastJsonPatch.Operation[],
      true,
      false,
    ).newDocument;
  } catch (err) {
    const e = err as PatchError;
    if (typeof e?.name !== 'string') throw err;
    const at = e.index !== undefined ? `operation ${e.index}` : 'an operation';
    if (MALFORMED.has(e.name)) throw badRequest(`json patch is malformed: ${at}: ${e.message.split('\n')[0]}`);
    // The API server's words, then why (kubectl prints the message as "The request is invalid: …").
    throw new KubeError(
      422,
      'Invalid',
      `the server rejected our request due to an error in our request: ${describe(e)}`,
    );
  }
  if (typeof result !== 'object' || result === null || Array.isArray(result))
    throw badRequest('json patch: the patched document is not a JSON object');
  return result as KubeObject;
}

/** Says why an operation could not apply, in the words of the API server's JSON patch library. */
function describe(e: PatchError): string {
  const op = e.operation?.op ?? 'patch';
  const path = JSON.stringify(e.operation?.path ?? '');
  switch (e.name) {
    case 'TEST_OPERATION_FAILED':
      return `testing value ${e.operation?.path ?? ''} failed: test failed`;
    case 'OPERATION_PATH_UNRESOLVABLE':
    case 'OPERATION_PATH_CANNOT_ADD':
      return `${op} operation does not apply: doc is missing path: ${path}: missing value`;
    case 'OPERATION_FROM_UNRESOLVABLE':
      return `${op} operation does not apply: doc is missing from path: ${JSON.stringify(e.operation?.from ?? '')}: missing value`;
    case 'OPERATION_VALUE_OUT_OF_BOUNDS':
    case 'OPERATION_PATH_ILLEGAL_ARRAY_INDEX':
      return `${op} operation does not apply: invalid index in ${path}`;
    default:
      return `${op} operation does not apply: ${e.message.split('\n')[0]}`;
  }
}
