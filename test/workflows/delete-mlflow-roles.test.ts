import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterTags, MANAGED_BY_VALUE, TAG_MANAGED_BY } from '../../src/domain/naming.js';
import { MLFLOW_ROLE_PART, mlflowIdentity } from '../../src/domain/training/mlflow-identity.js';
import { useDeleteClusterEngine } from '../helpers/delete-cluster-engine.js';

const SPEED = 600;
const REGION = 'us-west-2';
const server = (name: string) => `arn:aws:sagemaker:${REGION}:000000000000:mlflow-tracking-server/${name}`;

/**
 * A training job that reports to MLflow makes an IAM role per cluster and tracking server, named with a
 * hash. Deleting the cluster deletes exactly those roles: never another cluster's, never a role of that
 * name shape InstantStart did not make for this cluster.
 */
describe('delete-cluster: the MLflow job roles of the cluster go with it, and only those', () => {
  const h = useDeleteClusterEngine(SPEED, REGION);

  const makeRole = async (roleName: string, tags: Record<string, string>) => {
    const trustPolicy = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: 'pods.eks.amazonaws.com' },
          Action: ['sts:AssumeRole', 'sts:TagSession'],
        },
      ],
    };
    await h.cloud.iam.createRole({ roleName, description: 'test', trustPolicy, tags });
    await h.cloud.iam.putInlinePolicy(roleName, 'instantstart-mlflow', {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: ['sagemaker-mlflow:*'], Resource: '*' }],
    });
  };

  it("deletes both of its roles (with their inline policies), keeps the other cluster's and a look-alike not tagged as ours", async () => {
    const ours = [
      mlflowIdentity('gone', 'default', server('team')),
      mlflowIdentity('gone', 'research', server('nightly')),
    ];
    for (const id of ours) await makeRole(id.roleName, id.tags);
    const otherCluster = mlflowIdentity('gone-two', 'default', server('team'));
    await makeRole(otherCluster.roleName, otherCluster.tags);
    const lookAlike = `${ours[0]!.roleName.slice(0, -8)}0badf00d`;
    await makeRole(lookAlike, { [TAG_MANAGED_BY]: MANAGED_BY_VALUE, ...clusterTags('someone-else', MLFLOW_ROLE_PART) });

    const id = h.engine.start('delete-cluster', { name: 'gone', region: REGION, keepStorage: false }).operation.id;
    const done = await h.engine.waitFor(id, 60_000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    for (const role of ours)
      assert.equal(await h.cloud.iam.find(role.roleName), undefined, `${role.roleName} is deleted`);
    assert.ok(await h.cloud.iam.find(otherCluster.roleName), "another cluster's MLflow role stays");
    assert.ok(await h.cloud.iam.find(lookAlike), 'a role of that name shape tagged for another cluster stays');
    const deleted = (await h.sb.calls({ service: 'iam', operation: 'DeleteRole' })).map((c) => c.subject);
    for (const role of ours)
      assert.ok(deleted.includes(role.roleName), `DeleteRole named ${role.roleName}: ${deleted.join(', ')}`);
    assert.ok(
      !deleted.includes(otherCluster.roleName) && !deleted.includes(lookAlike),
      `no delete was even asked for the others: ${deleted.join(', ')}`,
    );
  });
});
