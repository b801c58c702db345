/** The pure half of a `network = true` run's isolation: which addresses are this machine, which resolvers it gets. */
import { describe, expect, it } from 'vitest';
import {
  addressScope,
  expandIpv6,
  isolationBatch,
  outsideResolvers,
  runResolvConf,
} from '../../shared/sandbox/network';

describe('addressScope', () => {
  it('knows loopback, unspecified, link-local and IPv4-mapped forms of each', () => {
    for (const a of ['127.0.0.1', '127.0.0.53', '0.0.0.0', '::1', '::', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
      expect([a, addressScope(a)]).toEqual([a, 'this-host']);
    for (const a of ['169.254.169.254', 'fe80::1', 'FE80::1%eth0', 'febf::1', '::ffff:169.254.1.1'])
      expect([a, addressScope(a)]).toEqual([a, 'link-local']);
    for (const a of ['10.0.0.1', '1.1.1.1', 'fd00::2', '2001:db8::1', 'fec0::1', '::ffff:10.1.2.3'])
      expect([a, addressScope(a)]).toEqual([a, 'other']);
    for (const a of ['', 'localhost', '1.2.3', '256.1.1.1', '1::2::3', 'fe80::g'])
      expect(addressScope(a)).toBeUndefined();
  });

  it('expands IPv6 to one spelling', () => {
    expect(expandIpv6('fd00:0::2')).toBe(expandIpv6('FD00::2'));
    expect(expandIpv6('::ffff:1.2.3.4')).toBe('0000:0000:0000:0000:0000:ffff:0102:0304');
    expect(expandIpv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
  });
});

describe('outsideResolvers and runResolvConf', () => {
  const conf = [
    '# written by a tool',
    'nameserver 127.0.0.53',
    'nameserver ::1',
    'nameserver 192.168.1.5',
    'nameserver fe80::1%eth0',
    'nameserver fd00:0::2',
    'nameserver 10.0.0.53',
    'nameserver 10.0.0.53',
    '  nameserver 2001:db8::53',
    'search example.test',
    'options edns0',
  ].join('\n');

  it('keeps only resolvers outside this machine: not its loopback, its own addresses or link-local', () => {
    expect(outsideResolvers(conf, ['192.168.1.5/32', 'fd00::2/128'])).toEqual(['10.0.0.53', '2001:db8::53']);
    // control: without host addresses, the host's own resolvers would pass as outside.
    expect(outsideResolvers(conf, [])).toEqual(['192.168.1.5', 'fd00:0::2', '10.0.0.53', '2001:db8::53']);
  });

  it('writes them as the run resolv.conf, or a note when none is left', () => {
    expect(runResolvConf(['10.0.0.53'])).toBe('nameserver 10.0.0.53\n');
    expect(runResolvConf(outsideResolvers('nameserver 127.0.0.53\noptions edns0\n', []))).toMatch(
      /^# skillsmith: this machine names no resolver outside itself/,
    );
  });
});

describe('isolationBatch', () => {
  it('routes every host address to unreachable and prohibits link-local of both families', () => {
    expect(isolationBatch(['10.1.2.3/32', 'fd00::2/128'], true)).toEqual({
      all: [
        'route add unreachable 10.1.2.3/32',
        'route add unreachable fd00::2/128',
        'rule add to 169.254.0.0/16 prohibit pref 1',
      ],
      inet6: ['rule add to fe80::/10 prohibit pref 1'],
    });
  });

  it('leaves IPv6 out where the kernel has none', () => {
    expect(isolationBatch(['10.1.2.3/32', 'fd00::2/128'], false)).toEqual({
      all: ['route add unreachable 10.1.2.3/32', 'rule add to 169.254.0.0/16 prohibit pref 1'],
      inet6: [],
    });
  });
});
