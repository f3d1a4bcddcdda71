/** Where each source is looked for by default: the folders each tool documents, moved by the variables each honours. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultRoots, DEFAULT_ROOTS, rootsFromSettings, splitRoots, type SourceSetting } from '../../src/core/ingest/sources/default-roots.js';
import { SOURCES } from '../../src/core/ingest/sources/registry.js';
import { SOURCE_IDS } from '../../src/core/model.js';
import { tempDir } from '../helpers.js';

const of = (env: NodeJS.ProcessEnv, source: string): string[] =>
  defaultRoots(env)
    .filter((r) => r.source === source)
    .map((r) => r.path);

test("each adapter's default folders are its line of the one table, in the order sources are listed", () => {
  const env = { HOME: '/home/u' };
  assert.deepEqual(
    SOURCES.map((s) => s.id),
    [...SOURCE_IDS],
  );
  for (const source of SOURCES) assert.deepEqual(source.defaultRoots(env), DEFAULT_ROOTS[source.id](env), source.id);
  assert.deepEqual(
    defaultRoots(env),
    SOURCES.flatMap((s) => s.defaultRoots(env).map((path) => ({ source: s.id, path }))),
  );
});

test('the tools’ homes, and the variables that move them', () => {
  const home = { HOME: '/home/u', XDG_CONFIG_HOME: '/nowhere' };
  assert.deepEqual(of(home, 'claude-code'), ['/home/u/.claude/projects']);
  assert.deepEqual(of({ ...home, CLAUDE_CONFIG_DIR: '/a, /b' }, 'claude-code'), ['/a/projects', '/b/projects']);
  assert.deepEqual(of(home, 'codex'), ['/home/u/.codex/sessions', '/home/u/.codex/archived_sessions']);
  assert.deepEqual(of({ ...home, CODEX_HOME: '/cx' }, 'codex'), ['/cx/sessions', '/cx/archived_sessions']);
  assert.deepEqual(of(home, 'codearchitect'), ['/home/u/.codearchitect/sessions']);
  assert.deepEqual(of({ ...home, GEMINI_CLI_HOME: '/g' }, 'gemini'), ['/g/.gemini/tmp']);
  assert.deepEqual(of({ ...home, COPILOT_HOME: '/cp' }, 'copilot-cli'), ['/cp/session-state']);
  assert.deepEqual(of({ ...home, OPENCODE_DB: '/oc/opencode.db' }, 'opencode'), ['/oc']);
  assert.deepEqual(of({ ...home, AMP_DATA_DIR: '/amp' }, 'amp'), ['/amp/threads']);
  assert.deepEqual(of(home, 'chatgpt'), []);
  // Claude Code's XDG folder is read only where it exists
  const config = tempDir();
  mkdirSync(join(config, 'claude', 'projects'), { recursive: true });
  assert.deepEqual(of({ HOME: '/home/u', XDG_CONFIG_HOME: config }, 'claude-code'), ['/home/u/.claude/projects', join(config, 'claude', 'projects')]);
});

test("Crush's projects are the data folders its registry lists; a missing or odd registry lists none", () => {
  const data = tempDir();
  assert.deepEqual(of({ HOME: '/home/u', CRUSH_GLOBAL_DATA: data }, 'crush'), []);
  writeFileSync(join(data, 'projects.json'), JSON.stringify({ projects: [{ data_dir: '/p/.crush' }, { data_dir: 3 }, null, { other: 1 }, { data_dir: '' }] }));
  assert.deepEqual(of({ HOME: '/home/u', CRUSH_GLOBAL_DATA: data }, 'crush'), ['/p/.crush']);
  writeFileSync(join(data, 'projects.json'), '[1, 2');
  assert.deepEqual(of({ HOME: '/home/u', CRUSH_GLOBAL_DATA: data }, 'crush'), []);
});

test("SpecStory and Aider are the workspace's, every other source the machine's", () => {
  const { machine, workspace } = splitRoots(defaultRoots({ HOME: '/home/u' }));
  assert.deepEqual([...new Set(workspace.map((r) => r.source))].sort(), ['aider', 'specstory']);
  assert.ok(machine.every((r) => r.source !== 'aider' && r.source !== 'specstory'));
  assert.equal(machine.length + workspace.length, defaultRoots({ HOME: '/home/u' }).length);
});

test("the editor's per-source settings: enabled sources' defaults and extra folders, workspace folders for SpecStory and Aider", () => {
  const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/nowhere' };
  const settings = SOURCES.map((s, i) => ({ id: s.id, enabled: i % 5 !== 0, folders: i % 3 ? [] : [`/extra/${s.id}`] }));
  const roots = rootsFromSettings(settings, ['/ws/a', '/ws/b'], env);
  // (what each adapter says, for the enabled ones: the MCP server and a window work this out without the adapters)
  const expected = settings
    .filter((s) => s.enabled)
    .flatMap((s) => {
      const defaults = ['specstory', 'aider'].includes(s.id) ? ['/ws/a', '/ws/b'] : SOURCES.find((a) => a.id === s.id)!.defaultRoots(env);
      return [...defaults, ...s.folders].map((path) => ({ source: s.id, path }));
    });
  assert.deepEqual(roots, expected);
  // an id the settings file holds that no source has is skipped, whatever it is called
  const stray = ['nosuch', 'constructor', 'toString', '__proto__'].map((id) => ({ id, enabled: true, folders: ['/x'] }) as unknown as SourceSetting);
  assert.deepEqual(rootsFromSettings(stray, ['/ws'], env), []);
});

test('the file system root and the home folder are no workspace: from either, SpecStory and Aider walk nothing; a window opened on them neither', () => {
  const home = tempDir();
  const here = process.cwd();
  try {
    for (const cwd of ['/', home, `${home}/`]) {
      process.chdir(cwd);
      assert.deepEqual(DEFAULT_ROOTS.specstory({ HOME: home }), [], cwd);
      assert.deepEqual(DEFAULT_ROOTS.aider({ HOME: home }), [], cwd);
    }
    const project = join(home, 'project');
    mkdirSync(project);
    process.chdir(project);
    assert.deepEqual(DEFAULT_ROOTS.aider({ HOME: home }), [process.cwd()]);
  } finally {
    process.chdir(here);
  }
  const settings: SourceSetting[] = [{ id: 'aider', enabled: true, folders: [] }];
  assert.deepEqual(rootsFromSettings(settings, ['/', home, '/ws/a'], { HOME: home }), [{ source: 'aider', path: '/ws/a' }]);
});
