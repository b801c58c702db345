import type { Pattern } from './patterns';

/**
 * How a rule's matches are judged (./secrets.ts): `token` — a key with a fixed prefix, whole;
 * `url` — a URL whose user:password part is the secret; `pem` — a private key, header and body.
 */
export type SecretShape = 'token' | 'url' | 'pem';

export interface SecretRule extends Pattern {
  readonly shape: SecretShape;
}

/*
 * The rule set is secretlint's recommended preset as data (SPEC.md D240): the expressions of
 * @secretlint/secretlint-rule-preset-recommend 12.0.0 (MIT, Copyright (c) 2020 azu;
 * github.com/secretlint/secretlint), the last release whose engines allow Node 20. Its rules
 * cannot run here — they import node:path and judge asynchronously — so only their expressions
 * are taken, adapted to the one-pass matcher: no `u` flag, `\b` for `(?<!\p{L})`, and a few
 * length floors where the source accepts one character (SendGrid, Slack) so prose never
 * matches. Skillsmith's own earlier rules are kept where they are wider (the labels marked
 * "also" below) so no key found before is lost; Google API and Stripe live keys, which the
 * preset lacks, are Skillsmith's earlier rules (the shapes of gitleaks' gcp-api-key and
 * stripe-access-token rules).
 * Left out: the preset's AWS account ID (an account number is no credential), GCP's .p12 and
 * service-account file rules (a service-account JSON is found by its private key), and
 * filter-comments (a directive, not a rule).
 */

/** A newline, or the two characters `\n` of a key inside a JSON or shell string. */
const NL = String.raw`(?:\r?\n|\\(?:r\\)?n)`;

export const SECRET_RULES: readonly SecretRule[] = [
  // secretlint-rule-aws
  {
    label: 'AWS access key',
    shape: 'token',
    re: /\b(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}\b/g,
  },
  {
    label: 'AWS secret access key',
    shape: 'token',
    re: /(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)["']?\s*(?::|=>|=)\s*["']?[A-Za-z0-9/+=]{40}\b/g,
  },
  // secretlint-rule-anthropic; also Skillsmith's earlier, wider `sk-ant-` rule
  { label: 'Anthropic API key', shape: 'token', re: /\bsk-ant-(?:api0\d-|admin01-)?[A-Za-z0-9_-]{80,}/g },
  // secretlint-rule-openai; also Skillsmith's earlier project and legacy rules
  { label: 'OpenAI project key', shape: 'token', re: /\bsk-proj-[A-Za-z0-9_-]{40,}/g },
  { label: 'OpenAI service-account or admin key', shape: 'token', re: /\bsk-(?:svcacct|admin)-[A-Za-z0-9_-]{40,}/g },
  { label: 'OpenAI key', shape: 'token', re: /\bsk-[A-Za-z0-9]{48}\b/g },
  // secretlint-rule-github; also Skillsmith's earlier fine-grained rule (60 or more)
  { label: 'GitHub token', shape: 'token', re: /\bgh[pousr]_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])/g },
  { label: 'GitHub fine-grained token', shape: 'token', re: /\bgithub_pat_[A-Za-z0-9_]{60,}/g },
  // secretlint-rule-gitlab
  { label: 'GitLab token', shape: 'token', re: /\bglpat-[A-Za-z0-9_-]{20,128}(?![A-Za-z0-9_-])/g },
  // Skillsmith's earlier rules, not in the preset
  { label: 'Google API key', shape: 'token', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  // live keys only: a test key reaches no money
  { label: 'Stripe live key', shape: 'token', re: /\b[sr]k_live_[A-Za-z0-9]{24,}/g },
  // secretlint-rule-slack; also Skillsmith's earlier rule without dash-separated parts
  { label: 'Slack token', shape: 'token', re: /\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{12,}/g },
  {
    label: 'Slack webhook',
    shape: 'token',
    re: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9]{1,40}\/B[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{8,40}/g,
  },
  // secretlint-rule-linear; also Skillsmith's earlier rule
  { label: 'Linear API key', shape: 'token', re: /\blin_api_[A-Za-z0-9_]{32,}/g },
  // secretlint-rule-npm
  { label: 'npm token', shape: 'token', re: /\bnpm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])/g },
  { label: 'npm auth token', shape: 'token', re: /_authToken=[^\s$'"]\S{7,}/g },
  // secretlint-rule-groq, -huggingface, -notion
  { label: 'Groq API key', shape: 'token', re: /\bgsk_[A-Za-z0-9]{52}(?![A-Za-z0-9])/g },
  { label: 'Hugging Face token', shape: 'token', re: /\bhf_[A-Za-z]{34}(?![A-Za-z])/g },
  { label: 'Notion token', shape: 'token', re: /\bntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])/g },
  // secretlint-rule-sendgrid, with the real key's part lengths as floors
  {
    label: 'SendGrid API key',
    shape: 'token',
    re: /\bSG\.[A-Za-z0-9_-]{16,128}\.[A-Za-z0-9_-]{16,128}(?![A-Za-z0-9_-])/g,
  },
  // secretlint-rule-shopify, -grafana, -1password
  { label: 'Shopify token', shape: 'token', re: /\bshp(?:pa|ca|at|ss)_[A-Za-z0-9]{32,64}(?![A-Za-z0-9])/g },
  { label: 'Grafana token', shape: 'token', re: /\bglc_[A-Za-z0-9+/]{32,400}={0,2}(?![A-Za-z0-9+/=])/g },
  { label: 'Grafana token', shape: 'token', re: /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Fa-f0-9])/g },
  {
    label: '1Password service token',
    shape: 'token',
    re: /\bops_ey[A-Za-z0-9+/=]{100,1280}fQ={0,2}(?![A-Za-z0-9+/=])/g,
  },
  // secretlint-rule-hashicorp-vault, -vercel, -databricks, -docker, -figma
  { label: 'HashiCorp Vault token', shape: 'token', re: /\bhv[sr]\.[A-Za-z0-9_-]{90,120}(?![A-Za-z0-9_-])/g },
  { label: 'HashiCorp Vault token', shape: 'token', re: /\bhvb\.[A-Za-z0-9_-]{138,300}(?![A-Za-z0-9_-])/g },
  { label: 'Vercel token', shape: 'token', re: /\bvc[piark]_[A-Za-z0-9]{20,60}(?![A-Za-z0-9])/g },
  { label: 'Databricks token', shape: 'token', re: /\bdapi[A-Fa-f0-9]{32}(?:-[0-9])?(?![A-Fa-f0-9])/g },
  { label: 'Docker access token', shape: 'token', re: /\bdckr_pat_[A-Za-z0-9_-]{27}(?![A-Za-z0-9_-])/g },
  { label: 'Figma token', shape: 'token', re: /\bfigd_[A-Za-z0-9_-]{40,200}(?![A-Za-z0-9_-])/g },
  // secretlint-rule-database-connection-string (Skillsmith's earlier rule, wider in schemes)
  {
    label: 'DB connection secret',
    shape: 'url',
    re: /\b(?:postgres(?:ql)?|mongodb(?:\+srv)?|mysqlx?|mariadb|rediss?|amqps?):\/\/[^:@\s/]+:[^@\s/]{6,}@/g,
  },
  // secretlint-rule-basicauth (its two- and four-character floors are in the expression)
  {
    label: 'password in a URL',
    shape: 'url',
    re: /\b(?:https?|ftps?):\/\/[-A-Za-z0-9_]{2,256}:[-A-Za-z0-9_]{4,256}@[-A-Za-z0-9%._+~#=]{1,256}\.[A-Za-z0-9()]{1,6}\b/g,
  },
  // secretlint-rule-privatekey: the header, then the lines that follow it while they are
  // base64 or PEM header fields, then the END line; ./secrets.ts judges the body.
  {
    label: 'private key',
    shape: 'pem',
    re: new RegExp(
      String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:${NL}|[ \t])+(?:[A-Za-z-]+: [^\r\n\\]*|[A-Za-z0-9+/=]+))*(?:(?:${NL}|[ \t])+-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----)?`,
      'g',
    ),
  },
];
