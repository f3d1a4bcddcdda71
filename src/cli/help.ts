/**
 * Help for one command (`session-search search --help`), cut from the full usage text so the two never disagree, and
 * "did you mean" for a mistyped option or command.
 */
import { editDistance } from '../core/index/expand.js';
import { USAGE } from './args.js';

/** The filters search and list share, and where sessions are read from. */
const FILTERS = ['limit', 'date', 'from', 'to', 'source', 'project', 'exact', 'repo', 'branch', 'tag', 'all-tags'];
const READ = ['root', 'data', 'no-archive'];

/** The options each command reads (the rest of USAGE's options do nothing for it). */
const COMMAND_OPTIONS: Record<string, string[]> = {
  search: ['json', 'toon', ...FILTERS, 'role', 'mode', ...READ, 'partial', 'team', 'db', 'verbose'],
  get: ['json', 'toon', ...READ, 'team', 'db', 'verbose'],
  export: [...READ, 'verbose'],
  resume: ['run', 'root', 'data', 'verbose'],
  list: ['json', 'toon', ...FILTERS, ...READ, 'partial', 'verbose'],
  files: ['json', 'toon', 'lines', 'limit', 'from', ...READ, 'partial', 'verbose'],
  sources: ['json', 'toon', 'root', 'data', 'verbose'],
  import: ['json', 'toon', 'data', 'verbose'],
  mcp: [...READ, 'db', 'verbose'],
  serve: [...READ, 'db', 'machine', 'verbose'],
  engine: ['json', 'toon', ...READ, 'verbose'],
  archive: ['json', 'toon', 'data'],
  learn: ['json', 'toon', ...READ, 'verbose'],
  'mcp-config': ['root'],
  tag: ['json', 'toon', 'root', 'data'],
  untag: ['json', 'toon', 'root', 'data'],
  tags: ['json', 'toon', 'data'],
  team: ['db', 'project', 'machine', 'watch', 'interval', 'json', 'toon', 'data', 'root'],
  preferences: ['project', 'json', 'toon', 'root', 'data'],
};

export const COMMANDS = Object.keys(COMMAND_OPTIONS);

/** USAGE's lines for one entry of a section: its first line and the indented lines that continue it. */
function entry(section: string, starts: (line: string) => boolean): string[] {
  const lines = USAGE.split('\n');
  const from = lines.indexOf(section);
  const out: string[] = [];
  for (let i = from + 1; i < lines.length && lines[i].trim(); i++) {
    if (starts(lines[i])) {
      out.push(lines[i]);
      for (let k = i + 1; k < lines.length && /^ {20,}/.test(lines[k]); k++) out.push(lines[k]);
    }
  }
  return out;
}

/** The help of one command: what it does and the options it reads. */
export function commandHelp(command: string): string | undefined {
  const options = COMMAND_OPTIONS[command];
  if (!options) return undefined;
  const what = entry('Commands:', (l) => l.startsWith(`  ${command} `) || l === `  ${command}`);
  const flags = entry('Options:', (l) => options.some((o) => l.startsWith(`  --${o} `) || l.startsWith(`  --${o},`)) || l.startsWith('  -h, --help'));
  return `Usage: session-search ${command} [options]\n\n${what.join('\n')}\n\nOptions:\n${flags.join('\n')}\n`;
}

/** The known name closest to a mistyped one (at most two edits, and fewer than half its letters), if any. */
export function didYouMean(typed: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = editDistance(typed, name, 2);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best !== undefined && bestDistance <= 2 && bestDistance * 2 < typed.length ? best : undefined;
}
