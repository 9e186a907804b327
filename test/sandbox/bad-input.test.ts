import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * The same four kinds of bad input sent to one service of every protocol family, signed by hand so
 * the body can be anything: each answer must carry the service's real error code (with the field
 * named where there is one) and leave `/_sandbox/inventory` exactly as it was.
 */

interface RawRequest {
  service: string;
  method?: string;
  path?: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  secret?: string;
}

interface Case {
  name: string;
  request: RawRequest;
  status: number;
  code: string;
  mentions?: RegExp;
}

const json11 = (target: string, body: unknown): Partial<RawRequest> => ({
  headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const form = (params: Record<string, string>): Partial<RawRequest> => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
  body: new URLSearchParams(params).toString(),
});
const restJson = (method: string, path: string, body?: unknown): Partial<RawRequest> => ({
  method,
  path,
  headers: { 'content-type': 'application/json' },
  ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
});

const CASES: Case[] = [
  // awsJson1_1 — SageMaker
  {
    name: 'SageMaker, wrong secret',
    request: { service: 'sagemaker', ...json11('SageMaker.ListClusters', {}), secret: 'wrong' },
    status: 400,
    code: 'InvalidSignatureException',
  },
  {
    name: 'SageMaker, unknown operation',
    request: { service: 'sagemaker', ...json11('SageMaker.LaunchRocket', {}) },
    status: 400,
    code: 'UnknownOperationException',
  },
  {
    name: 'SageMaker, malformed body',
    request: { service: 'sagemaker', ...json11('SageMaker.CreateCluster', '{"ClusterName": ') },
    status: 400,
    code: 'SerializationException',
  },
  {
    name: 'SageMaker, missing field',
    request: { service: 'sagemaker', ...json11('SageMaker.CreateCluster', { InstanceGroups: [] }) },
    status: 400,
    code: 'ValidationException',
    mentions: /clusterName/i,
  },
  {
    name: 'SageMaker, bad enum',
    request: { service: 'sagemaker', ...json11('SageMaker.ListClusters', { SortBy: 'SIZE' }) },
    status: 400,
    code: 'ValidationException',
    mentions: /sortBy/i,
  },
  // awsJson1_1 — Service Quotas and FSx share the protocol; one missing field each
  {
    name: 'Service Quotas, missing field',
    request: {
      service: 'servicequotas',
      ...json11('ServiceQuotasV20190624.GetServiceQuota', { ServiceCode: 'sagemaker' }),
    },
    status: 400,
    code: 'IllegalArgumentException',
    mentions: /quotaCode/i,
  },
  {
    name: 'FSx, bad enum',
    request: {
      service: 'fsx',
      ...json11('AWSSimbaAPIService_v20180301.CreateFileSystem', {
        FileSystemType: 'NTFS',
        SubnetIds: ['subnet-1'],
        StorageCapacity: 1200,
      }),
    },
    status: 400,
    code: 'BadRequest',
    mentions: /FileSystemType/i,
  },
  // restJson1 — EKS
  {
    name: 'EKS, wrong secret',
    request: { service: 'eks', ...restJson('GET', '/clusters'), secret: 'wrong' },
    status: 403,
    code: 'InvalidSignatureException',
  },
  {
    name: 'EKS, unknown operation',
    request: { service: 'eks', ...restJson('POST', '/rockets', {}) },
    status: 404,
    code: 'UnknownOperationException',
  },
  {
    name: 'EKS, malformed body',
    request: { service: 'eks', ...restJson('POST', '/clusters', '{"name":') },
    status: 400,
    code: 'SerializationException',
  },
  {
    name: 'EKS, missing field',
    request: {
      service: 'eks',
      ...restJson('POST', '/clusters', { roleArn: 'arn:aws:iam::000000000000:role/x', resourcesVpcConfig: {} }),
    },
    status: 400,
    code: 'InvalidParameterException',
    mentions: /name/,
  },
  {
    name: 'EKS, bad enum',
    request: {
      service: 'eks',
      ...restJson('POST', '/clusters', {
        name: 'c1',
        roleArn: 'arn:aws:iam::000000000000:role/x',
        resourcesVpcConfig: {},
        accessConfig: { authenticationMode: 'PASSWORD' },
      }),
    },
    status: 400,
    code: 'InvalidParameterException',
    mentions: /authenticationMode/,
  },
  // ec2 query — EC2
  {
    name: 'EC2, wrong secret',
    request: { service: 'ec2', ...form({ Action: 'DescribeVpcs', Version: '2016-11-15' }), secret: 'wrong' },
    status: 401,
    code: 'AuthFailure',
  },
  {
    name: 'EC2, unknown operation',
    request: { service: 'ec2', ...form({ Action: 'LaunchRocket', Version: '2016-11-15' }) },
    status: 400,
    code: 'InvalidAction',
  },
  {
    name: 'EC2, missing field',
    request: { service: 'ec2', ...form({ Action: 'CreateSubnet', Version: '2016-11-15', CidrBlock: '10.0.0.0/24' }) },
    status: 400,
    code: 'MissingParameter',
    mentions: /VpcId/,
  },
  {
    name: 'EC2, bad enum',
    request: {
      service: 'ec2',
      ...form({ Action: 'CreateVpc', Version: '2016-11-15', CidrBlock: '10.0.0.0/16', InstanceTenancy: 'shared-ish' }),
    },
    status: 400,
    code: 'InvalidParameterValue',
    mentions: /InstanceTenancy|shared-ish/,
  },
  // awsQuery — IAM and STS
  {
    name: 'IAM, wrong secret',
    request: { service: 'iam', ...form({ Action: 'ListRoles', Version: '2010-05-08' }), secret: 'wrong' },
    status: 403,
    code: 'SignatureDoesNotMatch',
  },
  {
    name: 'IAM, unknown operation',
    request: { service: 'iam', ...form({ Action: 'LaunchRocket', Version: '2010-05-08' }) },
    status: 400,
    code: 'InvalidAction',
  },
  {
    name: 'IAM, missing field',
    request: {
      service: 'iam',
      ...form({ Action: 'CreateRole', Version: '2010-05-08', AssumeRolePolicyDocument: '{}' }),
    },
    status: 400,
    code: 'ValidationError',
    mentions: /roleName/i,
  },
  {
    name: 'IAM, bad enum',
    request: { service: 'iam', ...form({ Action: 'ListPolicies', Version: '2010-05-08', Scope: 'Everything' }) },
    status: 400,
    code: 'ValidationError',
    mentions: /scope/i,
  },
  {
    name: 'STS, unknown operation',
    request: { service: 'sts', ...form({ Action: 'LaunchRocket', Version: '2011-06-15' }) },
    status: 400,
    code: 'InvalidAction',
  },
  // restXml — S3
  {
    name: 'S3, wrong secret',
    request: { service: 's3', method: 'PUT', path: '/bad-secret-bucket', secret: 'wrong' },
    status: 403,
    code: 'SignatureDoesNotMatch',
  },
  {
    name: 'S3, malformed body',
    request: {
      service: 's3',
      method: 'PUT',
      path: '/malformed-bucket',
      headers: { 'content-type': 'application/xml' },
      body: '<CreateBucketConfiguration><LocationConstraint>',
    },
    status: 400,
    code: 'MalformedXML',
  },
  {
    name: 'S3, missing bucket',
    request: { service: 's3', method: 'PUT', path: '/no-such-bucket/key.txt', body: 'hello' },
    status: 404,
    code: 'NoSuchBucket',
  },
  {
    name: 'S3, bad bucket name',
    request: { service: 's3', method: 'PUT', path: '/Bad_Bucket' },
    status: 400,
    code: 'InvalidBucketName',
  },
];

describe('bad input on every protocol: the real error code, and nothing changes', () => {
  let sb: TestSandbox;
  let signers: Map<string, SignatureV4>;
  before(async () => {
    sb = await startTestSandbox();
    signers = new Map();
  });
  after(async () => sb.dispose());

  async function send(req: RawRequest): Promise<{ status: number; text: string; headers: Headers }> {
    const url = new URL(sb.url);
    const secret = req.secret ?? 'sandbox-secret';
    const key = `${req.service}:${secret}`;
    if (!signers.has(key)) {
      signers.set(
        key,
        new SignatureV4({
          service: req.service,
          region: 'us-west-2',
          sha256: Sha256,
          credentials: { accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: secret },
        }),
      );
    }
    const request = new HttpRequest({
      method: req.method ?? 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: req.path ?? '/',
      query: req.query ?? {},
      headers: {
        host: url.host,
        ...(req.service === 's3' ? { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } : {}),
        ...(req.headers ?? {}),
      },
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    const signed = await signers.get(key)!.sign(request);
    const qs = new URLSearchParams(signed.query as Record<string, string>).toString();
    const res = await fetch(`${sb.url}${signed.path}${qs ? `?${qs}` : ''}`, {
      method: signed.method,
      headers: Object.fromEntries(Object.entries(signed.headers).filter(([k]) => k !== 'host')),
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  /** The error code however the protocol carries it: JSON `__type`/`code`, the `x-amzn-ErrorType` header, or XML `<Code>`. */
  function errorCode(res: { text: string; headers: Headers }): string | undefined {
    const header = res.headers.get('x-amzn-errortype');
    if (header) return header.split(':')[0];
    const xml = /<Code>([^<]+)<\/Code>/.exec(res.text);
    if (xml) return xml[1];
    try {
      const body = JSON.parse(res.text) as { __type?: string; code?: string };
      return (body.__type ?? body.code)?.split('#').pop();
    } catch {
      return undefined;
    }
  }

  it('a request signed for a service the sandbox does not serve → 400 naming the services it does', async () => {
    const before = await sb.inventory();
    const res = await send({
      service: 'dynamodb',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.ListTables' },
      body: '{}',
    });
    assert.equal(res.status, 400);
    assert.match(res.text, /does not serve service 'dynamodb'.*sagemaker/);
    assert.deepEqual(await sb.inventory(), before);
  });

  for (const c of CASES) {
    it(`${c.name} → ${c.code}`, async () => {
      const before = await sb.inventory();
      const res = await send(c.request);
      assert.equal(res.status, c.status, res.text);
      assert.equal(errorCode(res), c.code, res.text);
      if (c.mentions) assert.match(res.text, c.mentions);
      assert.deepEqual(await sb.inventory(), before, 'the sandbox state must not change');
    });
  }
});
