// ipRangeContains(range, targetRange): whether an IPv4 or IPv6 range (an address or CIDR) holds another.
import { Unknown } from './types';

function parseV4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

function parseV6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const group = (s: string) => (s === '' ? [] : s.split(':'));
  const head = group(halves[0]);
  const tail = halves.length === 2 ? group(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

interface Range {
  v6: boolean;
  low: bigint;
  high: bigint;
}

function parseRange(text: string): Range {
  const [address, prefixText, extra] = text.trim().split('/');
  const v6 = address.includes(':');
  const bits = v6 ? 128 : 32;
  const value = v6 ? parseV6(address) : parseV4(address);
  const prefix = prefixText === undefined ? bits : /^\d+$/.test(prefixText) ? Number(prefixText) : NaN;
  if (value === undefined || extra !== undefined || !(prefix >= 0 && prefix <= bits))
    throw new Unknown(`ipRangeContains() cannot read '${text}' as an IP address or range`);
  const hostBits = BigInt(bits - prefix);
  const low = (value >> hostBits) << hostBits;
  return { v6, low, high: low + (1n << hostBits) - 1n };
}

export function ipRangeContains(range: string, target: string): boolean {
  const outer = parseRange(range);
  const inner = parseRange(target);
  if (outer.v6 !== inner.v6) throw new Unknown('ipRangeContains() got an IPv4 and an IPv6 range (the service fails the evaluation)');
  return inner.low >= outer.low && inner.high <= outer.high;
}
