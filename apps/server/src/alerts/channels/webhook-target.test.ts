import { describe, expect, it } from 'vitest';
import { WebhookTargets } from './webhook-target.ts';

describe('webhook targets (SSRF guard)', () => {
  const none = new WebhookTargets();

  it('refuses loopback, private, link-local and mapped addresses; takes public ones', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://10.1.2.3/hook',
      'http://172.20.0.1/hook',
      'http://192.168.1.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a00:1]/hook',
    ])
      expect([url, await none.refusal(url)]).toEqual([url, 'private']);
    expect(await none.refusal('https://93.184.215.14/hook')).toBeNull();
    expect(await none.refusal('https://[2606:4700::1111]/hook')).toBeNull();
    expect(await none.refusal('https://[::ffff:93.184.215.14]/hook')).toBeNull();
  });

  it('judges a name by every address it resolves to', async () => {
    expect(await none.refusal('http://localhost:9000/hook')).toBe('private');
    expect(await none.refusal('http://nothing.invalid/hook')).toBe('unresolved');
  });

  it('takes what WEBHOOK_ALLOW_HOSTS names: a host, an address, a range', async () => {
    const allowed = new WebhookTargets(['localhost', '127.0.0.1', '10.8.0.0/16', 'fd00::/8']);
    expect(await allowed.refusal('http://localhost:9000/hook')).toBeNull();
    expect(await allowed.refusal('http://127.0.0.1:9000/hook')).toBeNull();
    expect(await allowed.refusal('http://10.8.3.4/hook')).toBeNull();
    expect(await allowed.refusal('http://[fd00::1]/hook')).toBeNull();
    expect(await allowed.refusal('http://10.9.0.1/hook')).toBe('private');
    expect(await allowed.refusal('http://127.0.0.2/hook')).toBe('private');
  });

  it('refuses at connect time the address a name resolves to', async () => {
    const failure = await new Promise<Error | null>((resolve) =>
      none.lookup('localhost', {}, (error) => resolve(error)),
    );
    expect(failure?.message).toBe('webhook: localhost is 127.0.0.1, not allowed');
    const found = await new Promise<unknown>((resolve) =>
      new WebhookTargets(['127.0.0.0/8']).lookup('localhost', {}, (_e, address) =>
        resolve(address),
      ),
    );
    expect(found).toBe('127.0.0.1');
  });
});
