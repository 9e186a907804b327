import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { SandboxClock } from '../../sandbox/core/clock.js';
import { FaultRegistry } from '../../sandbox/core/faults.js';
import { validateInput } from '../../sandbox/core/validation.js';
import { AwsError } from '../../sandbox/core/errors.js';
import { xmlDocument } from '../../sandbox/core/xml.js';
import { nestQueryParams } from '../../sandbox/protocols/query.js';
import { decodeAwsChunked } from '../../sandbox/protocols/aws-chunked.js';
import { matchRoute } from '../../sandbox/protocols/rest.js';
import { cloneJson } from '../../sandbox/core/clone-json.js';

describe('sandbox clock', () => {
  it('runs `speed` times faster than real time and never goes back', () => {
    let real = 1_000_000;
    const clock = new SandboxClock({ baseSandboxMs: 5_000, speed: 60 }, () => real);
    real += 1_000;
    assert.equal(clock.now(), 5_000 + 60_000);
    clock.setSpeed(1);
    real += 1_000;
    assert.equal(clock.now(), 5_000 + 60_000 + 1_000);
    clock.advance(600_000);
    assert.equal(clock.now(), 666_000);
    assert.throws(() => clock.advance(-1), RangeError);
    assert.throws(() => clock.setSpeed(0), RangeError);
  });

  it('tells how long in real time until a sandbox instant', () => {
    const real = 0;
    const clock = new SandboxClock({ baseSandboxMs: 0, speed: 100 }, () => real);
    assert.equal(clock.realDelayUntil(10_000), 100);
    assert.equal(clock.realDelayUntil(-5), 0);
  });
});

describe('fault registry', () => {
  it('throttles exactly the requested fraction of matching calls, spread evenly', () => {
    const faults = new FaultRegistry();
    faults.add({ type: 'throttle', service: 'sagemaker', operation: 'DescribeCluster', rate: 0.25 });
    const outcomes = Array.from({ length: 8 }, () => faults.intercept('sagemaker', 'DescribeCluster')?.kind ?? 'ok');
    assert.deepEqual(outcomes.filter((o) => o === 'throttle').length, 2);
    assert.equal(faults.intercept('sagemaker', 'ListClusters'), undefined, 'other operations are untouched');
  });

  it('fails the next N calls with the given code, then stops', () => {
    const faults = new FaultRegistry();
    faults.add({
      type: 'error',
      service: 'eks',
      operation: 'CreateCluster',
      code: 'ServerException',
      status: 500,
      message: 'boom',
      count: 2,
    });
    assert.equal(faults.intercept('eks', 'CreateCluster')?.kind, 'error');
    assert.equal(faults.intercept('eks', 'CreateCluster')?.kind, 'error');
    assert.equal(faults.intercept('eks', 'CreateCluster'), undefined);
    assert.equal(faults.list().length, 0);
  });

  it('models a capacity shortfall per instance type and zone, whatever the ml. prefix', () => {
    const faults = new FaultRegistry();
    faults.add({
      type: 'insufficient-capacity',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.p5.48xlarge',
      available: 3,
    });
    assert.equal(faults.capacityAvailable('us-west-2', 'us-west-2b', 'p5.48xlarge'), 3);
    assert.equal(faults.capacityAvailable('us-west-2', 'us-west-2a', 'ml.p5.48xlarge'), Infinity);
    faults.consumeCapacity('us-west-2', 'us-west-2b', 'ml.p5.48xlarge', 2);
    assert.equal(faults.capacityAvailable('us-west-2', 'us-west-2b', 'ml.p5.48xlarge'), 1);
  });

  it('hands a create failure to exactly one create of the named resource', () => {
    const faults = new FaultRegistry();
    faults.add({ type: 'create-failure', service: 'eks', name: 'prod', message: 'control plane failed' });
    assert.equal(faults.takeCreateFailure('eks', 'dev'), undefined);
    assert.equal(faults.takeCreateFailure('eks', 'prod'), 'control plane failed');
    assert.equal(faults.takeCreateFailure('eks', 'prod'), undefined);
  });
});

describe('validation wording', () => {
  const schema = z.object({
    ClusterName: z.string().regex(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/),
    NodeRecovery: z.enum(['Automatic', 'None']).optional(),
    InstanceGroups: z.array(z.object({ InstanceCount: z.number().int().max(6758) })).optional(),
  });

  it('names the field the way Coral services do', () => {
    assert.throws(
      () => validateInput(schema, { ClusterName: 'bad_name!' }, { style: 'coral', code: 'ValidationException' }),
      (e: AwsError) =>
        e.code === 'ValidationException' &&
        /Value 'bad_name!' at 'clusterName' failed to satisfy constraint: Member must satisfy regular expression pattern/.test(
          e.message,
        ),
    );
    assert.throws(
      () =>
        validateInput(
          schema,
          { ClusterName: 'ok', NodeRecovery: 'Sometimes' },
          { style: 'coral', code: 'ValidationException' },
        ),
      (e: AwsError) =>
        /at 'nodeRecovery' failed to satisfy constraint: Member must satisfy enum value set: \[Automatic, None\]/.test(
          e.message,
        ),
    );
    assert.throws(
      () =>
        validateInput(
          schema,
          { ClusterName: 'ok', InstanceGroups: [{ InstanceCount: 1 }, { InstanceCount: 9999 }] },
          { style: 'coral', code: 'ValidationException' },
        ),
      (e: AwsError) => /at 'instanceGroups.2.member.instanceCount'.*less than or equal to 6758/.test(e.message),
    );
    assert.throws(
      () => validateInput(schema, {}, { style: 'coral', code: 'ValidationException' }),
      (e: AwsError) =>
        /Value null at 'clusterName' failed to satisfy constraint: Member must not be null/.test(e.message),
    );
  });

  it('uses MissingParameter / InvalidParameterValue in the EC2 style', () => {
    const ec2 = z.object({ CidrBlock: z.string().regex(/^\d+\.\d+\.\d+\.\d+\/\d+$/) });
    const style = { style: 'ec2' as const, code: 'InvalidParameterValue', missingCode: 'MissingParameter' };
    assert.throws(
      () => validateInput(ec2, {}, style),
      (e: AwsError) => e.code === 'MissingParameter' && /parameter CidrBlock/.test(e.message),
    );
    assert.throws(
      () => validateInput(ec2, { CidrBlock: 'nope' }, style),
      (e: AwsError) => e.code === 'InvalidParameterValue' && /Value \(nope\) for parameter CidrBlock/.test(e.message),
    );
  });
});

describe('wire helpers', () => {
  it('nests EC2 and awsQuery parameters into lists', () => {
    const params = new URLSearchParams(
      'Action=X&Filter.2.Name=vpc-id&Filter.1.Name=tag:Name&Filter.1.Value.1=a&Filter.1.Value.2=b&Tags.member.1.Key=k&Tags.member.1.Value=v',
    );
    assert.deepEqual(nestQueryParams(params), {
      Filter: [{ Name: 'tag:Name', Value: ['a', 'b'] }, { Name: 'vpc-id' }],
      Tags: [{ Key: 'k', Value: 'v' }],
    });
  });

  it('renders EC2 lists as <item> and escapes text', () => {
    const xml = xmlDocument(
      'DescribeVpcsResponse',
      { vpcSet: [{ vpcId: 'vpc-1', tagSet: [{ key: 'Name', value: 'a<b' }] }] },
      { listItem: 'item' },
    );
    assert.match(
      xml,
      /<vpcSet><item><vpcId>vpc-1<\/vpcId><tagSet><item><key>Name<\/key><value>a&lt;b<\/value><\/item><\/tagSet><\/item><\/vpcSet>/,
    );
  });

  it('decodes aws-chunked bodies with and without chunk signatures', () => {
    const signed = Buffer.from(
      '5;chunk-signature=abc\r\nhello\r\n6;chunk-signature=def\r\n world\r\n0;chunk-signature=0\r\n\r\n',
    );
    assert.equal(decodeAwsChunked(signed).toString(), 'hello world');
    const trailer = Buffer.from('3\r\nabc\r\n0\r\nx-amz-checksum-crc32:NSRBwg==\r\n\r\n');
    assert.equal(decodeAwsChunked(trailer).toString(), 'abc');
  });

  it('matches REST routes with encoded labels and tells a wrong method from an unknown path', () => {
    const routes = [
      { method: 'GET' as const, path: '/clusters/{name}', operation: 'DescribeCluster' },
      {
        method: 'GET' as const,
        path: '/clusters/{clusterName}/access-entries/{principalArn}',
        operation: 'DescribeAccessEntry',
      },
    ];
    const hit = matchRoute(routes, 'GET', '/clusters/c1/access-entries/arn%3Aaws%3Aiam%3A%3A0%3Arole%2Fr');
    assert.ok(hit && 'route' in hit);
    assert.equal(hit.labels.principalArn, 'arn:aws:iam::0:role/r');
    assert.deepEqual(matchRoute(routes, 'PUT', '/clusters/c1'), { methodMismatch: true });
    assert.equal(matchRoute(routes, 'GET', '/nodegroups'), undefined);
  });
});

describe('JSON copies of stored objects', () => {
  it('copies deeply, keeps a label called __proto__ as data and undefined fields, and shares nothing', () => {
    const labels = JSON.parse('{"__proto__": "x", "constructor": "y"}');
    const stored = {
      metadata: { name: 'p', labels, gone: undefined },
      spec: { containers: [{ args: ['a', 1, null, true] }] },
    };
    const copy = cloneJson(stored);
    assert.deepStrictEqual(copy, stored);
    assert.equal(Object.getPrototypeOf(copy.metadata.labels), Object.prototype);
    assert.deepEqual(Object.keys(copy.metadata.labels), ['__proto__', 'constructor']);
    assert.ok('gone' in copy.metadata);
    copy.spec.containers[0]!.args.push('b');
    copy.metadata.labels.constructor = 'z';
    assert.deepEqual(stored.spec.containers[0]!.args, ['a', 1, null, true]);
    assert.equal(stored.metadata.labels.constructor, 'y');
  });
});
