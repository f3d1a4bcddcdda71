/** The source adapters the product knows, in the order they are listed to users. */
import { aiderSource } from './aider.js';
import { ampSource } from './amp.js';
import { chatGptSource } from './chatgpt.js';
import { claudeAiSource } from './claude-ai.js';
import { continueSource } from './continue.js';
import { copilotCliSource } from './copilot-cli.js';
import { qwenSource } from './qwen.js';
import { gooseSource } from './goose.js';
import { kimiSource } from './kimi.js';
import { droidSource } from './droid.js';
import { crushSource } from './crush.js';
import { openHandsSource } from './openhands.js';
import { kiroSource } from './kiro.js';
import { zedSource } from './zed.js';
import { geminiTakeoutSource } from './gemini-takeout.js';
import { claudeCodeSource } from './claude-code.js';
import { clineSource } from './cline.js';
import { codeArchitectSource } from './codearchitect.js';
import { codexSource } from './codex.js';
import { copilotChatSource } from './copilot-chat.js';
import { cursorSource } from './cursor.js';
import { geminiSource } from './gemini.js';
import { openCodeSource } from './opencode.js';
import { rooSource } from './roo.js';
import { specStorySource } from './specstory.js';
import type { SourceAdapter } from './types.js';

export const SOURCES: readonly SourceAdapter[] = [
  codeArchitectSource,
  claudeCodeSource,
  codexSource,
  copilotChatSource,
  geminiSource,
  cursorSource,
  clineSource,
  rooSource,
  openCodeSource,
  specStorySource,
  aiderSource,
  copilotCliSource,
  ampSource,
  continueSource,
  qwenSource,
  gooseSource,
  kimiSource,
  droidSource,
  crushSource,
  openHandsSource,
  kiroSource,
  zedSource,
  chatGptSource,
  claudeAiSource,
  geminiTakeoutSource,
];

export function sourceById(id: string): SourceAdapter | undefined {
  return SOURCES.find((s) => s.id === id);
}

export { defaultRoots, splitRoots, type SourceRoot } from './default-roots.js';
