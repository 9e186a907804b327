import { parse, type Tags } from 'yaml';

/**
 * A CloudFormation template in YAML as the JSON form CloudFormation itself reads: the short tags (`!Ref X`,
 * `!GetAtt A.B`, `!Sub '…'`, `!If [c, a, b]`, …) become their long forms (`{ Ref: X }`, `{ 'Fn::GetAtt': [A, B] }`).
 * The list is CloudFormation's intrinsic and condition functions (AWS CloudFormation User Guide, "Intrinsic function
 * reference" and "Rule functions"), each accepted on a scalar, a sequence or a mapping as the guide allows.
 */
const FUNCTIONS = [
  'Ref',
  'Condition',
  'Base64',
  'Cidr',
  'FindInMap',
  'GetAtt',
  'GetAZs',
  'ImportValue',
  'Join',
  'Select',
  'Split',
  'Sub',
  'Transform',
  'And',
  'Equals',
  'If',
  'Not',
  'Or',
  'Contains',
  'EachMemberEquals',
  'EachMemberIn',
  'RefAll',
  'ValueOf',
  'ValueOfAll',
  'ToJsonString',
  'Length',
] as const;

const longName = (name: string) => (name === 'Ref' || name === 'Condition' ? name : `Fn::${name}`);

function cloudFormationTags(): Tags {
  return FUNCTIONS.flatMap((name) => {
    const wrap = (value: unknown) => ({
      // `!GetAtt Resource.Attribute` is the short form of `[Resource, Attribute]` (the attribute may hold dots).
      [longName(name)]: name === 'GetAtt' && typeof value === 'string' ? value.split(/\.(.*)/s).slice(0, 2) : value,
    });
    return [
      { tag: `!${name}`, resolve: (text: string) => wrap(text) },
      { tag: `!${name}`, collection: 'seq' as const, resolve: (seq: { toJSON(): unknown }) => wrap(seq.toJSON()) },
      { tag: `!${name}`, collection: 'map' as const, resolve: (map: { toJSON(): unknown }) => wrap(map.toJSON()) },
    ];
  }) as unknown as Tags;
}

export interface Template {
  Parameters?: Record<string, Record<string, unknown>>;
  Conditions?: Record<string, unknown>;
  Resources: Record<string, { Type: string; Properties?: any; DeletionPolicy?: string; Condition?: string }>;
  Outputs?: Record<string, { Value: unknown; Description?: string }>;
}

export function parseTemplate(text: string): Template {
  return parse(text, { customTags: cloudFormationTags() }) as Template;
}

/** Every value under `node` (depth first), with the path of keys that leads to it. */
export function* walk(node: unknown, path: string[] = []): Generator<{ path: string[]; value: unknown }> {
  yield { path, value: node };
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) yield* walk(node[i], [...path, String(i)]);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) yield* walk(value, [...path, key]);
  }
}

/** The management instance's user data: the launch template's `Fn::Base64` of a `Fn::Sub` string. */
export function userDataSub(template: Template): string {
  const launch = Object.values(template.Resources).find((r) => r.Type === 'AWS::EC2::LaunchTemplate');
  const sub = launch?.Properties.LaunchTemplateData.UserData?.['Fn::Base64']?.['Fn::Sub'];
  if (typeof sub !== 'string') throw new Error('no launch template with a Fn::Base64 of a Fn::Sub string as user data');
  return sub;
}
