import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIngress } from '../../src/domain/kube/ingress.js';
import { parseService } from '../../src/domain/kube/service.js';
import { holderPlanItem, holderWaitWords, loadBalancerHolders } from '../../src/domain/kube-load-balancers.js';

const service = (name: string, type: string, extra: Record<string, unknown> = {}) =>
  parseService({ metadata: { name, namespace: 'default', ...extra }, spec: { type, ports: [{ port: 80 }] } });
const lbStatus = (hostname: string) => ({ loadBalancer: { ingress: [{ hostname }] } });

describe('which Kubernetes objects hold an AWS load balancer (what a cluster delete removes first)', () => {
  it('every LoadBalancer Service, whichever controller made it; no ClusterIP or NodePort Service', () => {
    const holders = loadBalancerHolders(
      [
        service('nlb', 'LoadBalancer'),
        parseService({
          metadata: { name: 'clb', namespace: 'team', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] },
          spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
          status: lbStatus('a1b2-1.us-west-2.elb.amazonaws.com'),
        }),
        service('internal', 'ClusterIP'),
        service('nodeport', 'NodePort'),
      ],
      [],
    );
    assert.deepEqual(
      holders.map((h) => [h.kind, h.namespace, h.name, h.address, h.finalizers]),
      [
        ['Service', 'default', 'nlb', undefined, []],
        [
          'Service',
          'team',
          'clb',
          'a1b2-1.us-west-2.elb.amazonaws.com',
          ['service.kubernetes.io/load-balancer-cleanup'],
        ],
      ],
    );
  });

  it('Ingresses the AWS Load Balancer Controller serves (class alb, its finalizer, a load balancer reported), not an nginx one', () => {
    const ingress = (name: string, raw: Record<string, unknown>) =>
      parseIngress({ ...raw, metadata: { name, namespace: 'default', ...(raw.metadata as object) } });
    const holders = loadBalancerHolders(
      [],
      [
        ingress('by-class', { spec: { ingressClassName: 'alb' } }),
        ingress('by-annotation', { metadata: { annotations: { 'kubernetes.io/ingress.class': 'alb' } } }),
        ingress('by-group', { metadata: { finalizers: ['group.ingress.k8s.aws/shared'] }, spec: {} }),
        ingress('nginx', { spec: { ingressClassName: 'nginx' } }),
        ingress('endpoint', {
          metadata: {
            ownerReferences: [
              { apiVersion: 'inference.sagemaker.aws.amazon.com/v1', kind: 'InferenceEndpointConfig', name: 'm' },
            ],
            deletionTimestamp: '2026-12-07T00:00:00Z',
            finalizers: ['ingress.k8s.aws/resources'],
          },
          spec: { ingressClassName: 'alb' },
          status: lbStatus('internal-k8s-default-m-1.us-west-2.elb.amazonaws.com'),
        }),
      ],
    );
    assert.deepEqual(
      holders.map((h) => h.name),
      ['by-class', 'by-annotation', 'by-group', 'endpoint'],
    );
    const endpoint = holders.at(-1)!;
    assert.equal(endpoint.ownedByEndpoint, 'InferenceEndpointConfig m');
    assert.equal(endpoint.deleting, true);
    assert.match(
      holderWaitWords(endpoint),
      /Ingress default\/endpoint \(its controller has not removed ingress\.k8s\.aws\/resources/,
    );
    assert.deepEqual(holderPlanItem(endpoint), {
      kind: 'Load balancer',
      name: 'internal-k8s-default-m-1.us-west-2.elb.amazonaws.com (Ingress default/endpoint)',
    });
    assert.deepEqual(holderPlanItem(holders[0]!), {
      kind: 'Load balancer',
      name: 'of Ingress default/by-class (none made yet)',
    });
  });

  it('reads finalizers into the metadata only when an object has some', () => {
    assert.equal('finalizers' in service('plain', 'ClusterIP').metadata, false);
    assert.deepEqual(
      service('held', 'LoadBalancer', { finalizers: ['service.k8s.aws/resources', 7] }).metadata.finalizers,
      ['service.k8s.aws/resources'],
    );
  });
});
