import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { BlockList, isIP } from 'node:net';
import { UndeliverableError } from './channel.ts';

/**
 * Where a webhook may go (SSRF guard): public addresses only — global unicast as ipaddr.js
 * classifies it, so loopback, private, link-local (cloud metadata), shared (CGNAT), unique-local,
 * multicast, reserved and documentation ranges are not — unless WEBHOOK_ALLOW_HOSTS names
 * the host, its address or a range holding it (a receiver inside the factory network, the tests'
 * fakes on 127.0.0.1). Checked when a person saves the URL and again on the address each delivery
 * actually connects to, so a name that resolves elsewhere later (DNS rebinding) is refused too.
 */
export class WebhookTargets {
  readonly #names = new Set<string>();
  readonly #addresses = new BlockList();

  /** `allow`: host names, IP addresses and CIDR ranges (WEBHOOK_ALLOW_HOSTS, comma-separated). */
  constructor(allow: readonly string[] = []) {
    for (const entry of allow) {
      const [address, bits] = entry.split('/');
      const family = isIP(address ?? '');
      if (family === 0) this.#names.add(entry.toLowerCase());
      else if (bits === undefined)
        this.#addresses.addAddress(address!, family === 4 ? 'ipv4' : 'ipv6');
      else this.#addresses.addSubnet(address!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
    }
  }

  /** The host is named in the allow-list: any address it resolves to is taken. */
  allowsName(hostname: string) {
    return this.#names.has(hostname.toLowerCase());
  }

  /** A public address, or one the allow-list takes. */
  allowsAddress(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    const parsed = ipaddr.parse(address);
    if (this.#addresses.check(parsed.toString(), parsed.kind())) return true;
    if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
    const v6 = parsed as ipaddr.IPv6;
    // An address that carries an IPv4 one reaches that one (a translator, a tunnel, or the
    // host's own stack): judged as it.
    const inner = embeddedIPv4(v6);
    if (inner) return this.allowsAddress(inner);
    return v6.range() === 'unicast';
  }

  /**
   * Why a URL may not be a webhook: 'private' (it is or resolves to an address not allowed),
   * 'unresolved' (no address), or null when it may.
   */
  async refusal(url: string): Promise<'private' | 'unresolved' | null> {
    const hostname = hostOf(new URL(url));
    if (this.allowsName(hostname)) return null;
    if (isIP(hostname)) return this.allowsAddress(hostname) ? null : 'private';
    const addresses = await new Promise<LookupAddress[]>((resolve) =>
      dnsLookup(hostname, { all: true }, (error, found) => resolve(error ? [] : found)),
    );
    if (addresses.length === 0) return 'unresolved';
    return addresses.every((a) => this.allowsAddress(a.address)) ? null : 'private';
  }

  /**
   * A `lookup` for http.request: resolves as usual and refuses an address not allowed, so the
   * connection is made only to an address that passed (the check and the connect see one answer).
   */
  readonly lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    dnsLookup(hostname, { ...options, all: true } as never, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '');
      const refused = this.allowsName(hostname)
        ? undefined
        : found.find((a) => !this.allowsAddress(a.address));
      if (refused)
        return callback(
          new UndeliverableError(`webhook: ${hostname} is ${refused.address}, not allowed`),
          '',
        );
      if (options.all) return callback(null, found);
      callback(null, found[0]!.address, found[0]!.family);
    });
  };
}

const ipv4Of = (high: number, low: number) =>
  [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 one stands for, where it embeds one in a form that reaches it:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated but still parsed and
 * routed by stacks: the review's `[::127.0.0.1]`), IPv4-translated (::ffff:0:a.b.c.d), NAT64's
 * well-known prefix (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). Judging the IPv6 form
 * alone would take each of these as a public address. ipaddr.js names the ranges; the IPv4
 * address is read from the positions each RFC gives it.
 */
const embeddedIPv4 = (address: ipaddr.IPv6): string | null => {
  const p = address.parts;
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return ipv4Of(p[6]!, p[7]!);
  // 64:ff9b::/96 only: the local-use 64:ff9b:1::/48 (RFC 8215) is the site's own translator,
  // free to embed as it likes, and stays refused.
  if (range === 'rfc6052' && p[2] === 0) return ipv4Of(p[6]!, p[7]!);
  if (range === '6to4') return ipv4Of(p[1]!, p[2]!);
  // ::/96 beyond :: and ::1 (the unspecified and loopback addresses, refused as themselves)
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return ipv4Of(p[6]!, p[7]!);
  return null;
};

/** The host of a URL as a resolver takes it ([::1] → ::1). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');
