import { createRequire } from 'node:module';

/**
 * Required members of AWS requests, read from the AWS SDK v3 models in node_modules (each client
 * exports its operations' static schemas: `CreateCluster$` = [9, namespace, name, traits, input, output];
 * a structure is [3, namespace, name, traits, memberNames, memberSchemas, requiredCount], with the
 * required members listed first). The SDK serializes whatever input it is given and checks none of
 * this itself; AWS refuses the request.
 */

const require = createRequire(import.meta.url);

/** The product's client names (src/cloud/aws/clients.ts) → the SDK package that models them. */
const PACKAGES: Record<string, string> = {
  ec2: '@aws-sdk/client-ec2',
  eks: '@aws-sdk/client-eks',
  sagemaker: '@aws-sdk/client-sagemaker',
  quotas: '@aws-sdk/client-service-quotas',
  s3: '@aws-sdk/client-s3',
  fsx: '@aws-sdk/client-fsx',
  sts: '@aws-sdk/client-sts',
  iam: '@aws-sdk/client-iam',
  pricing: '@aws-sdk/client-pricing',
};

type SchemaRef = unknown;

const deref = (s: SchemaRef): unknown => (typeof s === 'function' ? (s as () => unknown)() : s);

/** The input structure of an operation, or a sentence saying why there is none. */
export function operationInput(service: string, operation: string): { schema: unknown } | { missing: string } {
  const pkg = Object.hasOwn(PACKAGES, service) ? PACKAGES[service] : undefined;
  if (!pkg)
    return {
      missing: `no AWS SDK model is known for service '${service}' (add it to test/conformance/aws-required.ts)`,
    };
  const mod = require(pkg) as Record<string, unknown>;
  const op = Object.hasOwn(mod, `${operation}$`) ? mod[`${operation}$`] : undefined;
  if (!Array.isArray(op) || op[0] !== 9) return { missing: `${pkg} has no operation ${operation}` };
  return { schema: deref(op[4]) };
}

/**
 * The paths of required members the input lacks, walking structures, lists and maps:
 * `InstanceGroups[0].ExecutionRole`. Members are compared by their model names, which are the
 * SDK input's property names.
 */
export function missingRequired(schema: unknown, value: unknown, path = ''): string[] {
  const s = deref(schema);
  if (!Array.isArray(s) || value === undefined || value === null) return [];
  const out: string[] = [];
  switch (s[0]) {
    case 3: {
      // [3, ns, name, traits, memberNames, memberSchemas, requiredCount]
      if (typeof value !== 'object') return [];
      const names = s[4] as string[];
      const members = s[5] as SchemaRef[];
      const required = typeof s[6] === 'number' ? s[6] : 0;
      const v = value as Record<string, unknown>;
      names.forEach((name, i) => {
        const present = Object.hasOwn(v, name) && v[name] !== undefined && v[name] !== null;
        const at = path ? `${path}.${name}` : name;
        if (!present) {
          if (i < required) out.push(at);
        } else out.push(...missingRequired(members[i], v[name], at));
      });
      return out;
    }
    case 4: // union: [4, ns, name, traits, memberNames, memberSchemas]
      return [];
    case 1: // list: [1, ns, name, traits, memberSchema]
      if (Array.isArray(value)) value.forEach((item, i) => out.push(...missingRequired(s[4], item, `${path}[${i}]`)));
      return out;
    case 2: // map: [2, ns, name, traits, keySchema, valueSchema]
      if (typeof value === 'object')
        for (const [k, item] of Object.entries(value as object))
          out.push(...missingRequired(s[5], item, `${path}.${k}`));
      return out;
    default:
      return [];
  }
}
