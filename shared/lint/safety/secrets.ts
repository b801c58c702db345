import { findAll, type Pattern } from './patterns';
import type { Hit } from '../types';

const SECRETS: readonly Pattern[] = [
  { label: 'AWS access key', re: /\bAKIA[0-9A-Z]{16}\b/g },
  { label: 'Anthropic API key', re: /\bsk-ant-(?:api03-)?[A-Za-z0-9_-]{80,}/g },
  { label: 'OpenAI project key', re: /\bsk-proj-[A-Za-z0-9_-]{40,}/g },
  { label: 'OpenAI key', re: /\bsk-[A-Za-z0-9]{48}\b/g },
  { label: 'GitHub token', re: /\bghp_[A-Za-z0-9]{36}\b/g },
  { label: 'GitHub fine-grained token', re: /\bgithub_pat_[A-Za-z0-9_]{60,}/g },
  { label: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { label: 'Stripe live key', re: /\bsk_live_[A-Za-z0-9]{24,}/g },
  { label: 'Slack token', re: /\bxox[baprs]-[A-Za-z0-9-]{12,}/g },
  { label: 'Linear API key', re: /\blin_api_[A-Za-z0-9]{40,}/g },
  { label: 'DB connection secret', re: /\b(?:postgres(?:ql)?|mongodb(?:\+srv)?|mysql|redis|amqp):\/\/[^:@\s/]+:[^@\s/]{6,}@/g },
  { label: 'private key', re: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP )?PRIVATE KEY-----/g },
];

/** Documentation placeholders; judged per match, so one never shields a real key elsewhere. */
const PLACEHOLDER = /EXAMPLE|XXXX|YOUR[_-]?|PLACEHOLDER|REDACTED|\.\.\.|<[A-Za-z]|\$\{/i;

export function findSecrets(text: string): Hit[] {
  return findAll(text, SECRETS, (m) => !PLACEHOLDER.test(m));
}
