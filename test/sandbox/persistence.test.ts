import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CreateRoleCommand, GetRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateVpcCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startTestSandbox } from '../helpers/sandbox.js';

describe('sandbox state across restarts', () => {
  it('keeps every resource, object body and the clock when the sandbox restarts on the same state dir', async () => {
    const first = await startTestSandbox();
    const trust = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: 'eks.amazonaws.com' }, Action: 'sts:AssumeRole' }],
    });
    await new IAMClient({}).send(new CreateRoleCommand({ RoleName: 'survivor', AssumeRolePolicyDocument: trust }));
    const vpc = await new EC2Client({}).send(new CreateVpcCommand({ CidrBlock: '10.20.0.0/16' }));
    await new S3Client({}).send(
      new CreateBucketCommand({
        Bucket: 'sagemaker-survivor',
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    await new S3Client({}).send(
      new PutObjectCommand({ Bucket: 'sagemaker-survivor', Key: 'data/hello.txt', Body: 'still here' }),
    );
    await first.advance(7200);
    const clockBefore = Date.parse((await first.admin('/_sandbox/clock')).body.now);
    const inventoryBefore = await first.inventory();
    await first.stop();

    const second = await startTestSandbox({ stateDir: first.stateDir });
    try {
      assert.deepEqual(await second.inventory(), inventoryBefore);
      const role = await new IAMClient({}).send(new GetRoleCommand({ RoleName: 'survivor' }));
      assert.equal(role.Role?.RoleName, 'survivor');
      const vpcs = await new EC2Client({}).send(new DescribeVpcsCommand({ VpcIds: [vpc.Vpc!.VpcId!] }));
      assert.equal(vpcs.Vpcs?.[0]?.CidrBlock, '10.20.0.0/16');
      const obj = await new S3Client({}).send(
        new GetObjectCommand({ Bucket: 'sagemaker-survivor', Key: 'data/hello.txt' }),
      );
      assert.equal(await obj.Body!.transformToString(), 'still here');
      const clockAfter = Date.parse((await second.admin('/_sandbox/clock')).body.now);
      assert.ok(clockAfter >= clockBefore, 'sandbox time never goes back across a restart');
    } finally {
      await second.dispose();
    }
  });
});
