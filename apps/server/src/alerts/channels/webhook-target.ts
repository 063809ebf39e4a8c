import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may go (SSRF guard): public addresses only, unless WEBHOOK_ALLOW_HOSTS names
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
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    const mapped = family === 'ipv6' ? ipv4Mapped(address) : null;
    if (mapped) return this.allowsAddress(mapped);
    if (this.#addresses.check(address, family)) return true;
    return !NOT_PUBLIC.check(address, family);
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
        return callback(new Error(`webhook: ${hostname} is ${refused.address}, not allowed`), '');
      if (options.all) return callback(null, found);
      callback(null, found[0]!.address, found[0]!.family);
    });
  };
}

/** The IPv4 address of an IPv4-mapped IPv6 one (::ffff:127.0.0.1, or as URLs write it ::ffff:7f00:1). */
const ipv4Mapped = (address: string): string | null => {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
};

/** The host of a URL as a resolver takes it ([::1] → ::1). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Loopback, private, link-local (cloud metadata), shared, multicast and reserved ranges. */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');
