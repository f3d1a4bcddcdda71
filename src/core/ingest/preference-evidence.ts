/**
 * What a session shows about how its person likes to work, found when it is read (kept on it as
 * `Session.preferences`, a few short lines): statements in their own prompts ("always use…", "don't…", "prefer X over
 * Y", "use 2 spaces"), the frameworks and test tools their projects use (from the manifests agents read and the test
 * commands they ran), and the instruction files they keep (CLAUDE.md, AGENTS.md, .github/copilot-instructions.md).
 * Only the person's prompts are read for statements, never the agents' replies; text is already masked.
 */
import { isPrompt, type Turn } from '../model.js';
import { escapeRegExp } from '../regexp.js';

export interface PreferenceEvidence {
  category: string;
  /** The statement as written (trimmed), or what was found ("React", "pytest", "CLAUDE.md"). */
  text: string;
  /** The turn it came from. */
  turn: number;
}

const MAX_PER_SESSION = 16;
const MAX_STATEMENT = 160;
/** How much of a manifest's text is looked at. */
const MANIFEST_CHARS = 20_000;

/** A sentence that states how to work: it starts with an instruction, or says what the person prefers. */
const STATEMENT =
  /^(?:please\s+)?(?:always|never|don't|do not|dont|avoid|prefer|make sure (?:to|you)|use|stop|no more|keep (?:answers|responses|replies|explanations|it)|be (?:concise|brief|terse|short|more|less)|answer|reply|respond)\b|\b(?:i|we) (?:prefer|like to|always|never)\b/i;
/** Text a tool injects into the person's turn (Claude Code's caveat before local command output). */
const INJECTED = /^(?:Caveat:|<command-|\[Request interrupted)/;

/** A tool named in a statement says its category, whatever else the sentence says ("prefer Vitest over Jest" is testing). */
const NAMED: [string, RegExp][] = [
  ['testing', /\b(pytest|jest|vitest|mocha|jasmine|playwright|cypress|rspec|junit|unittest|testing library)\b/i],
  ['formatting', /\b(prettier|black|gofmt|rustfmt|clang-format|biome|ruff format)\b/i],
];

const CATEGORY: [string, RegExp][] = [
  // how answers should be: their length, tone, form and examples
  [
    'answers',
    /\b(answers?|responses?|replies|concise|brief|terse|short(?:er)?|verbose|long-winded|tl;?dr|bullet(?: points?)?|step[- ]by[- ]step|(?:code )?examples?|emoji\w*|tone|formal|casual)\b/i,
  ],
  [
    'formatting',
    /\b(indent\w*|\d+ spaces|tabs for|semicolons?|single quotes|double quotes|line length|prettier|black|gofmt|rustfmt|formatt\w*|trailing commas?|camelcase|snake_case)\b/i,
  ],
  ['testing', /\b(tests?|testing|pytest|jest|vitest|mocha|coverage|tdd|e2e|playwright|cypress)\b/i],
  ['communication', /\b(explain\w*|summar\w*|ask me|tell me|language|english|confirm|check with me)\b/i],
  ['architecture', /\b(architecture|layers?|modules?|services?|patterns?|dependency injection|structure|separat\w*|monolith|microservices?)\b/i],
  ['frameworks', /\b(react|vue|angular|svelte|next(?:\.js)?|django|flask|fastapi|express|tailwind|spring|rails|laravel)\b/i],
  ['error_handling', /\b(errors?|exceptions?|try\/catch|try-catch|throw|retr(?:y|ies))\b/i],
  ['git', /\b(commits?|branch(?:es)?|git|pull requests?|prs?|rebase)\b/i],
];

const FRAMEWORKS = [
  'react',
  'next',
  'vue',
  'nuxt',
  'angular',
  'svelte',
  'express',
  'fastify',
  'nestjs',
  'tailwindcss',
  'django',
  'flask',
  'fastapi',
  'typescript',
  'prisma',
  'drizzle-orm',
  'sqlalchemy',
  'pydantic',
];
const TEST_TOOLS = ['jest', 'vitest', 'mocha', 'playwright', 'cypress', 'pytest', '@testing-library/react'];
const TEST_COMMAND = /\b(pytest|vitest|jest|go test|cargo test|npm (?:run )?test|pnpm (?:run )?test|yarn test|mvn test|gradle test|rspec|phpunit)\b/;
const MANIFEST = /\b(package\.json|pyproject\.toml|requirements[\w.-]*\.txt|Cargo\.toml|go\.mod|Gemfile)\b/;
const INSTRUCTIONS = /(CLAUDE\.md|AGENTS\.md|copilot-instructions\.md|GEMINI\.md|\.cursorrules|\.windsurfrules)/;

// (a Map: a package named `constructor` is named as written)
const NAMES = new Map(
  Object.entries({
    next: 'Next.js',
    tailwindcss: 'Tailwind',
    nestjs: 'NestJS',
    'drizzle-orm': 'Drizzle',
    '@testing-library/react': 'React Testing Library',
    typescript: 'TypeScript',
    fastapi: 'FastAPI',
    sqlalchemy: 'SQLAlchemy',
  }),
);
const display = (name: string): string => NAMES.get(name) ?? name.charAt(0).toUpperCase() + name.slice(1);

function categoryOf(sentence: string): string {
  return (NAMED.find(([, re]) => re.test(sentence)) ?? CATEGORY.find(([, re]) => re.test(sentence)))?.[0] ?? 'coding_style';
}

/** The sentences of a prompt that state a preference. */
function statements(text: string): string[] {
  if (text.length > 4000 || INJECTED.test(text)) return []; // a pasted log or file, or text a tool put there
  return text
    .split(/\n+|(?<=[.!?])\s+/)
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .filter((s) => s.length >= 12 && s.split(' ').length >= 4 && s.length <= MAX_STATEMENT && !/[{}<>`]|https?:|\/\w+\//.test(s) && STATEMENT.test(s));
}

export function preferenceEvidence(turns: readonly Turn[]): PreferenceEvidence[] {
  const out: PreferenceEvidence[] = [];
  const seen = new Set<string>();
  const add = (category: string, text: string, turn: number): void => {
    const key = `${category}\u0000${text.toLowerCase()}`;
    if (seen.has(key) || out.length >= MAX_PER_SESSION) return;
    seen.add(key);
    out.push({ category, text, turn });
  };
  turns.forEach((t, i) => {
    if (isPrompt(t)) for (const s of statements(t.text)) add(categoryOf(s), s, i);
    if (t.role !== 'assistant' || t.kind === 'conversation' || t.kind === 'thinking') return;
    // a tool call: the test command it ran, the instruction file or the manifest it read (then its content, next turn)
    const call = t.text.slice(0, 2000);
    const command = TEST_COMMAND.exec(call)?.[1];
    if (command) add('testing', command, i);
    const instructions = INSTRUCTIONS.exec(call)?.[1];
    if (instructions) add('instructions', instructions, i);
    if (MANIFEST.test(call) && turns[i + 1]?.role === 'tool') {
      const manifest = turns[i + 1].text.slice(0, MANIFEST_CHARS);
      for (const name of FRAMEWORKS) if (new RegExp(`["'\\s]${escapeRegExp(name)}["'\\s=<>~^]`).test(manifest)) add('frameworks', display(name), i + 1);
      for (const name of TEST_TOOLS) if (new RegExp(`["'\\s]${escapeRegExp(name)}["'\\s=<>~^]`).test(manifest)) add('testing', display(name), i + 1);
    }
  });
  return out;
}
