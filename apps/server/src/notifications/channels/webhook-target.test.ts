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

  it('judges an IPv6 address that carries an IPv4 one by the IPv4 address', async () => {
    for (const url of [
      // IPv4-compatible (deprecated, still parsed by every stack): the review's bypass
      'http://[::127.0.0.1]/hook',
      'http://[::10.0.0.1]/hook',
      'http://[::a9fe:a9fe]/latest/meta-data',
      // IPv4-translated (RFC 6145)
      'http://[::ffff:0:127.0.0.1]/hook',
      // NAT64 (RFC 6052): the gateway connects to the IPv4 address inside
      'http://[64:ff9b::127.0.0.1]/hook',
      'http://[64:ff9b::c0a8:101]/hook',
      // NAT64 for local use (RFC 8215): the site's own translator, whatever it embeds
      'http://[64:ff9b:1::5db8:d70e]/hook',
      // 6to4 (RFC 3056): 2002:AABB:CCDD:: is the IPv4 address AA.BB.CC.DD
      'http://[2002:7f00:1::1]/hook',
      'http://[2002:a9fe:a9fe::]/hook',
      // Teredo (RFC 4380): the client's IPv4 address is hidden in it; nobody's webhook is there
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
      // reserved, documentation, site-local
      'http://[2001:db8::1]/hook',
      'http://[fec0::1]/hook',
      'http://[100::1]/hook',
    ])
      expect([url, await none.refusal(url)]).toEqual([url, 'private']);
    // A public IPv4 address reached through NAT64 or 6to4 is public.
    expect(await none.refusal('https://[64:ff9b::5db8:d70e]/hook')).toBeNull();
    expect(await none.refusal('https://[2002:5db8:d70e::1]/hook')).toBeNull();
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
