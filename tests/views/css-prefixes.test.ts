/**
 * The renderer's CSS is global, so names are kept apart by rule instead of by tooling:
 *
 * - One shared stylesheet holds the design tokens and the shared components — exactly the
 *   unprefixed classes listed in SHARED below. It is the folder renderer/src/styles/, split
 *   by what each file holds and pulled in, in cascade order, by one entry (styles/index.css)
 *   that `@import`s every other file there once.
 * - Every other stylesheet and component belongs to one area (a view folder, the app shell,
 *   the dashboard), and defines only classes with that area's prefix. It may style a
 *   shared class or a state word (`active`, `warn`, …) only beside one of its own classes,
 *   so nothing it says reaches another screen.
 * - A component's `className` names its own area's classes, the shared ones, and state
 *   words the CSS it can see defines — never another area's; it imports only its own
 *   area's CSS (the shared stylesheet: main.tsx alone, through its entry). A stylesheet
 *   `@import`s only its own area's sheets.
 *
 * To add a shared component: define it in a file of styles/ (a new file: `@import` it from
 * styles/index.css) and list its classes here.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { at, parseTs, readRenderer, rendererFiles, unwrap } from './renderer-sources';

interface Area {
  readonly name: string;
  /** '' for the shared area. */
  readonly prefix: string;
  readonly files: RegExp;
}

const AREAS: readonly Area[] = [
  {
    name: 'shared',
    prefix: '',
    files:
      /^(styles\/[\w-]+\.css|glossary\.tsx|components\/(Dialog|KeptNote|SkillSearch|States|UnifiedDiff|VirtualList)\.tsx)$/,
  },
  {
    name: 'app shell',
    prefix: 'app-',
    files:
      /^(main\.tsx|App\.tsx|api\/context\.tsx|views\/registry\.tsx|components\/(ProjectShell|LiveBadge|Logo|Picker|FolderBrowser|QuickOpen|SwitchDialog)\.tsx|components\/app-[\w-]+\.css)$/,
  },
  {
    name: 'dashboard',
    prefix: 'dash-',
    files:
      /^components\/((Dashboard|DashboardSkeleton|StatusCards|StandingChart|SkillsTable|SkillDrawer|Problems|AdoptNotice|SetUp)\.tsx|dash-[\w-]+\.css)$/,
  },
  { name: 'editor', prefix: 'ed-', files: /^views\/editor\/[^/]*\.(tsx?|css)$/ },
  { name: 'previews', prefix: 'pv-', files: /^views\/previews\/[^/]*\.(tsx?|css)$/ },
  { name: 'install', prefix: 'inst-', files: /^views\/install\/[^/]*\.(tsx?|css)$/ },
  { name: 'runs', prefix: 'runs-', files: /^views\/runs\/[^/]*\.(tsx?|css)$/ },
  { name: 'evals', prefix: 'evals-', files: /^views\/evals\/[^/]*\.(tsx?|css)$/ },
  { name: 'playground', prefix: 'play-', files: /^views\/playground\/[^/]*\.(tsx?|css)$/ },
  { name: 'matrix', prefix: 'matrix-', files: /^views\/matrix\/[^/]*\.(tsx?|css)$/ },
  { name: 'costs', prefix: 'cost-', files: /^views\/costs\/[^/]*\.(tsx?|css)$/ },
  { name: 'settings', prefix: 'set-', files: /^views\/settings\/[^/]*\.(tsx?|css)$/ },
];

const SHARED_DIR = 'styles/';
/** The one file that pulls in the shared stylesheet, and the one main.tsx imports. */
const SHARED_ENTRY = `${SHARED_DIR}index.css`;

/** The shared components' classes: everything styles/ may define, and every area may use. */
const SHARED = new Set([
  // text
  'mono',
  'muted',
  'small',
  'term',
  // buttons
  'btn',
  'icon-btn',
  'link',
  // page layout: a screen, its heading, panels, a skill list beside the content
  'page',
  'page-head',
  'loading-line',
  'panel',
  'panel-head',
  'grid-2',
  'empty-panel',
  'side-layout',
  'side-nav',
  'side-item',
  'side-main',
  'skill-name',
  'status-label',
  'form-row',
  'terminal',
  // messages
  'banner',
  'banner-detail',
  'inline-error',
  'ok-line',
  // badges, pills, tags, chips, the reasons behind a status
  'badge',
  'pill',
  'tag',
  'status-chip',
  'check-id',
  'notes',
  'note',
  'note-k',
  // form controls
  'segmented',
  'segmented-count',
  'filter',
  'field',
  // around a table
  'table-tools',
  'table-empty',
  'table-foot',
  'sort-mark',
  // dialog (components/Dialog.tsx) and drawer
  'modal-backdrop',
  'modal',
  'modal-head',
  'modal-actions',
  'drawer',
  'drawer-head',
  'drawer-desc',
  'drawer-facts',
  'fact-k',
  // loading, empty and error states (components/States.tsx)
  'state',
  'state-icon',
  'state-message',
  'state-code',
  'state-actions',
  'state-error',
  'state-empty',
  'skeleton',
  'skeleton-line',
  'spinner',
  'spinner-dot',
  // horizontal bar chart
  'bars',
  'bar-row',
  'bar-label',
  'bar-name',
  'bar-track',
  'bar-fill',
  'bar-value',
  'chart-note',
  // a unified diff's lines (components/UnifiedDiff.tsx)
  'diff-add',
  'diff-del',
  'diff-hunk',
]);

/** Classes a library puts in the page (Monaco), styled only by the editor. */
const FOREIGN: Readonly<Record<string, RegExp>> = { editor: /^(monaco-[\w-]+|action-widget)$/ };

const areaOf = (rel: string): Area | undefined => AREAS.find((a) => a.files.test(rel));
const prefixed = (cls: string): Area | undefined => AREAS.find((a) => a.prefix && cls.startsWith(a.prefix));

// ---------- CSS ----------

interface Rule {
  /** The selector list, as written. */
  readonly selector: string;
  readonly line: number;
}

/** Every style rule's selector (inside @media and @supports too; keyframes' steps are not selectors). */
export function cssRules(text: string): Rule[] {
  const src = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const rules: Rule[] = [];
  const stack: ('rule' | 'at' | 'keyframes')[] = [];
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '"' || c === "'") {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
    } else if (c === '{') {
      const prelude = src.slice(start, i).trim();
      if (prelude.startsWith('@')) stack.push(/^@(-\w+-)?keyframes\b/.test(prelude) ? 'keyframes' : 'at');
      else {
        const lead = src.slice(start, i).length - src.slice(start, i).trimStart().length;
        if (!stack.includes('keyframes'))
          rules.push({ selector: prelude, line: src.slice(0, start + lead).split('\n').length });
        stack.push('rule');
      }
      start = i + 1;
    } else if (c === '}') {
      stack.pop();
      start = i + 1;
    } else if (c === ';') start = i + 1;
  }
  return rules;
}

/** Split at top-level commas or combinators (whitespace, >, +, ~), not inside (), [] or strings. */
function splitTop(s: string, at: RegExp): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    if (depth === 0 && at.test(c)) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

interface Compound {
  readonly classes: string[];
  /** Whether it names an element (`tr.declared`), which a state word may qualify. */
  readonly element: boolean;
}

/** The compound selectors of each complex selector in a selector list. */
export function compounds(selectorList: string): Compound[][] {
  return splitTop(selectorList, /,/).map((complex) =>
    splitTop(complex, /[\s>+~]/).map((compound) => {
      const bare = compound.replace(/\[[^\]]*\]/g, '').replace(/(["'])(?:\\.|(?!\1).)*\1/g, '');
      return {
        classes: [...bare.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!),
        element: /^[a-zA-Z*]/.test(bare),
      };
    }),
  );
}

interface Sheet {
  readonly file: string;
  readonly area: Area;
  /** Classes that stand alone in a compound: the sheet's components. */
  readonly bases: Set<string>;
  /** Classes only ever beside another class in a compound: state words. */
  readonly modifiers: Set<string>;
  readonly problems: string[];
}

function readSheet(file: string, area: Area, text: string): Sheet {
  const bases = new Set<string>();
  const all = new Set<string>();
  const problems: string[] = [];
  const own = (c: string) => (area.prefix ? c.startsWith(area.prefix) : SHARED.has(c));
  for (const rule of cssRules(text)) {
    if (/(^|[\s,])(:root|html)\b/.test(rule.selector) && area.prefix)
      problems.push(`${file}:${rule.line} ${rule.selector}: design tokens live in ${SHARED_DIR}`);
    for (const complex of compounds(rule.selector)) {
      const classes = complex.flatMap((c) => c.classes);
      if (area.prefix && classes.length > 0 && !classes.some((c) => own(c) || FOREIGN[area.name]?.test(c)))
        problems.push(
          `${file}:${rule.line} "${rule.selector}" has no ${area.prefix} class: it would style other screens`,
        );
      for (const { classes: compound, element } of complex) {
        for (const c of compound) {
          all.add(c);
          const other = prefixed(c);
          if (other && other !== area) problems.push(`${file}:${rule.line} .${c} belongs to ${other.name}`);
          else if (FOREIGN[area.name]?.test(c)) continue;
          else if (!area.prefix && SHARED.has(c)) bases.add(c);
          else if (area.prefix && (own(c) || SHARED.has(c))) {
            if (own(c)) bases.add(c);
          } else if (compound.length === 1 && !element)
            problems.push(
              `${file}:${rule.line} .${c} stands alone: name it ${area.prefix ? `${area.prefix}…` : 'in SHARED'}, or use it beside a class`,
            );
        }
        const anchored = compound.some((c) => own(c) || SHARED.has(c) || FOREIGN[area.name]?.test(c));
        if (compound.length > 1 && !anchored && !element)
          problems.push(`${file}:${rule.line} .${compound.join('.')}: state words go beside a component class`);
      }
    }
  }
  const modifiers = new Set([...all].filter((c) => !bases.has(c) && !SHARED.has(c) && !prefixed(c)));
  return { file, area, bases, modifiers, problems };
}

/** The sheets a stylesheet pulls in with `@import` (quoted or `url(…)`), with their lines. */
export function cssImports(text: string): { spec: string; line: number }[] {
  const src = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  return [...src.matchAll(/@import\s+(?:url\(\s*)?(["']?)([^"')\s;]+)\1/g)].map((m) => ({
    spec: m[2]!,
    line: src.slice(0, m.index).split('\n').length,
  }));
}

/** A relative import's target as a path under renderer/src. */
const resolveFrom = (from: string, spec: string): string =>
  new URL(spec, `file:///r/${from}`).pathname.slice('/r/'.length);

// ---------- TSX ----------

const UNKNOWN = '\u0000';

/** The strings an expression can be, as far as its text shows; UNKNOWN stands for a runtime value. */
function values(e: ts.Expression): string[] {
  e = unwrap(e);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
  if (ts.isTemplateExpression(e)) {
    let acc = [e.head.text];
    for (const span of e.templateSpans) {
      const vs = values(span.expression);
      acc = acc.flatMap((a) => vs.map((v) => a + v + span.literal.text)).slice(0, 256);
    }
    return acc;
  }
  if (ts.isConditionalExpression(e)) return [...values(e.whenTrue), ...values(e.whenFalse)];
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken)
      return values(e.left)
        .flatMap((a) => values(e.right).map((b) => a + b))
        .slice(0, 256);
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return ['', ...values(e.right)];
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken)
      return [UNKNOWN, ...values(e.right)];
  }
  return [UNKNOWN];
}

interface Use {
  readonly token: string;
  readonly where: string;
}

/** Class names a component file writes: `className` (JSX or an options object) and DOM selector strings. */
export function classUses(rel: string, text: string): Use[] {
  const sf = parseTs(rel, text);
  const uses: Use[] = [];
  const add = (e: ts.Expression, node: ts.Node) => {
    for (const v of values(e))
      for (const token of v.split(/\s+/).filter(Boolean)) uses.push({ token, where: at(sf, node) });
  };
  const visit = (n: ts.Node): void => {
    if (
      ts.isJsxAttribute(n) &&
      ts.isIdentifier(n.name) &&
      /^className$|ClassName$/.test(n.name.text) &&
      n.initializer
    ) {
      const init = n.initializer;
      if (ts.isStringLiteral(init)) add(init, n);
      else if (ts.isJsxExpression(init) && init.expression) add(init.expression, n);
    }
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && /ClassName$|^className$/.test(n.name.text))
      add(n.initializer, n);
    // A function that names a class (`diffLineClass`): what it returns.
    if (ts.isReturnStatement(n) && n.expression) {
      let fn: ts.Node | undefined = n.parent;
      while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
      if (fn && ts.isFunctionDeclaration(fn) && fn.name && /Class$/.test(fn.name.text)) add(n.expression, n);
    }
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      /^(querySelector|querySelectorAll|closest|matches)$/.test(n.expression.name.text) &&
      n.arguments[0]
    )
      for (const v of values(n.arguments[0]))
        for (const m of v.replace(/\[[^\]]*\]/g, '').matchAll(/\.(-?[_a-zA-Z][\w-]*)/g))
          uses.push({ token: m[1]!, where: at(sf, n) });
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return uses;
}

// ---------- the rules ----------

const cssFiles = rendererFiles(/\.css$/);
const tsxFiles = rendererFiles(/\.tsx$/);
/** Components, and a view's plain modules too: a hook may name classes (Monaco decorations). */
const classFiles = [...tsxFiles, ...rendererFiles(/\.ts$/).filter((f) => areaOf(f))];
const sheets = cssFiles.flatMap((f) => {
  const area = areaOf(f);
  return area ? [readSheet(f, area, readRenderer(f))] : [];
});
const sheetsOf = (area: Area) => sheets.filter((s) => s.area === area);
const shared = sheets.filter((s) => s.area.prefix === '');
const cssImportsOf = (f: string) => cssImports(readRenderer(f)).map((i) => ({ ...i, target: resolveFrom(f, i.spec) }));

describe('CSS: one shared stylesheet, one prefix per area', () => {
  it('reads the renderer', () => {
    expect(cssFiles.length).toBeGreaterThan(8);
    expect(tsxFiles.length).toBeGreaterThan(80);
  });

  it('puts every stylesheet and component in exactly one area', () => {
    const lost = [...cssFiles, ...tsxFiles].filter((f) => AREAS.filter((a) => a.files.test(f)).length !== 1);
    expect(lost).toEqual([]);
  });

  it('has one shared stylesheet, styles/, pulled in whole by its entry and nothing else', () => {
    const files = shared.map((s) => s.file);
    expect(files.filter((f) => !f.startsWith(SHARED_DIR))).toEqual([]);
    expect(files).toContain(SHARED_ENTRY);
    // The entry only orders the others: each of them once, no rules of its own.
    expect(cssRules(readRenderer(SHARED_ENTRY))).toEqual([]);
    expect(
      cssImportsOf(SHARED_ENTRY)
        .map((i) => i.target)
        .sort(),
    ).toEqual(files.filter((f) => f !== SHARED_ENTRY));
  });

  it('has the shared stylesheet define exactly the listed shared classes', () => {
    const bases = new Set(shared.flatMap((s) => [...s.bases]));
    const listedUnused = [...SHARED].filter(
      (c) =>
        !bases.has(c) &&
        !tsxFiles.some((f) => areaOf(f)?.prefix === '' && classUses(f, readRenderer(f)).some((u) => u.token === c)),
    );
    expect(listedUnused).toEqual([]);
    expect([...bases].filter((c) => !SHARED.has(c))).toEqual([]);
  });

  it('lists no shared class under an area prefix', () => {
    expect([...SHARED].filter((c) => prefixed(c))).toEqual([]);
  });

  it('keeps every stylesheet to its own classes', () => {
    expect(sheets.flatMap((s) => s.problems)).toEqual([]);
  });

  it('imports CSS only from its own area; the shared stylesheet from main.tsx alone, first', () => {
    const bad: string[] = [];
    for (const f of rendererFiles(/\.tsx?$/)) {
      const sf = parseTs(f, readRenderer(f));
      for (const s of sf.statements) {
        if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
        const spec = s.moduleSpecifier.text;
        if (!spec.endsWith('.css')) continue;
        const target = resolveFrom(f, spec);
        if (target.startsWith(SHARED_DIR)) {
          if (f !== 'main.tsx' || target !== SHARED_ENTRY) bad.push(`${f} imports ${target}`);
        } else if (areaOf(target) !== areaOf(f)) bad.push(`${f} (${areaOf(f)?.name}) imports ${target}`);
      }
    }
    // First, so every component's own CSS comes after the shared components it builds on.
    const first = parseTs('main.tsx', readRenderer('main.tsx')).statements.find(ts.isImportDeclaration);
    if (
      !first ||
      !ts.isStringLiteral(first.moduleSpecifier) ||
      resolveFrom('main.tsx', first.moduleSpecifier.text) !== SHARED_ENTRY
    )
      bad.push(`main.tsx does not import ${SHARED_ENTRY} first`);
    for (const f of cssFiles)
      for (const { target, line } of cssImportsOf(f)) {
        if (areaOf(target) !== areaOf(f)) bad.push(`${f}:${line} (${areaOf(f)?.name}) @imports ${target}`);
        else if (target.startsWith(SHARED_DIR) && f !== SHARED_ENTRY) bad.push(`${f}:${line} @imports ${target}`);
      }
    expect(bad).toEqual([]);
  });

  it('imports every area stylesheet somewhere (no orphan CSS)', () => {
    const imported = new Set([
      ...rendererFiles(/\.tsx?$/).flatMap((f) =>
        [...readRenderer(f).matchAll(/^import '([^']+\.css)';$/gm)].map((m) => resolveFrom(f, m[1]!)),
      ),
      ...cssFiles.flatMap((f) => cssImportsOf(f).map((i) => i.target)),
    ]);
    expect(cssFiles.filter((f) => !imported.has(f))).toEqual([]);
  });

  it('uses in each component only its area’s classes, the shared ones and state words its CSS defines', () => {
    const bad: string[] = [];
    for (const f of classFiles) {
      const area = areaOf(f);
      if (!area) continue;
      const words = new Set([...sheetsOf(area), ...shared].flatMap((s) => [...s.modifiers]));
      for (const { token, where } of classUses(f, readRenderer(f))) {
        if (token === UNKNOWN) continue; // a state word chosen at run time
        if (token.includes(UNKNOWN))
          bad.push(`${where} "${token.replace(UNKNOWN, '${…}')}": a class built at run time`);
        else if (SHARED.has(token) || (area.prefix && token.startsWith(area.prefix))) continue;
        else if (prefixed(token)) bad.push(`${where} .${token} belongs to ${prefixed(token)!.name}`);
        else if (FOREIGN[area.name]?.test(token)) continue;
        else if (!words.has(token))
          bad.push(`${where} .${token}: not ${area.prefix || 'shared'}, nor a state word its CSS defines`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('leaves no class of an area’s CSS unused by its components', () => {
    const unused: string[] = [];
    for (const area of AREAS.filter((a) => a.prefix)) {
      const used = new Set(
        classFiles.filter((f) => areaOf(f) === area).flatMap((f) => classUses(f, readRenderer(f)).map((u) => u.token)),
      );
      for (const s of sheetsOf(area))
        for (const c of s.bases) if (c.startsWith(area.prefix) && !used.has(c)) unused.push(`${s.file} .${c}`);
    }
    expect(unused).toEqual([]);
  });
});

describe('the rules catch what they are for', () => {
  const runs = AREAS.find((a) => a.name === 'runs')!;
  const problems = (css: string) => readSheet('x.css', runs, css).problems;

  it.each([
    ['.runs-grid .play-head { margin: 0 }', /belongs to playground/],
    ['.btn.danger { color: red }', /no runs- class/],
    ['.runs-form .label { margin: 0 }', /stands alone/],
    [':root { --x: 1px }', /design tokens/],
    ['.warn { color: red }', /no runs- class/],
  ])('rejects %s', (css, why) => {
    expect(problems(css).join('\n')).toMatch(why);
  });

  it.each([
    '.runs-skill.active .skill-name { color: red }',
    '.runs-form .btn { margin: 0 }',
    '.runs-labels tr.declared td:first-child { font-weight: 700 }',
    '@media (max-width: 900px) { .runs-grid { display: block } }',
    '@keyframes runs-pulse { from { opacity: 0 } }',
  ])('accepts %s', (css) => {
    expect(problems(css)).toEqual([]);
  });

  it('reads a sheet’s @imports, not the ones in comments', () => {
    const css =
      "/* @import './old.css'; */\n@import './a.css';\n@import url(\"b.css\");\n@import url(c.css) screen;\n.x { }";
    expect(cssImports(css)).toEqual([
      { spec: './a.css', line: 2 },
      { spec: 'b.css', line: 3 },
      { spec: 'c.css', line: 4 },
    ]);
  });

  it('reads the classes a component writes, including chosen and built ones', () => {
    const uses = classUses(
      'x.tsx',
      "export const X = ({ on, k }: { on: boolean; k: string }) => <div className={`a ${on ? 'b' : ''} c-${k}`}><i className=\"d\" /></div>;\n",
    ).map((u) => u.token);
    expect(uses).toEqual(expect.arrayContaining(['a', 'b', `c-${UNKNOWN}`, 'd']));
  });
});
