import type { z } from 'zod';
import { AwsError } from './errors.js';

/**
 * Request validation with AWS's own wording. Each service declares its operations' inputs as zod
 * schemas; a failure becomes the service's real error code with a message naming the field, before
 * any state is touched.
 *
 * - `coral` style (SageMaker, EKS, IAM, STS, Service Quotas, FSx):
 *   `1 validation error detected: Value 'x!' at 'clusterName' failed to satisfy constraint: Member must satisfy regular
 * expression pattern: …`
 * - `ec2` style: a missing member is `MissingParameter` ("The request must contain the parameter
 *   CidrBlock"), a bad one `InvalidParameterValue` ("Value (x) for parameter cidrBlock is invalid. …").
 */
export interface ValidationStyle {
  style: 'coral' | 'ec2';
  /** Error code for an invalid value (e.g. ValidationException, InvalidParameterException). */
  code: string;
  /** Error code for a missing required member; defaults to `code`. */
  missingCode?: string;
  status?: number;
}

export function validateInput<S extends z.ZodType>(schema: S, input: unknown, style: ValidationStyle): z.output<S> {
  const result = schema.safeParse(input ?? {}, { reportInput: true });
  if (result.success) return result.data;
  const issues = result.error.issues;
  if (style.style === 'ec2') throw ec2Error(issues[0]!, style);
  const parts = issues.slice(0, 10).map(coralPart);
  const count = issues.length;
  const missingOnly = issues.every(isMissing);
  throw new AwsError(
    missingOnly && style.missingCode ? style.missingCode : style.code,
    `${count} validation error${count === 1 ? '' : 's'} detected: ${parts.join('; ')}`,
    style.status ?? 400,
  );
}

type Issue = z.core.$ZodIssue;

function isMissing(issue: Issue): boolean {
  return issue.code === 'invalid_type' && issue.input === undefined;
}

/** `instanceGroups.1.member.instanceCount`: lower-camel names, 1-based list members, as Coral writes. */
export function coralPath(path: PropertyKey[]): string {
  const out: string[] = [];
  for (const key of path) {
    if (typeof key === 'number') out.push(`${key + 1}.member`);
    else {
      const s = String(key);
      out.push(s.charAt(0).toLowerCase() + s.slice(1));
    }
  }
  return out.join('.');
}

function coralValue(input: unknown): string {
  if (input === undefined || input === null) return 'null';
  if (typeof input === 'string') return `'${input}'`;
  if (typeof input === 'number' || typeof input === 'boolean') return `'${String(input)}'`;
  return `'${JSON.stringify(input)}'`;
}

function constraint(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Member must not be null' : `Member must be of type ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string') return `Member must have length greater than or equal to ${String(issue.minimum)}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `Member must have length greater than or equal to ${String(issue.minimum)}`;
      return `Member must have value greater than or equal to ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `Member must have length less than or equal to ${String(issue.maximum)}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `Member must have length less than or equal to ${String(issue.maximum)}`;
      return `Member must have value less than or equal to ${String(issue.maximum)}`;
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue
        ? `Member must satisfy regular expression pattern: ${patternText((issue as { pattern?: unknown }).pattern)}`
        : `Member must be a valid ${issue.format}`;
    case 'invalid_value':
      return `Member must satisfy enum value set: [${issue.values.map(String).join(', ')}]`;
    case 'unrecognized_keys':
      return `Member must not contain unknown members ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

/** AWS prints the bare pattern, not a JavaScript regex literal. */
function patternText(pattern: unknown): string {
  return pattern instanceof RegExp ? pattern.source : String(pattern).replace(/^\/(.*)\/[a-z]*$/, '$1');
}

function coralPart(issue: Issue): string {
  const at = coralPath(issue.path);
  if (issue.code === 'custom') return at ? `${issue.message} (at '${at}')` : issue.message;
  return `Value ${coralValue(issue.input)} at '${at}' failed to satisfy constraint: ${constraint(issue)}`;
}

/** EC2 names parameters as they appear on the wire: `CidrBlock`, `Filter.1.Name`. */
function ec2Path(path: PropertyKey[]): string {
  return path.map((k) => (typeof k === 'number' ? String(k + 1) : String(k))).join('.');
}

function ec2Error(issue: Issue, style: ValidationStyle): AwsError {
  const name = ec2Path(issue.path);
  if (isMissing(issue)) {
    return new AwsError(
      style.missingCode ?? 'MissingParameter',
      `The request must contain the parameter ${name}`,
      style.status ?? 400,
    );
  }
  const detail = issue.code === 'custom' ? issue.message : constraint(issue).replace(/^Member/, 'It');
  return new AwsError(
    style.code,
    `Value (${String(issue.input)}) for parameter ${name} is invalid. ${detail}`,
    style.status ?? 400,
  );
}
