import { z } from 'zod';
import { POLICY_KEYS, type PolicyKey } from '../../project/edit';
import { TARGET_IDS } from '../../targets/registry';
import { channel } from '../define';
import { Version } from './editor';

/**
 * The Settings view over kitbash.toml: read it, preview a change (the new text as a diff
 * and what it does to the installed skills), apply it. Every edit is one of a few named
 * operations main turns into a surgical splice; the renderer never sends file text.
 * `version` is sha256 of the file as read (null: no file), so a save made over an
 * external edit is refused instead of silently undoing it.
 */

const Strings = z
  .array(
    z
      .string()
      .min(1)
      .max(500)
      .refine((s) => !/\p{Cc}/u.test(s), 'no control characters'),
  )
  .max(200);
const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const VALUE_SCHEMA: Record<PolicyKey, z.ZodTypeAny> = {
  allow_sources: Strings,
  deny_network: z.boolean(),
  deny_write: z.boolean(),
  max_budget: Count,
  deny_remote_exec: z.boolean(),
  deny_mcp: z.boolean(),
  max_mcp_tools: Count,
  allow_mcp_servers: Strings,
  enforce_in_agent: z.boolean(),
};

const PolicyEdit = z
  .object({
    kind: z.literal('policy'),
    key: z.enum(Object.keys(POLICY_KEYS) as [PolicyKey, ...PolicyKey[]]),
    value: z.unknown(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.value === null) return;
    const r = VALUE_SCHEMA[e.key].safeParse(e.value);
    if (!r.success)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `${e.key}: ${r.error.issues[0]?.message ?? 'wrong type'}`,
        path: ['value'],
      });
  })
  .transform((e) => ({ kind: e.kind, key: e.key, value: e.value as boolean | number | string[] | null }));

export const SettingsEdit = z.union([
  z
    .object({
      kind: z.literal('targets'),
      targets: z
        .array(z.enum(TARGET_IDS as unknown as [string, ...string[]]))
        .max(TARGET_IDS.length)
        .nullable(),
    })
    .strict(),
  PolicyEdit,
  z.object({ kind: z.literal('removeException'), index: z.number().int().min(0).max(10_000) }).strict(),
]);
export type SettingsEdit = z.input<typeof SettingsEdit>;

const Edits = z.array(SettingsEdit).min(1).max(50);

export const SettingsException = z.object({
  skill: z.string(),
  check: z.string(),
  file: z.string(),
  line: z.number().int(),
  by: z.string(),
  reason: z.string(),
});

export const SettingsData = z.object({
  text: z.string(),
  version: Version,
  /** One line when the file does not parse; the view then offers nothing to edit. */
  error: z.string().nullable(),
  targets: z.array(z.string()).nullable(),
  /** The raw [policy] values the view edits, absent keys omitted; null = no [policy] table. */
  policy: z.record(z.string(), z.union([z.boolean(), z.number(), z.array(z.string())])).nullable(),
  /** Every [[policy.exceptions]] table in file order (index = its position), invalid ones with their problem. */
  exceptions: z.array(
    z.object({
      index: z.number().int(),
      entry: SettingsException.nullable(),
      /** The entry's id as written (null when invalid): what a confirmation is bound to. */
      id: z.string().nullable(),
      /** False: arrived with the project and not confirmed by this user — it accepts nothing (spec D190). */
      confirmed: z.boolean(),
      problem: z.string().nullable(),
    }),
  ),
  /** Target ids the registry knows, with the agent each serves. */
  known: z.array(z.object({ id: z.string(), agent: z.string() })),
});
export type SettingsData = z.infer<typeof SettingsData>;

export const SkillEffect = z.object({
  skill: z.string(),
  change: z.enum(['blocked', 'unblocked', 'still-blocked']),
  /** Why it is blocked after the change (policy violations and blocking findings), or what stopped blocking. */
  reasons: z.array(z.string()),
});

export const SettingsPreview = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), diff: z.string(), text: z.string(), effects: z.array(SkillEffect) }),
  z.object({ ok: z.literal(false), conflict: z.boolean(), message: z.string() }),
]);
export type SettingsPreview = z.infer<typeof SettingsPreview>;

export const settingsChannels = {
  read: channel(
    'kitbash.toml of the open project: its text, version, the values the Settings view edits and the known targets',
    z.object({}).strict(),
    SettingsData,
  ),
  preview: channel(
    'what a settings change would write to kitbash.toml (a diff) and which installed skills it blocks or unblocks; nothing written',
    z.object({ version: Version, edits: Edits }).strict(),
    SettingsPreview,
  ),
  apply: channel(
    'write a settings change to kitbash.toml atomically under the project lock, keeping comments and layout; refused when the file changed since it was read',
    z.object({ version: Version, edits: Edits }).strict(),
    z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), version: Version }),
      z.object({ ok: z.literal(false), conflict: z.boolean(), message: z.string() }),
    ]),
  ),
  confirmException: channel(
    'confirm, for this user, one [[policy.exceptions]] entry of kitbash.toml that arrived with the project, as written now (by its id)',
    z.object({ id: z.string().regex(/^[0-9a-f]{16}$/) }).strict(),
    z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true) }),
      z.object({ ok: z.literal(false), conflict: z.boolean(), message: z.string() }),
    ]),
  ),
} as const;
