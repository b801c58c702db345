import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, expect } from 'vitest';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const root = join(__dirname, '..', '..');
const schemaDir = join(root, 'spec', 'schema');
const artifactDir = join(schemaDir, 'artifacts');

type Json = Record<string, unknown>;

function readJson(path: string): Json {
  return JSON.parse(readFileSync(path, 'utf8')) as Json;
}

function makeAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  return ajv;
}

function compile(path: string): ValidateFunction {
  return makeAjv().compile(readJson(path));
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The complete prereview skill.toml from the KSF source document, as parsed. */
const prereview: Json = {
  skill: {
    name: 'prereview',
    version: '0.1.0',
    description: "Review the working diff against this team's real standards before it ships",
    license: 'Apache-2.0',
    authors: ['Kitbash contributors'],
    homepage: 'https://github.com/singhharsh1708/kitbash',
  },
  triggers: { commands: ['/prereview'], events: ['pre-push'] },
  context: { budget: 1500, standing: 60, disclosure: 'lazy' },
  permissions: { tools: ['read', 'grep', 'bash:git diff *', 'bash:git log *'], network: false, write: false },
  artifacts: { produces: ['findings@1'], consumes: ['plan@1'] },
  targets: { requires: [], mode: 'gate' },
  lore: { reads: ['conventions', 'invariants'] },
};

const withMcp: Json = {
  skill: { name: 'issue-triage', version: '1.2.0', description: 'Triage new issues with the tracker MCP server' },
  context: { budget: 2000 },
  dependencies: { prereview: '^0.1.0' },
  mcp: {
    on_unsupported: 'warn',
    servers: {
      tracker: {
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@acme/tracker-mcp@2.3.1'],
        env: { TRACKER_TOKEN: '${TRACKER_TOKEN}' },
        tools: ['search_issues', 'add_label'],
        timeout_ms: 30000,
      },
      docs: {
        transport: 'streamable-http',
        url: 'https://mcp.acme.example/docs',
        headers: { Authorization: 'Bearer ${DOCS_TOKEN}' },
        tools: ['*'],
      },
    },
  },
};

/** Apply a mutation to a copy of the prereview manifest. */
function variant(mutate: (m: Record<string, Json>) => void): Json {
  const copy = clone(prereview) as Record<string, Json>;
  mutate(copy);
  return copy;
}

describe('spec/schema/skill.schema.json', () => {
  const schema = readJson(join(schemaDir, 'skill.schema.json'));
  const validate = compile(join(schemaDir, 'skill.schema.json'));

  it('is a draft 2020-12 schema with the Skillsmith $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('https://skillsmith.dev/schema/skill@0.1.json');
    expect(schema.additionalProperties).toBe(false);
  });

  it('closes the root and every fixed table', () => {
    const props = schema.properties as Record<string, Json>;
    for (const table of ['skill', 'triggers', 'context', 'permissions', 'artifacts', 'targets', 'lore', 'mcp']) {
      expect(props[table]?.additionalProperties, table).toBe(false);
    }
    const defs = schema.$defs as Record<string, Json>;
    expect(defs.mcpServer?.additionalProperties).toBe(false);
  });

  it('accepts the complete prereview manifest from the KSF source document', () => {
    expect(validate(prereview), JSON.stringify(validate.errors)).toBe(true);
  });

  it('accepts a manifest that declares MCP servers and dependencies', () => {
    expect(validate(withMcp), JSON.stringify(validate.errors)).toBe(true);
  });

  it('accepts a minimal manifest with only the required tables', () => {
    const minimal = {
      skill: { name: 'ab', version: '0.0.1-rc.1', description: 'Ten chars!' },
      context: { budget: 50 },
    };
    expect(validate(minimal), JSON.stringify(validate.errors)).toBe(true);
  });

  /** [what is wrong, manifest, expected `instancePath keyword` of one reported error] */
  const violations: Array<[string, Json, string]> = [
    [
      'an unknown key inside [permissions]',
      variant((m) => {
        m.permissions!.netwrok = true;
      }),
      '/permissions additionalProperties',
    ],
    [
      'a name with uppercase and underscore',
      variant((m) => {
        m.skill!.name = 'Bad_Name';
      }),
      '/skill/name pattern',
    ],
    [
      'a one-letter name',
      variant((m) => {
        m.skill!.name = 'p';
      }),
      '/skill/name pattern',
    ],
    [
      'a version that is not semver',
      variant((m) => {
        m.skill!.version = '1.0';
      }),
      '/skill/version pattern',
    ],
    [
      'a version with build metadata',
      variant((m) => {
        m.skill!.version = '1.0.0+build.5';
      }),
      '/skill/version pattern',
    ],
    [
      'a description under 10 characters',
      variant((m) => {
        m.skill!.description = 'short';
      }),
      '/skill/description minLength',
    ],
    [
      'a budget of 10',
      variant((m) => {
        m.context!.budget = 10;
      }),
      '/context/budget minimum',
    ],
    [
      'a fractional budget',
      variant((m) => {
        m.context!.budget = 1500.5;
      }),
      '/context/budget type',
    ],
    [
      'a missing budget',
      variant((m) => {
        delete m.context!.budget;
      }),
      '/context required',
    ],
    [
      'a standing limit over 500',
      variant((m) => {
        m.context!.standing = 999;
      }),
      '/context/standing maximum',
    ],
    [
      'a disclosure outside lazy/eager',
      variant((m) => {
        m.context!.disclosure = 'eger';
      }),
      '/context/disclosure enum',
    ],
    [
      'a trigger command without a leading slash',
      variant((m) => {
        m.triggers!.commands = ['prereview'];
      }),
      '/triggers/commands/0 pattern',
    ],
    [
      'a trigger command that is a path',
      variant((m) => {
        m.triggers!.commands = ['/../../tmp/pwned'];
      }),
      '/triggers/commands/0 pattern',
    ],
    [
      'a scalar where an array is required',
      variant((m) => {
        m.triggers!.commands = '/prereview';
      }),
      '/triggers/commands type',
    ],
    [
      'an artifact ref with a dotted version',
      variant((m) => {
        m.artifacts!.produces = ['findings@1.0'];
      }),
      '/artifacts/produces/0 pattern',
    ],
    [
      'an artifact ref without a version',
      variant((m) => {
        m.artifacts!.consumes = ['plan'];
      }),
      '/artifacts/consumes/0 pattern',
    ],
    [
      'an unknown top-level table',
      variant((m) => {
        m.widgets = { size: 3 };
      }),
      ' additionalProperties',
    ],
    [
      'an unknown event',
      variant((m) => {
        m.triggers!.events = ['on-save'];
      }),
      '/triggers/events/0 enum',
    ],
    [
      'an unknown capability',
      variant((m) => {
        m.targets!.requires = ['gpu'];
      }),
      '/targets/requires/0 enum',
    ],
    [
      'an unknown lore collection',
      variant((m) => {
        m.lore!.reads = ['gossip'];
      }),
      '/lore/reads/0 enum',
    ],
    [
      'a homepage that is not a URI',
      variant((m) => {
        m.skill!.homepage = 'not a uri';
      }),
      '/skill/homepage format',
    ],
    [
      'a dependency key that is not a skill name',
      variant((m) => {
        m.dependencies = { Bad_Dep: '^1.0.0' };
      }),
      '/dependencies propertyNames',
    ],
    [
      'a missing [skill] table',
      variant((m) => {
        delete m.skill;
      }),
      ' required',
    ],
  ];

  const mcpVariant = (mutate: (servers: Record<string, Json>, mcp: Json) => void): Json => {
    const copy = clone(withMcp);
    const mcp = copy.mcp as Json;
    mutate(mcp.servers as Record<string, Json>, mcp);
    return copy;
  };

  violations.push(
    [
      'a server name with uppercase letters',
      mcpVariant((s) => {
        s.Tracker = s.tracker!;
        delete s.tracker;
      }),
      '/mcp/servers propertyNames',
    ],
    [
      'a server name over 64 characters',
      mcpVariant((s) => {
        s['a'.repeat(65)] = s.tracker!;
      }),
      '/mcp/servers propertyNames',
    ],
    [
      'a server with an empty tools list',
      mcpVariant((s) => {
        s.tracker!.tools = [];
      }),
      '/mcp/servers/tracker/tools minItems',
    ],
    [
      'a server without tools',
      mcpVariant((s) => {
        delete s.tracker!.tools;
      }),
      '/mcp/servers/tracker required',
    ],
    [
      'a server with an unknown transport',
      mcpVariant((s) => {
        s.tracker!.transport = 'websocket';
      }),
      '/mcp/servers/tracker/transport enum',
    ],
    [
      'a server with an unknown key',
      mcpVariant((s) => {
        s.tracker!.cwd = '/tmp';
      }),
      '/mcp/servers/tracker additionalProperties',
    ],
    [
      'a server timeout of 0',
      mcpVariant((s) => {
        s.tracker!.timeout_ms = 0;
      }),
      '/mcp/servers/tracker/timeout_ms minimum',
    ],
    [
      'a server env value that is not a string',
      mcpVariant((s) => {
        s.tracker!.env = { PORT: 8080 };
      }),
      '/mcp/servers/tracker/env/PORT type',
    ],
    [
      'a stdio server without a command',
      mcpVariant((s) => {
        delete s.tracker!.command;
      }),
      '/mcp/servers/tracker required',
    ],
    [
      'a remote server that declares a command',
      mcpVariant((s) => {
        s.docs!.command = 'node';
      }),
      '/mcp/servers/docs/command false schema',
    ],
    [
      'an on_unsupported value outside warn/error',
      mcpVariant((_s, mcp) => {
        mcp.on_unsupported = 'ignore';
      }),
      '/mcp/on_unsupported enum',
    ],
  );

  it.each(violations)('rejects %s', (_label, manifest, expected) => {
    expect(validate(manifest)).toBe(false);
    const reported = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(reported).toContain(expected);
  });
});

const created = '2026-12-01T19:41:53Z';

const artifactCases: Record<string, { valid: Json; invalid: Array<[string, Json]> }> = {
  plan: {
    valid: {
      artifact: 'plan@1',
      skill: 'planner@0.3.0',
      created,
      goal: 'Split the loader into parse and validate stages',
      steps: [
        { id: 'parse', title: 'Extract the TOML parse step', status: 'done', files: ['shared/ksf/load.ts'] },
        { id: 'validate', title: 'Move validation behind parse', status: 'in-progress', depends_on: ['parse'] },
      ],
    },
    invalid: [
      [
        'a step with an unknown status',
        {
          artifact: 'plan@1',
          skill: 'planner@0.3.0',
          created,
          steps: [{ id: 'parse', title: 'Extract the TOML parse step', status: 'finished' }],
        },
      ],
      [
        'the wrong artifact type and no steps',
        {
          artifact: 'plan@2',
          skill: 'planner@0.3.0',
          created,
          steps: [],
        },
      ],
    ],
  },
  findings: {
    valid: {
      artifact: 'findings@1',
      skill: 'prereview@0.1.0',
      created,
      subject: { base: 'origin/main', head: 'HEAD' },
      findings: [
        {
          severity: 'error',
          rule: 'invariants/no-sync-io',
          message: 'readFileSync on the request path',
          file: 'main/server.ts',
          lines: { start: 41, end: 44 },
        },
        { severity: 'note', rule: 'conventions/naming', message: 'Prefer kebab-case file names' },
      ],
    },
    invalid: [
      [
        'a severity outside the enum',
        {
          artifact: 'findings@1',
          skill: 'prereview@0.1.0',
          created,
          findings: [{ severity: 'critical', rule: 'x', message: 'y' }],
        },
      ],
      [
        'a line range of 0 and no producer',
        {
          artifact: 'findings@1',
          created,
          findings: [{ severity: 'warning', rule: 'x', message: 'y', file: 'a.ts', lines: { start: 0 } }],
        },
      ],
    ],
  },
  verify: {
    valid: {
      artifact: 'verify@1',
      skill: 'ship-check@1.0.0',
      created,
      verdict: 'fail',
      checks: [
        { name: 'unit tests', status: 'pass', command: 'npm test', exit_code: 0, duration_ms: 8123 },
        { name: 'typecheck', status: 'fail', detail: '2 errors', exit_code: 2 },
        { name: 'e2e', status: 'skip', detail: 'no display' },
      ],
    },
    invalid: [
      [
        'a passing verdict despite a failed check',
        {
          artifact: 'verify@1',
          skill: 'ship-check@1.0.0',
          created,
          verdict: 'pass',
          checks: [{ name: 'typecheck', status: 'fail' }],
        },
      ],
      [
        'a check status outside pass/fail/skip and a missing verdict',
        {
          artifact: 'verify@1',
          skill: 'ship-check@1.0.0',
          created,
          checks: [{ name: 'typecheck', status: 'error' }],
        },
      ],
    ],
  },
  benchmark: {
    valid: {
      artifact: 'benchmark@1',
      skill: 'perf-probe@0.2.1',
      created,
      environment: { os: 'linux', arch: 'x64', cpu: 'AMD EPYC 7B13', cores: 8, runtime: 'node 20.19.0', ci: true },
      measurements: [
        { name: 'lint 100 skills', value: 412.5, unit: 'ms', samples: 20, stddev: 11.2, lower_is_better: true },
        { name: 'peak rss', value: 88, unit: 'MiB' },
      ],
    },
    invalid: [
      [
        'a measurement whose value is a string',
        {
          artifact: 'benchmark@1',
          skill: 'perf-probe@0.2.1',
          created,
          environment: { os: 'linux', arch: 'x64' },
          measurements: [{ name: 'lint', value: '412 ms', unit: 'ms' }],
        },
      ],
      [
        'a missing environment and a created that is not a date-time',
        {
          artifact: 'benchmark@1',
          skill: 'perf-probe@0.2.1',
          created: 'yesterday',
          measurements: [{ name: 'lint', value: 412, unit: 'ms' }],
        },
      ],
    ],
  },
};

describe('spec/schema/artifacts', () => {
  it('ships exactly the four reserved artifact types', () => {
    expect(readdirSync(artifactDir).sort()).toEqual([
      'benchmark@1.json',
      'findings@1.json',
      'plan@1.json',
      'verify@1.json',
    ]);
  });

  for (const [type, cases] of Object.entries(artifactCases)) {
    describe(`${type}@1`, () => {
      const path = join(artifactDir, `${type}@1.json`);
      const schema = readJson(path);
      const validate = compile(path);

      it('is a draft 2020-12 schema fixing the artifact type', () => {
        expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
        expect(schema.$id).toBe(`https://skillsmith.dev/schema/artifacts/${type}@1.json`);
        expect((schema.properties as Record<string, Json>).artifact).toEqual({ const: `${type}@1` });
        expect(schema.required).toEqual(expect.arrayContaining(['artifact', 'skill', 'created']));
        expect(schema.additionalProperties).toBe(false);
      });

      it('accepts a valid example', () => {
        expect(validate(cases.valid), JSON.stringify(validate.errors)).toBe(true);
      });

      it('rejects an unknown top-level key', () => {
        expect(validate({ ...cases.valid, extra: 1 })).toBe(false);
      });

      it.each(cases.invalid)('rejects %s', (_label, doc) => {
        expect(validate(doc)).toBe(false);
      });
    });
  }
});

describe('spec/SPEC.md', () => {
  const spec = readFileSync(join(root, 'spec', 'SPEC.md'), 'utf8');
  const lines = spec.split(/\r?\n/);

  it('has the differences section', () => {
    expect(lines).toContain('## Differences from kitbash 0.24.1');
  });

  it('has one subsection per deliberate difference, numbered from D1 upwards, each number once', () => {
    const ids = lines.filter((l) => /^### D\d+ — \S/.test(l)).map((l) => Number(/^### D(\d+)/.exec(l)![1]));
    expect(ids.length).toBeGreaterThanOrEqual(21);
    // D1–D49 without gaps; later numbers come in ranges reserved per branch, so they may skip.
    expect(ids.slice(0, 49)).toEqual(Array.from({ length: 49 }, (_, i) => i + 1));
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
  });

  it('names every lint check id', () => {
    for (const id of [
      'manifest',
      'name-convention',
      'references',
      'budget',
      'standing',
      'gate-verdict',
      'mcp',
      'artifacts',
      'triggers',
      'schema',
      'json-schema',
      'injection',
      'visible-text',
      'dynamic-context',
      'remote-exec',
      'secrets',
      'evals',
    ]) {
      expect(spec).toContain(`\`${id}\``);
    }
  });
});
