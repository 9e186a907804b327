import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApi, type TestApi } from './api-harness.js';

/**
 * Keys that are also members of every JavaScript object (`constructor`, `toString`, `__proto__`)
 * are ordinary keys to the Kubernetes API: ConfigMap data keys, label keys in selectors, and
 * unknown fields (dropped, never mistaken for known ones).
 */
describe('kube API: keys that are JavaScript object members', () => {
  let api: TestApi;
  before(async () => (api = await startApi()));
  after(async () => api.close());

  const cms = '/api/v1/namespaces/default/configmaps';

  it('keeps ConfigMap data keys named __proto__, constructor and toString', async () => {
    // Sent as text: a JavaScript object literal cannot even hold a `__proto__` key.
    const body =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"keys","labels":{"constructor":"yes"}},"data":{"__proto__":"a","constructor":"b","toString":"c"}}';
    const created = await api.call('POST', cms, { body });
    assert.equal(created.status, 201, created.text);
    const got = await api.call('GET', `${cms}/keys`);
    assert.match(got.text, /"data":\{"__proto__":"a","constructor":"b","toString":"c"\}/);
  });

  it('matches label selectors on such keys only when the label is there', async () => {
    const names = async (selector: string) =>
      (await api.call('GET', `${cms}?labelSelector=${encodeURIComponent(selector)}`)).body.items.map(
        (i: any) => i.metadata.name,
      );
    assert.deepEqual(await names('constructor'), ['keys']);
    assert.deepEqual(await names('toString'), []);
    assert.deepEqual(await names('hasOwnProperty in (x)'), []);
    assert.deepEqual(await names('!valueOf'), ['keys']);
  });

  it('drops unknown fields named constructor or __proto__ instead of taking them for known ones', async () => {
    const body =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"odd","constructor":"x"},"constructor":1,"__proto__":{"polluted":true},"data":{"a":"1"}}';
    const created = await api.call('POST', cms, { body });
    assert.equal(created.status, 201, created.text);
    const got = await api.call('GET', `${cms}/odd`);
    assert.equal(Object.hasOwn(got.body, 'constructor'), false, got.text);
    assert.equal(Object.hasOwn(got.body.metadata, 'constructor'), false, got.text);
    assert.doesNotMatch(got.text, /polluted|__proto__/);
    assert.deepEqual(got.body.data, { a: '1' });
    const strict = await api.call('POST', `${cms}?fieldValidation=Strict`, { body: body.replace('"odd"', '"odd2"') });
    assert.equal(strict.status, 400, strict.text);
    assert.match(strict.body.message, /unknown field "constructor"/);
  });
});
