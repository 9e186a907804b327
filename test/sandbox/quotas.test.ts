import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  GetAWSDefaultServiceQuotaCommand,
  GetRequestedServiceQuotaChangeCommand,
  GetServiceQuotaCommand,
  ListAWSDefaultServiceQuotasCommand,
  ListRequestedServiceQuotaChangeHistoryByQuotaCommand,
  ListRequestedServiceQuotaChangeHistoryCommand,
  ListServiceQuotasCommand,
  RequestServiceQuotaIncreaseCommand,
  ServiceQuotasClient,
  type ServiceQuota,
} from '@aws-sdk/client-service-quotas';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const rejectsWith = (code: string) => (e: Error) => {
  assert.equal(e.name, code, e.message);
  return true;
};

describe('Service Quotas', () => {
  let sb: TestSandbox;
  let quotas: ServiceQuotasClient;
  let all: ServiceQuota[];
  const byName = (name: string) => all.find((q) => q.QuotaName === name)!;

  before(async () => {
    sb = await startTestSandbox();
    quotas = new ServiceQuotasClient({ region: 'us-west-2' });
    all = [];
    let NextToken: string | undefined;
    do {
      const page = await quotas.send(
        new ListServiceQuotasCommand({ ServiceCode: 'sagemaker', MaxResults: 20, NextToken }),
      );
      assert.ok(page.Quotas!.length <= 20);
      all.push(...page.Quotas!);
      NextToken = page.NextToken;
    } while (NextToken);
  });
  after(async () => sb.dispose());

  it('lists the HyperPod quotas for service code sagemaker, accelerated types at 0 as for a new account', async () => {
    const p5 = byName('ml.p5.48xlarge for cluster usage');
    assert.equal(p5.Value, 0);
    assert.equal(p5.ServiceName, 'Amazon SageMaker');
    assert.equal(p5.Unit, 'None');
    assert.equal(p5.Adjustable, true);
    assert.match(p5.QuotaCode!, /^L-[0-9A-F]{8}$/);
    assert.equal(p5.QuotaArn, `arn:aws:servicequotas:us-west-2:000000000000:sagemaker/${p5.QuotaCode}`);
    assert.ok(byName('ml.g5.xlarge for cluster usage').Value! > 0);
    assert.ok(byName('ml.trn1.32xlarge for cluster usage').Value === 0);
    assert.ok(byName('Total number of instances allowed across SageMaker HyperPod clusters').Value! > 0);
    assert.ok(byName('Maximum number of instances allowed per SageMaker HyperPod cluster'));
    assert.ok(byName('Maximum size of EBS volume in GB for a SageMaker HyperPod cluster instance'));
    assert.equal(new Set(all.map((q) => q.QuotaCode)).size, all.length);

    const one = await quotas.send(new GetServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: p5.QuotaCode }));
    assert.equal(one.Quota!.QuotaName, 'ml.p5.48xlarge for cluster usage');
    const defaults = await quotas.send(new ListAWSDefaultServiceQuotasCommand({ ServiceCode: 'sagemaker' }));
    assert.equal(defaults.Quotas!.length, all.length);
  });

  it('raises a quota after the request is approved on the sandbox clock, in its own region only', async () => {
    const code = byName('ml.p5.48xlarge for cluster usage').QuotaCode!;
    const { RequestedQuota: req } = await quotas.send(
      new RequestServiceQuotaIncreaseCommand({ ServiceCode: 'sagemaker', QuotaCode: code, DesiredValue: 4 }),
    );
    assert.equal(req!.Status, 'PENDING');
    assert.equal(req!.DesiredValue, 4);
    await assert.rejects(
      quotas.send(
        new RequestServiceQuotaIncreaseCommand({ ServiceCode: 'sagemaker', QuotaCode: code, DesiredValue: 8 }),
      ),
      rejectsWith('ResourceAlreadyExistsException'),
    );

    await sb.advance(6 * 60);
    const opened = await quotas.send(new GetRequestedServiceQuotaChangeCommand({ RequestId: req!.Id }));
    assert.equal(opened.RequestedQuota!.Status, 'CASE_OPENED');
    assert.ok(opened.RequestedQuota!.CaseId);
    assert.equal(
      (await quotas.send(new GetServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: code }))).Quota!.Value,
      0,
    );

    await sb.advance(90 * 60);
    const approved = await quotas.send(new GetRequestedServiceQuotaChangeCommand({ RequestId: req!.Id }));
    assert.equal(approved.RequestedQuota!.Status, 'APPROVED');
    assert.equal(
      (await quotas.send(new GetServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: code }))).Quota!.Value,
      4,
    );
    assert.equal(
      (await quotas.send(new GetAWSDefaultServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: code }))).Quota!
        .Value,
      0,
    );

    const east = new ServiceQuotasClient({ region: 'us-east-1' });
    assert.equal(
      (await east.send(new GetServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: code }))).Quota!.Value,
      0,
    );
    assert.deepEqual((await east.send(new ListRequestedServiceQuotaChangeHistoryCommand({}))).RequestedQuotas, []);

    const history = await quotas.send(
      new ListRequestedServiceQuotaChangeHistoryByQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: code }),
    );
    assert.deepEqual(
      history.RequestedQuotas!.map((r) => r.Id),
      [req!.Id],
    );
    const approvedOnly = await quotas.send(
      new ListRequestedServiceQuotaChangeHistoryCommand({ ServiceCode: 'sagemaker', Status: 'APPROVED' }),
    );
    assert.equal(approvedOnly.RequestedQuotas!.length, 1);
  });

  it('rejects bad requests with the real codes and changes nothing', async () => {
    const before = await sb.inventory();
    const code = byName('ml.g5.xlarge for cluster usage').QuotaCode!;
    const current = byName('ml.g5.xlarge for cluster usage').Value!;
    await assert.rejects(
      quotas.send(
        new RequestServiceQuotaIncreaseCommand({ ServiceCode: 'sagemaker', QuotaCode: code, DesiredValue: current }),
      ),
      rejectsWith('IllegalArgumentException'),
    );
    await assert.rejects(
      quotas.send(new GetServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: 'L-00000000' })),
      rejectsWith('NoSuchResourceException'),
    );
    await assert.rejects(
      quotas.send(new ListServiceQuotasCommand({ ServiceCode: 'no-such-service' })),
      rejectsWith('NoSuchResourceException'),
    );
    await assert.rejects(
      quotas.send(new GetServiceQuotaCommand({ ServiceCode: 'sagemaker', QuotaCode: undefined })),
      (e: Error) => {
        assert.equal(e.name, 'IllegalArgumentException');
        assert.match(e.message, /'quotaCode' failed to satisfy constraint: Member must not be null/);
        return true;
      },
    );
    await assert.rejects(
      quotas.send(new ListServiceQuotasCommand({ ServiceCode: 'sagemaker', MaxResults: 500 })),
      rejectsWith('IllegalArgumentException'),
    );
    await assert.rejects(
      quotas.send(new GetRequestedServiceQuotaChangeCommand({ RequestId: 'abc123' })),
      rejectsWith('NoSuchResourceException'),
    );
    assert.deepEqual(await sb.inventory(), before);
  });

  it('answers the aws CLI', async () => {
    const out = await sb.aws(['service-quotas', 'list-service-quotas', '--service-code', 'sagemaker'], {
      region: 'us-west-2',
    });
    assert.ok(
      out.json.Quotas.some((q: ServiceQuota) => q.QuotaName === 'ml.p5.48xlarge for cluster usage' && q.Value === 4),
    );
  });
});
