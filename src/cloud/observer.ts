import type { KubeObject } from '../domain/kube-object.js';

/**
 * What the product sends to its clouds, told to whoever wants to know — every AWS request (the SDK
 * command's input, before it is serialized) and every object applied to a Kubernetes API (the full
 * manifest of a server-side apply, the product's one kind of Kubernetes write). The conformance test
 * (test/conformance/) records them during the e2e suite and holds each to its upstream definition;
 * an audit trail can hang off the same seam. Observers must not throw and must not keep secrets:
 * inputs may carry them (a Secret's data), so whatever keeps these redacts first.
 */
export interface CloudObserver {
  awsRequest?(request: ObservedAwsRequest): void;
  /** After each AWS call answered (or failed): its request id, for the audit trail (docs/AUDIT.md). */
  awsResponse?(response: ObservedAwsResponse): void;
  kubeApply?(write: ObservedKubeApply): void;
  /** After each Kubernetes write other than an apply (merge patch, scale, delete) succeeded: the object it named. */
  kubeWrite?(write: ObservedKubeWrite): void;
}

export interface ObservedAwsResponse {
  service: string;
  operation: string;
  region: string;
  /** The SDK's `$metadata.requestId` (AWS's `x-amzn-RequestId`); absent when no answer came (a timeout). */
  requestId?: string;
  /** The error's code (its name) when the call failed. */
  errorCode?: string;
}

export interface ObservedKubeWrite {
  region: string;
  cluster: string;
  verb: 'patch' | 'scale' | 'delete';
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface ObservedAwsRequest {
  /** The client's service: ec2, eks, sagemaker, iam, s3, fsx, sts, quotas. */
  service: string;
  /** The operation, as the SDK model names it: `CreateCluster`. */
  operation: string;
  region: string;
  /** The command's input, as the product built it. */
  input: unknown;
}

export interface ObservedKubeApply {
  region: string;
  /** The EKS cluster whose API received the object. */
  cluster: string;
  object: KubeObject;
}

/** Tells the observer, never letting it break the call it watches. */
export function tell<T>(notify: ((event: T) => void) | undefined, event: T): void {
  if (!notify) return;
  try {
    notify(event);
  } catch {
    // An observer's failure is its own; the product's call goes on.
  }
}
