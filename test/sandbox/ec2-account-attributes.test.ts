import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AccountAttributeName, DescribeAccountAttributesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** The sandbox's EC2 DescribeAccountAttributes (sandbox/services/ec2/catalog-ops.ts), as `instantstart doctor` reads it. */
describe('sandbox EC2 DescribeAccountAttributes', () => {
  let sb: TestSandbox;
  let ec2: EC2Client;
  before(async () => {
    sb = await startTestSandbox();
    ec2 = new EC2Client({});
  });
  after(async () => {
    ec2.destroy();
    await sb.dispose();
  });

  it('answers every attribute, or the ones named, with the documented defaults', async () => {
    const all = (await ec2.send(new DescribeAccountAttributesCommand({}))).AccountAttributes!;
    const values = Object.fromEntries(
      all.map((a) => [a.AttributeName, a.AttributeValues!.map((v) => v.AttributeValue)]),
    );
    assert.deepEqual(values['vpc-max-elastic-ips'], ['5']);
    assert.deepEqual(values['supported-platforms'], ['VPC']);
    assert.equal(all.length, 6);
    const one = await ec2.send(new DescribeAccountAttributesCommand({ AttributeNames: ['default-vpc'] }));
    assert.deepEqual(
      one.AccountAttributes!.map((a) => [a.AttributeName, a.AttributeValues![0]!.AttributeValue]),
      [['default-vpc', 'none']],
    );
  });

  it('refuses an attribute it does not know, naming it', async () => {
    await assert.rejects(
      ec2.send(new DescribeAccountAttributesCommand({ AttributeNames: ['max-gpus' as AccountAttributeName] })),
      (err: Error) => err.name === 'InvalidParameterValue' && /max-gpus/.test(err.message),
    );
  });
});
