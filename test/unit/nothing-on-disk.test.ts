import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nothingOnDisk } from '../../src/cli/render.js';

test('with nothing to search, the command line says where each tool keeps its history: a line per tool', () => {
  const home = '/home/ann';
  const text = nothingOnDisk(
    [
      { source: 'claude-code', path: '/home/ann/.claude/projects', exists: false },
      { source: 'codex', path: '/home/ann/.codex/sessions', exists: true },
      { source: 'codex', path: '/home/ann/.codex/archived_sessions', exists: false },
      { source: 'copilot-chat', path: '/home/ann/.config/Code/User/workspaceStorage', exists: false },
      { source: 'copilot-chat', path: '/home/ann/.config/Code - Insiders/User/workspaceStorage', exists: false },
      { source: 'copilot-chat', path: '/home/ann/.vscode-server/data/User/workspaceStorage', exists: false },
      { source: 'specstory', path: '/home/annie/work\u001b[31m', exists: true },
    ],
    home,
  );
  assert.equal(
    text,
    [
      'No sessions found on disk. Where each tool keeps its history:',
      '  claude-code   ~/.claude/projects: does not exist',
      '  codex         ~/.codex/sessions: no transcripts; ~/.codex/archived_sessions: does not exist',
      '  copilot-chat  3 folders, none exists (~/.config/Code/User/workspaceStorage, …)',
      // (a folder beside the home is not in it; a control character is not sent to the terminal)
      '  specstory     /home/annie/work [31m: no transcripts',
      'Point a source at its folder with --root SOURCE=PATH.',
      '',
    ].join('\n'),
  );
});
